"""The TMA's shared-memory swizzle modes (``CU_TENSOR_MAP_SWIZZLE_32B/64B/128B``).

When the TMA writes a box into shared memory it XORs the 16-byte chunk index inside each
128-byte span with bits of the row above it, on the *shared-memory byte address*:

=========  ===========================  =====================
mode       chunk bits ^= address bits   CuTe form (on bytes)
=========  ===========================  =====================
``32B``    bit 4 ^= bit 7               ``Swizzle<1,4,3>``
``64B``    bits 4-5 ^= bits 7-8         ``Swizzle<2,4,3>``
``128B``   bits 4-6 ^= bits 7-9         ``Swizzle<3,4,3>``
=========  ===========================  =====================

The array is the box as the TMA lays it out: row-major, each row ``dims[-1] * sizeof(T)``
bytes, which the CUDA driver requires to be at most the swizzle width. Because the hardware
swizzles the *address*, the array's ``base`` takes part: a box at a base that is not a multiple
of the pattern's period (256/512/1024 bytes) gets a shifted pattern, exactly as on the GPU.
"""

from __future__ import annotations

import numpy as np

from ..layout import SharedArray, Transform, TransformInfo, linear, register_transform
from ..swizzle import Swizzle

KIND = "tma"
#: mode -> (swizzle width in bytes, the equivalent CuTe swizzle on byte addresses)
MODES: dict[str, tuple[int, Swizzle | None]] = {
    "none": (0, None),
    "32B": (32, Swizzle(1, 4, 3)),
    "64B": (64, Swizzle(2, 4, 3)),
    "128B": (128, Swizzle(3, 4, 3)),
}


def swizzle_of(mode: str) -> Swizzle | None:
    return MODES[mode][1]


def period(mode: str) -> int:
    """Bytes after which the mode's pattern repeats (the base alignment that keeps it unshifted)."""
    sw = MODES[mode][1]
    return 1 << (sw.M + sw.S + sw.B) if sw else 16


def _offsets(arr: SharedArray, idx: tuple[np.ndarray, ...]) -> np.ndarray:
    sw = swizzle_of(str(arr.transform.get("mode", "128B")))
    off = linear(arr, idx) * arr.elem_size
    if sw is None:
        return off
    return sw(arr.base + off) - arr.base


def _validate(arr: SharedArray) -> list[tuple[str, str]]:
    mode = arr.transform.get("mode", "128B")
    if mode not in MODES:
        return [("mode", f"must be one of {', '.join(MODES)} (CU_TENSOR_MAP_SWIZZLE_<mode>), got {mode!r}")]
    width = MODES[mode][0]
    if arr.padding:
        return [("padding", "the TMA writes boxes densely: a TMA box has no padding")]
    if width and arr.base % 128:
        return [("mode", f"the TMA writes swizzled boxes to 128-byte aligned shared memory; base {arr.base} is not "
                         f"(and a base that is not a multiple of {period(mode)} shifts the {mode} pattern)")]
    row = arr.dims[-1] * arr.elem_size
    if width and row > width:
        return [("mode", f"a box row of {arr.dims[-1]} x {arr.elem_size} B = {row} B is wider than the {mode} swizzle; "
                         f"the TMA requires boxDim[0] * elementSize <= {width} B (split the tile into boxes: "
                         f"dims [{row // width}, rows, {width // arr.elem_size}] if it is {row // width} boxes)")]
    return []


def _describe(t: Transform) -> str:
    mode = t.get("mode", "128B")
    sw = MODES.get(mode, (0, None))[1]
    return f"TMA SWIZZLE_{mode}" + (f" (= {sw} on byte addresses)" if sw else "")


def make(mode: str) -> Transform:
    return Transform.make(KIND, mode=mode)


register_transform(KIND, _offsets, TransformInfo("TMA swizzle", _validate, _describe))
