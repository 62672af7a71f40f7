#!/usr/bin/env python3
"""Write the input arrays of resources/hardware/kernels/extra11/ (the ``// input: NAME = FILE.npy``
lines of its kernels): small, C-order, from one fixed seed, so the files in the repository can be
made again byte for byte. Each fills the start of its pointer parameter's buffer on the GPU (the
rest stays zero) and in the emulator (``--arg NAME=FILE.npy``).

usage: python resources/hardware/kernels/extra11/make_inputs.py [--out DIR]  (default: this folder)
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[4]  # the checkout: this file is resources/hardware/kernels/BATCH/
OUT = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT / "scripts"))
import kernel_inputs  # noqa: E402  (scripts/kernel_inputs.py: what every batch's recipe shares)

WORDS = ("the of and to in is that for it as was with be by on not he this are or his from at which "
         "but have an they you were her she there had all one word their we can been has more if no "
         "out so said what up its about into than them only other new some could time these two may "
         "then do first any like now my such make over our even most me state after also made many "
         "shared memory bank conflict warp thread block kernel").split()


def text(rng: np.random.Generator, n: int) -> np.ndarray:
    """English-like bytes: frequent words, spaces, the odd capital and full stop."""
    p = 1.0 / np.arange(1, len(WORDS) + 1)  # Zipf's law over the list, most frequent first
    out = bytearray()
    while len(out) < n:
        w = WORDS[rng.choice(len(WORDS), p=p / p.sum())]
        if rng.random() < 0.05:
            w = w.capitalize()
        out += w.encode() + (b". " if rng.random() < 0.07 else b" ")
    return np.frombuffer(bytes(out[:n]), np.uint8).copy()


def csr(rng: np.random.Generator, rows: int, cols: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A banded sparse matrix with a few random entries a row (like a discretised operator)."""
    ptr, col = [0], []
    for r in range(rows):
        band = {c for c in range(2 * r - 2, 2 * r + 3) if 0 <= c < cols}
        extra = set(rng.choice(cols, size=int(rng.integers(0, 8)), replace=False).tolist())
        cs = sorted(band | extra)
        col += cs
        ptr.append(len(col))
    return (np.array(ptr, np.int32), np.array(col, np.int32),
            rng.normal(0, 1, len(col)).astype(np.float32))


def make(out: Path) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(20251125)
    arrays: dict[str, np.ndarray] = {}
    arrays["ints_1024"] = rng.integers(0, 1000, 1024, dtype=np.int32)
    arrays["floats_1024"] = rng.normal(0, 1, 1024).astype(np.float32)
    arrays["keys_1024"] = rng.integers(-2**31, 2**31, 1024, dtype=np.int64).astype(np.int32)
    arrays["u64_1024"] = rng.integers(0, 2**63, 1024, dtype=np.int64).astype(np.uint64)
    arrays["text_4096"] = text(rng, 4096)
    arrays["pattern_4"] = np.frombuffer(b"the ", np.uint8).copy()
    # clustered around the middle: the 64 bins (v >> 4) & 63 of hist_per_warp_subhist are uneven
    arrays["values_2048"] = np.clip(rng.normal(512, 120, 2048), 0, 1023).astype(np.int32)
    # sorted runs of equal keys, 1 to 12 long
    runs = np.repeat(np.arange(512, dtype=np.int32) * 3, rng.integers(1, 13, 512))
    arrays["runs_512"] = runs[:512].astype(np.int32)
    arrays["lut_256"] = ((np.arange(256) / 255.0) ** (1 / 2.2)).astype(np.float32)  # a gamma curve
    # pixel codes of a 32 x 32 image: a smooth gradient with noise, so neighbours have close codes
    yy, xx = np.mgrid[0:32, 0:32]
    img = 4 * xx + 2 * yy + rng.normal(0, 6, (32, 32))
    arrays["lut_idx_1024"] = np.clip(img, 0, 255).astype(np.int32).ravel()
    arrays["hash_keys_512"] = rng.integers(0, 400, 512, dtype=np.int32)  # duplicates on purpose
    p = 1.0 / np.arange(1, 17)
    arrays["bucket_keys_256"] = rng.choice(16, size=256, p=p / p.sum()).astype(np.int32)
    arrays["sort_ints_256"] = rng.integers(0, 10000, 256, dtype=np.int32)
    arrays["warp_select_4"] = np.array([1, 0, 0, 1], np.int32)
    arrays["perm_256"] = rng.permutation(256).astype(np.int32)
    ptr, col, val = csr(rng, 128, 256)
    arrays["csr_row_ptr_129"], arrays["csr_col"], arrays["csr_val"] = ptr, col, val
    arrays["csr_x_256"] = rng.normal(0, 1, 256).astype(np.float32)
    arrays["trips_128"] = rng.integers(0, 16, 128, dtype=np.int32)
    g = np.exp(-((np.arange(5) - 2) ** 2) / 2.0)
    arrays["weights_25"] = (np.outer(g, g) / np.outer(g, g).sum()).astype(np.float32).ravel()

    return kernel_inputs.save(out, arrays, max_bytes=64 * 1024, dtypes=kernel_inputs.DTYPES + (np.uint64,))


if __name__ == "__main__":
    kernel_inputs.main(make, OUT, __doc__)
