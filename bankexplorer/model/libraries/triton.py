"""Triton's shared-memory encodings as TTGIR prints them.

``#ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>``: ``order``
lists the dimensions fastest first; the fastest one is the *column* ``c``, the next one the
*row* ``r``, and element ``(r, c)`` is stored in row ``r`` at column::

    c ^ ((vec * ((r / perPhase) % maxPhase)) % numCols)

which, whenever ``vec * maxPhase <= numCols``, is Triton's documented
``((c / vec) ^ ((r / perPhase) % maxPhase)) * vec + c % vec`` (the modulo is how Triton's
``toLinearLayout`` keeps narrow tiles in range). Further dimensions follow ``order`` outward.

``#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>``:
the layout wgmma/tcgen05 and the TMA share. The tile is cut into column blocks of
``swizzlingByteWidth`` bytes (one TMA box each), every block stores all rows contiguously, and
each block is swizzled like the TMA's ``SWIZZLE_<width>`` (``Swizzle<1|2|3,4,3>`` on bytes);
``swizzlingByteWidth = 0`` is no swizzle (row-major boxes of up to 256 columns).
``transposed = true`` makes dimension 0 the contiguous one (2-D only).
"""

from __future__ import annotations

import numpy as np

from ..layout import SharedArray, Transform, TransformInfo, register_transform
from .tma import MODES as TMA_MODES

SWIZZLED = "triton-swizzled"
NVMMA = "triton-nvmma"
NVMMA_WIDTHS = (0, 32, 64, 128)  # 0: no swizzle
NO_SWIZZLE_BOX = 256  # the TMA's largest box dimension, in elements


def _pow2(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and v >= 1 and v & (v - 1) == 0


def _order(arr: SharedArray) -> tuple[int, ...]:
    o = arr.transform.get("order")
    return tuple(o) if o is not None else tuple(range(arr.ndim - 1, -1, -1))


# ---- swizzled_shared -----------------------------------------------------------------------------
def swizzled_column(r, c, vec: int, per_phase: int, max_phase: int, num_cols: int):
    """Where column ``c`` of row ``r`` is stored (Triton's formula, vectorized)."""
    r = np.asarray(r, np.int64)
    c = np.asarray(c, np.int64)
    return c ^ ((vec * ((r // per_phase) % max_phase)) % num_cols)


def _swizzled(arr: SharedArray, idx: tuple[np.ndarray, ...]) -> np.ndarray:
    t = arr.transform
    order = _order(arr)
    idx = [np.asarray(i, np.int64) for i in idx]
    if arr.ndim >= 2:
        col, row = order[0], order[1]
        idx[col] = swizzled_column(idx[row], idx[col], int(t.get("vec", 1)), int(t.get("perPhase", 1)),
                                   int(t.get("maxPhase", 1)), arr.dims[col])
    off = np.int64(0)
    step = 1
    for d in order:
        off = off + idx[d] * step
        step *= arr.dims[d]
    return np.asarray(off, np.int64) * arr.elem_size


def _validate_order(arr: SharedArray) -> list[tuple[str, str]]:
    o = arr.transform.get("order")
    if o is None:
        return []
    if not isinstance(o, tuple) or sorted(o) != list(range(arr.ndim)):
        return [("order", f"must list each of the array's {arr.ndim} dimensions once, fastest first "
                          f"(e.g. {list(range(arr.ndim - 1, -1, -1))} for row-major), got {list(o) if isinstance(o, tuple) else o!r}")]
    return []


def _validate_swizzled(arr: SharedArray) -> list[tuple[str, str]]:
    p = []
    for k in ("vec", "perPhase", "maxPhase"):
        if not _pow2(arr.transform.get(k, 1)):
            p.append((k, f"must be a power of two (Triton's encodings are), got {arr.transform.get(k)!r}"))
    p += _validate_order(arr)
    if arr.padding:
        p.append(("padding", "a Triton shared encoding has no padding (Triton's padded_shared is another encoding)"))
    if p:
        return p
    if arr.ndim >= 2:
        o = _order(arr)
        for d in o[:2]:
            if not _pow2(arr.dims[d]):
                p.append(("", f"dimension {d} ({arr.dims[d]}) is swizzled and must be a power of two, as Triton's tensors are"))
    return p


def _describe_swizzled(t: Transform) -> str:
    o = t.get("order")
    order = f", order = [{', '.join(map(str, o))}]" if o is not None else ""
    return (f"#ttg.swizzled_shared<{{vec = {t.get('vec', 1)}, perPhase = {t.get('perPhase', 1)}, "
            f"maxPhase = {t.get('maxPhase', 1)}{order}}}>")


# ---- nvmma_shared ---------------------------------------------------------------------------------
def _nvmma(arr: SharedArray, idx: tuple[np.ndarray, ...]) -> np.ndarray:
    t = arr.transform
    width = int(t.get("swizzlingByteWidth", 128))
    sw = TMA_MODES[f"{width}B"][1] if width else None
    idx = [np.asarray(i, np.int64) for i in idx]
    if t.get("transposed", False):
        rows_n, cols_n = arr.dims[1], arr.dims[0]
        r, c = idx[1], idx[0]
    else:
        cols_n = arr.dims[-1]
        rows_n = int(np.prod(arr.dims[:-1]))
        r = np.int64(0)
        for i, d in zip(idx[:-1], arr.dims[:-1]):
            r = r * d + i
        c = idx[-1]
    e = arr.elem_size
    box_cols = min(cols_n, width // e if width else NO_SWIZZLE_BOX)  # one TMA box: swizzlingByteWidth bytes of a row
    block, cb = c // box_cols, c % box_cols
    inner = r * (box_cols * e) + cb * e
    off = block * (rows_n * box_cols * e) + (sw(inner) if sw is not None else inner)
    return np.asarray(off, np.int64)


def _validate_nvmma(arr: SharedArray) -> list[tuple[str, str]]:
    t = arr.transform
    width = t.get("swizzlingByteWidth", 128)
    if width not in NVMMA_WIDTHS:
        return [("swizzlingByteWidth", f"must be one of {', '.join(map(str, NVMMA_WIDTHS))}, got {width!r}")]
    if not isinstance(t.get("transposed", False), bool):
        return [("transposed", "must be true or false")]
    bits = t.get("elementBitWidth")
    if bits is not None and bits != arr.elem_size * 8:
        return [("elementBitWidth", f"is {bits} but the array's {arr.dtype} elements are {arr.elem_size * 8} bits")]
    if arr.padding:
        return [("padding", "nvmma_shared has no padding")]
    if arr.ndim < 2:
        return [("", "nvmma_shared describes 2-D (or batched 3-D) tiles")]
    if t.get("transposed", False) and arr.ndim != 2:
        return [("transposed", "transposed nvmma_shared is supported for 2-D tiles")]
    cols = arr.dims[0] if t.get("transposed", False) else arr.dims[-1]
    rows = arr.dims[1] if t.get("transposed", False) else int(np.prod(arr.dims[:-1]))
    if width == 0:
        if cols > NO_SWIZZLE_BOX and cols % NO_SWIZZLE_BOX:
            return [("", f"without a swizzle the contiguous dimension is cut into TMA boxes of {NO_SWIZZLE_BOX} "
                         f"elements; {cols} is not a multiple of {NO_SWIZZLE_BOX}")]
        return []
    box = width // arr.elem_size
    if cols * arr.elem_size < width or cols % box:
        return [("swizzlingByteWidth", f"the contiguous dimension ({cols} x {arr.elem_size} B) must be a multiple of "
                                       f"{width} B; Triton picks a narrower swizzle for narrower tiles")]
    if rows % 8:
        return [("", f"nvmma_shared tiles have a multiple of 8 rows, got {rows}")]
    return []


def _describe_nvmma(t: Transform) -> str:
    bits = t.get("elementBitWidth")
    return (f"#ttg.nvmma_shared<{{swizzlingByteWidth = {t.get('swizzlingByteWidth', 128)}, "
            f"transposed = {str(bool(t.get('transposed', False))).lower()}"
            + (f", elementBitWidth = {bits}" if bits is not None else "") + "}>")


def swizzled(vec: int, per_phase: int, max_phase: int, order=None) -> Transform:
    kw = dict(vec=vec, perPhase=per_phase, maxPhase=max_phase)
    if order is not None:
        kw["order"] = tuple(order)
    return Transform.make(SWIZZLED, **kw)


def nvmma(width: int, transposed: bool = False, element_bits: int | None = None) -> Transform:
    kw: dict = dict(swizzlingByteWidth=width, transposed=transposed)
    if element_bits is not None:
        kw["elementBitWidth"] = element_bits
    return Transform.make(NVMMA, **kw)


register_transform(SWIZZLED, _swizzled, TransformInfo("Triton swizzled_shared", _validate_swizzled, _describe_swizzled))
register_transform(NVMMA, _nvmma, TransformInfo("Triton nvmma_shared", _validate_nvmma, _describe_nvmma))
