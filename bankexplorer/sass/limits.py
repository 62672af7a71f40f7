"""What a launch may ask for, checked once for the command line and the Python API alike: block,
grid and block index within CUDA's limits (a value past 32 bits would wrap in the emulated
registers), a scalar parameter's value that fits its type, and data for a pointer parameter that
is plain numbers. Each check raises ``ValueError`` with a message that names the value; callers
add the option or argument it came from.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

#: CUDA's limits (cudaDeviceProp.maxThreadsDim, maxGridSize; the same on every GPU since sm_30)
MAX_BLOCK_DIM = (1024, 1024, 64)
MAX_BLOCK_THREADS = 1024
MAX_GRID_DIM = ((1 << 31) - 1, 65535, 65535)
#: digits a number on the command line may have (a 64-bit integer has 20)
MAX_DIGITS = 40


def check_block(block: tuple[int, int, int]) -> None:
    """A block's sizes: 1 to CUDA's limit in each dimension, at most 1,024 threads in all."""
    for k, (n, hi) in enumerate(zip(block, MAX_BLOCK_DIM)):
        if not 1 <= n <= hi:
            raise ValueError(f"{'xyz'[k]} = {n:,}: a block has 1 to {hi:,} threads in {'xyz'[k]}")
    if math.prod(block) > MAX_BLOCK_THREADS:
        raise ValueError(f"{math.prod(block):,} threads: a block has 1 to {MAX_BLOCK_THREADS:,}")


def check_grid(grid: tuple[int, int, int]) -> None:
    """A grid's sizes: 1 to CUDA's limit in each dimension (gridDim.x below 2**31, y and z below 2**16)."""
    for k, (n, hi) in enumerate(zip(grid, MAX_GRID_DIM)):
        if not 1 <= n <= hi:
            raise ValueError(f"{'xyz'[k]} = {n:,}: a grid has 1 to {hi:,} blocks in {'xyz'[k]}")


def check_index(index: tuple[int, int, int]) -> None:
    """A block index: from 0, below CUDA's grid limit in each dimension."""
    for k, (n, hi) in enumerate(zip(index, MAX_GRID_DIM)):
        if not 0 <= n < hi:
            raise ValueError(f"{'xyz'[k]} = {n:,}: a block index is 0 to {hi - 1:,} in {'xyz'[k]}")


def parse_dims(text: str, what: str) -> tuple[int, int, int]:
    """A launch shape typed as text: ``32,8``, ``32x8x1`` or ``256`` -> (x, y, z), a size not given
    1 (0 for a block index), checked against CUDA's limits. The one reader of a typed shape: the
    command line's ``--block``, ``--block-index`` and ``--grid`` and the Import CUDA dialog's boxes
    come here. ``what``: ``"block"``, ``"block index"`` or ``"grid"``. ``ValueError`` saying what to
    write; callers add where the text came from."""
    index = what == "block index"
    try:
        if sum(c.isdigit() for c in text) > 3 * MAX_DIGITS:
            raise ValueError
        nums = [int(p) for p in text.lower().replace("x", ",").split(",") if p.strip()]
    except ValueError:
        nums = []
    if not 1 <= len(nums) <= 3 or min(nums) < 0:
        raise ValueError("write 1 to 3 numbers from 0, e.g. 1,0,0" if index else "write 1 to 3 sizes, e.g. 32,8")
    dims = tuple(nums + [0 if index else 1] * (3 - len(nums)))
    {"block": check_block, "block index": check_index, "grid": check_grid}[what](dims)  # type: ignore[arg-type]
    return dims  # type: ignore[return-value]


def parse_number(text: str) -> int | float:
    """A ``-D`` value: an integer (decimal, 0x, 0o, 0b) or a finite floating-point number. NaN, an
    infinity (``1e999`` is one) and a number of more than :data:`MAX_DIGITS` digits are refused:
    the kernel would get something other than what was written."""
    s = text.strip()
    if sum(c.isdigit() for c in s) > MAX_DIGITS:
        raise ValueError(f"{len(s):,} characters: a number of more than {MAX_DIGITS} digits is not a value a "
                         f"kernel parameter or macro can hold")
    try:
        return int(s, 0)
    except ValueError:
        pass
    try:
        v = float(s)
    except ValueError:
        raise ValueError(f"{text!r} is not a number") from None
    if not math.isfinite(v):
        raise ValueError(f"{text!r} is not a finite number" + (" (it is past the largest double)"
                                                               if "n" not in s.lower() else ""))
    return v


def integer_value(value: int | float, size: int, type_name: str) -> int:
    """A value for an integer parameter of ``size`` bytes and type ``type_name``: an integral
    number its bits hold (signed or unsigned), never cut to them."""
    if isinstance(value, float):
        if not math.isfinite(value) or value != int(value):
            raise ValueError(f"{value!r} is not an integer, which {type_name} needs")
        value = int(value)
    lo, hi = -(1 << (8 * size - 1)), (1 << (8 * size)) - 1  # as C converts: -1 is a valid unsigned, 0xFFFFFFFF an int
    if not lo <= value <= hi:
        raise ValueError(f"{value:,} does not fit {type_name} ({size * 8} bits)")
    return int(value)


def array_bytes(value: Any) -> bytes:
    """A pointer parameter's data as bytes in C order: numbers only. An object array would put the
    addresses of Python objects into device memory, and a structured one fields the kernel does not
    declare."""
    arr = np.asarray(value)
    if arr.dtype.hasobject:
        raise ValueError("holds Python objects (dtype object): give numbers, e.g. np.float32")
    if arr.dtype.names is not None or arr.dtype.kind not in "biufc":
        raise ValueError(f"has dtype {arr.dtype}: give an array of numbers (bool, integer, float or complex)")
    return np.ascontiguousarray(arr).tobytes()
