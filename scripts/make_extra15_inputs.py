#!/usr/bin/env python3
"""Write the input arrays of resources/hardware/kernels/extra15/ (the ``// input:`` lines of its
kernels) from one fixed seed, byte for byte reproducible.

usage: python scripts/make_extra15_inputs.py [--out resources/hardware/kernels/extra15]
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

import kernel_inputs  # scripts/kernel_inputs.py

OUT = Path(__file__).resolve().parent.parent / "resources" / "hardware" / "kernels" / "extra15"


def make(out: Path) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(15)
    return kernel_inputs.save(out, {"floats_4096": rng.integers(-64, 64, 4096).astype(np.float32) / 4,
                                    "ints_4096": rng.integers(-1000, 1000, 4096).astype(np.int32)})


if __name__ == "__main__":
    kernel_inputs.main(make, OUT, __doc__)
