"""The input arrays of the kernels of extra11/ (their ``// input:`` lines), from fixed seeds
(what every recipe promises: ``scripts/kernel_inputs.py``).

usage: python scripts/kernel_inputs.py extra11 [--out DIR]  (default: this folder)
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import kernel_inputs  # scripts/kernel_inputs.py: what every batch's recipe shares

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


def capitalized(rng: np.random.Generator, word: str) -> bytes:
    """A word, the odd one capitalized, then a space or now and then a full stop."""
    if rng.random() < 0.05:
        word = word.capitalize()
    return word.encode() + (b". " if rng.random() < 0.07 else b" ")


def make(out: Path) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(20251125)
    arrays: dict[str, np.ndarray] = {}
    arrays["ints_1024"] = rng.integers(0, 1000, 1024, dtype=np.int32)
    arrays["floats_1024"] = rng.normal(0, 1, 1024).astype(np.float32)
    arrays["keys_1024"] = rng.integers(-2**31, 2**31, 1024, dtype=np.int64).astype(np.int32)
    arrays["u64_1024"] = rng.integers(0, 2**63, 1024, dtype=np.int64).astype(np.uint64)
    arrays["text_4096"] = kernel_inputs.zipf_text(rng, 4096, kernel_inputs.WORDS, capitalized)
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

