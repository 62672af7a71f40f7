"""Read a CUDA snippet symbolically: the lines that declare and index shared memory -> a Pattern.

This is all this package is for: a snippet with no ``__global__`` function, which cannot be
compiled. A whole kernel is compiled and executed instead (``bankexplorer.compiler.kernel.build``
and ``bankexplorer.kernels.cuda_source.emulate``), as compiled and as written (its unoptimised ``-G`` build);
from here it only borrows the include rules (:mod:`.includes`, :mod:`.directives`) and what NVRTC is
given (:mod:`.device_source`).

Stages, in order (each its own module): :mod:`.preprocess` (macros, ``#if``, includes) ->
:mod:`.syntax` (tree-sitter's CUDA grammar) -> the symbolic walk (:mod:`.walk_state`,
:mod:`.walk_expr`, :mod:`.walk_statements`, :mod:`.walk_loops`, :mod:`.walk_wmma`, put together in
:mod:`.translate`) -> :mod:`.lower` (the Pattern). Nothing in the text is run. What cannot be
modelled comes back as diagnostics with line and column, and the rest is imported.
"""

from .report import InstructionStat, instruction_stats, worst
from .result import Diagnostic, ImportResult, SourceSpan
from .translate import ImportOptions, import_cuda, parse_block

__all__ = ["Diagnostic", "ImportOptions", "ImportResult", "InstructionStat", "SourceSpan", "import_cuda",
           "instruction_stats", "parse_block", "worst"]
