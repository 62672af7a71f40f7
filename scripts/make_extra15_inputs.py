#!/usr/bin/env python3
"""Write the input arrays of resources/hardware/kernels/extra15/ (the ``// input:`` lines of its
kernels) from one fixed seed, byte for byte reproducible.

usage: python scripts/make_extra15_inputs.py [--out resources/hardware/kernels/extra15]
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

OUT = Path(__file__).resolve().parent.parent / "resources" / "hardware" / "kernels" / "extra15"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=OUT)
    out = ap.parse_args().out
    rng = np.random.default_rng(15)
    arrays = {"floats_4096": rng.integers(-64, 64, 4096).astype(np.float32) / 4,
              "ints_4096": rng.integers(-1000, 1000, 4096).astype(np.int32)}
    for name, a in arrays.items():
        np.save(out / f"{name}.npy", a)
        print(f"{name}.npy  {a.dtype}  {a.shape}")


if __name__ == "__main__":
    main()
