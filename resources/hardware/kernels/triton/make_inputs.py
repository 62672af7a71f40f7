"""Write the cases' input arrays (CASE.NAME.npy) from cases.json: small, deterministic (seeded)."""

import json
from pathlib import Path

import numpy as np

HERE = Path(__file__).parent


def main() -> None:
    cases = json.loads((HERE / "cases.json").read_text())
    for k, (case, spec) in enumerate(sorted(cases.items())):
        rng = np.random.default_rng(1000 + k)
        for name, (shape, dtype, fill) in spec["arrays"].items():
            if fill == "zeros":
                a = np.zeros(shape, dtype)
            elif fill == "randint":
                a = rng.integers(-8, 8, shape).astype(dtype)
            elif fill == "randbins32":  # bin numbers 0-31, uniform
                a = rng.integers(0, 32, shape).astype(dtype)
            elif fill == "randbins":  # bin numbers, more of them in the low bins (a skewed histogram)
                a = np.minimum(rng.geometric(0.08, shape) - 1, 63).astype(dtype)
            else:
                a = rng.standard_normal(shape).astype(dtype)
            np.save(HERE / f"{case}.{name}.npy", a)


if __name__ == "__main__":
    main()
