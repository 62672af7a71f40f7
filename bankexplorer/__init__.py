"""BankExplorer: see where GPU shared-memory accesses land, which banks collide, and what it costs.

The stable Python API (``import bankexplorer as bx``; see ``docs/python-api.md``):

* :func:`wavefronts` — wavefronts of one warp instruction (32 byte addresses) or of a batch
  (an ``(n, 32)`` array), computed by the vectorized engine;
* :func:`load`, :func:`save`, :func:`from_cuda` — patterns from files and CUDA text;
* :func:`analyze` — a :class:`Result` with per-instruction numpy arrays and totals;
* :func:`layout` — CuTe, Triton and TMA layouts as callables ``L(row, col) -> byte offset``,
  with accesses (``ldmatrix``, ``float4`` rows) built from them;
* :func:`figure` — the composed figure (or one view) inline in a notebook, or saved as PNG/SVG.

Importing the package loads nothing until a name is used (the command line starts without the
API), then numpy only (no Qt): figures import the renderer when drawn.
"""

from typing import TYPE_CHECKING

__version__ = "0.1.0"

__all__ = ["wavefronts", "load", "save", "from_cuda", "from_triton", "analyze", "layout", "figure", "Pattern", "Result",
           "Layout", "Access", "Figure", "DEFAULT_HARDWARE", "__version__"]

if TYPE_CHECKING:  # for type checkers and editors: the names as the API defines them
    from .api import (DEFAULT_HARDWARE, Access, Figure, Layout, Pattern, Result, analyze, figure,  # noqa: F401
                      from_cuda, from_triton, layout, load, save, wavefronts)


def __getattr__(name: str):
    if name in __all__:
        from . import api

        value = getattr(api, name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'bankexplorer' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
