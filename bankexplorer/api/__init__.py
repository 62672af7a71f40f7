"""The stable Python API, re-exported at the top of the package (``import bankexplorer as bx``).

See ``docs/python-api.md``. Modules: :mod:`.counts` (``bx.wavefronts``: counts for addresses, one instruction or
a batch), :mod:`.patterns` (files, CUDA import, analysis results), :mod:`.triton` (``bx.from_triton``), :mod:`.layouts` (CuTe, Triton
and TMA layouts as callables, and accesses built from them), :mod:`.figures` (figures for
notebooks and files; Qt is loaded only when one is drawn).
"""

from .figures import Figure, figure
from .layouts import Access, Layout, layout
from .patterns import Pattern, Result, analyze, from_cuda, load, save
from .counts import DEFAULT_HARDWARE, wavefronts
from .triton import from_triton

__all__ = ["wavefronts", "load", "save", "from_cuda", "from_triton", "analyze", "layout", "figure", "Pattern", "Result",
           "Layout", "Access", "Figure", "DEFAULT_HARDWARE"]
