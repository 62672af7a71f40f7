"""The input arrays of the kernels of extra15/ (their ``// input:`` lines), from one fixed seed
(what every recipe promises: ``scripts/kernel_inputs.py``).

usage: python scripts/kernel_inputs.py extra15 [--out DIR]  (default: this folder)
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

import kernel_inputs  # scripts/kernel_inputs.py: what every batch's recipe shares


def make(out: Path) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(15)
    return kernel_inputs.save(out, {"floats_4096": rng.integers(-64, 64, 4096).astype(np.float32) / 4,
                                    "ints_4096": rng.integers(-1000, 1000, 4096).astype(np.int32)})

