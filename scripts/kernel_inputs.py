"""What the ``make_extraN_inputs.py`` scripts share: writing the arrays a batch's ``// input:``
lines name (the types and sizes the measuring launcher takes), and their command line."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Callable

import numpy as np

#: what ``measure_persass.py`` copies into a buffer as raw bytes, and the emulator reads back
DTYPES = (np.int32, np.uint32, np.uint8, np.float32)


def standard(rng: np.random.Generator) -> dict[str, np.ndarray]:
    """The arrays most batches start from, drawn in this order from ``rng``: ints, 32-bit keys
    signed and unsigned, small multiples of 1/4 as floats (their sums are exact in any order) and
    normal floats."""
    return {
        "ints_1024": rng.integers(0, 1000, 1024, dtype=np.int32),
        "keys_1024": rng.integers(-2**31, 2**31, 1024, dtype=np.int64).astype(np.int32),
        "ukeys_1024": rng.integers(0, 2**32, 1024, dtype=np.uint64).astype(np.uint32),
        "floats_1024": rng.integers(-64, 65, 1024).astype(np.float32) * np.float32(0.25),
        "normal_4096": rng.normal(0, 1, 4096).astype(np.float32),
    }


def csr(adj: list[set[int]]) -> tuple[np.ndarray, np.ndarray]:
    """A graph's adjacency sets as CSR (int32 row pointers, sorted column indices per row)."""
    ptr, col = [0], []
    for nbrs in adj:
        col += sorted(nbrs)
        ptr.append(len(col))
    return np.array(ptr, np.int32), np.array(col, np.int32)


def save(out: Path, arrays: dict[str, np.ndarray], max_bytes: int = 16 * 1024) -> dict[str, np.ndarray]:
    out.mkdir(parents=True, exist_ok=True)
    for name, arr in arrays.items():
        assert arr.nbytes <= max_bytes, name
        assert arr.dtype in DTYPES, name
        np.save(out / f"{name}.npy", np.ascontiguousarray(arr))
    return arrays


def main(make: Callable[[Path], dict[str, np.ndarray]], default_out: Path, doc: str) -> None:
    ap = argparse.ArgumentParser(description=doc.splitlines()[0])
    ap.add_argument("--out", type=Path, default=default_out)
    for name, arr in make(ap.parse_args().out).items():
        print(f"{name}.npy  {arr.dtype}  {arr.shape}")
