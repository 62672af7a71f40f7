"""Layouts as kernel libraries write them: CuTe layouts, Triton shared encodings, TMA swizzles.

Importing this package registers the layout kinds ``cute-layout``, ``triton-swizzled``,
``triton-nvmma`` and ``tma`` with :func:`bankexplorer.model.layout.register_transform`, so pattern
files, the engine and the window use them like the built-in kinds. :func:`from_text` turns a
string pasted from a library's printout into the matching :class:`Transform`.
"""

from __future__ import annotations

from . import cute, tma, triton  # noqa: F401  (registration)
from .paste import from_text

KINDS = (cute.KIND, triton.SWIZZLED, triton.NVMMA, tma.KIND)

__all__ = ["cute", "triton", "tma", "from_text", "KINDS"]
