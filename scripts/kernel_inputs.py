"""What the ``make_extraN_inputs.py`` scripts share: writing the arrays a batch's ``// input:``
lines name (the types and sizes the measuring launcher takes), and their command line."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Callable

import numpy as np

#: what ``measure_persass.py`` copies into a buffer as raw bytes, and the emulator reads back
DTYPES = (np.int32, np.uint32, np.uint8, np.float32)


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
