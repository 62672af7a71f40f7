#!/usr/bin/env python3
"""Write the input arrays of resources/hardware/kernels/extra15/ (the ``// input:`` lines of its
kernels) from one fixed seed, byte for byte reproducible.

usage: python resources/hardware/kernels/extra15/make_inputs.py [--out DIR]  (default: this folder)
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np


ROOT = Path(__file__).resolve().parents[4]  # the checkout: this file is resources/hardware/kernels/BATCH/
OUT = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT / "scripts"))
import kernel_inputs  # noqa: E402  (scripts/kernel_inputs.py: what every batch's recipe shares)


def make(out: Path) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(15)
    return kernel_inputs.save(out, {"floats_4096": rng.integers(-64, 64, 4096).astype(np.float32) / 4,
                                    "ints_4096": rng.integers(-1000, 1000, 4096).astype(np.int32)})


if __name__ == "__main__":
    kernel_inputs.main(make, OUT, __doc__)
