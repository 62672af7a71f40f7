"""Layouts as kernel libraries write them: CuTe layouts, Triton shared encodings, TMA swizzles.

Importing this package registers the layout kinds ``cute-layout``, ``triton-swizzled``,
``triton-nvmma`` and ``tma`` with :func:`bankexplorer.model.layout.register_transform`, so pattern
files, the engine and the window use them like the built-in kinds. :func:`from_text` turns a
string pasted from a library's printout into the matching :class:`Transform`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import cute, tma, triton  # noqa: F401  (registration)
from .paste import from_text

if TYPE_CHECKING:
    from ..layout import Transform

KINDS = (cute.KIND, triton.SWIZZLED, triton.NVMMA, tma.KIND)

__all__ = ["cute", "triton", "tma", "from_text", "default", "KINDS"]


def default(kind: str, dims: tuple[int, ...]) -> Transform:
    """A valid starting point when the user switches an array to a library kind in the window:
    the array's current row-major order, with the swizzle these libraries use most."""
    from ..layout import Transform

    if kind == cute.KIND:
        strides = []
        step = 1
        for d in reversed(dims):
            strides.insert(0, step)
            step *= d
        if len(dims) == 1:
            return cute.make(f"_{dims[0]}:_1")
        return cute.make("(" + ",".join(f"_{d}" for d in dims) + "):(" + ",".join(f"_{s}" for s in strides) + ")")
    if kind == triton.SWIZZLED:
        return triton.swizzled(1, 1, 1, tuple(range(len(dims) - 1, -1, -1)))
    if kind == triton.NVMMA:
        return triton.nvmma(128)
    if kind == tma.KIND:
        return tma.make("128B")
    return Transform(kind)
