"""Paste CUDA: build a Pattern from the lines of a kernel that declare and index shared memory.

Stages, in order (each its own module): :mod:`.preprocess` (macros, ``#if``, includes) ->
:mod:`.syntax` (tree-sitter's CUDA grammar) -> the symbolic walk (:mod:`.walk_state`,
:mod:`.walk_expr`, :mod:`.walk_statements`, :mod:`.walk_loops`, :mod:`.walk_wmma`, put together in
:mod:`.translate`) -> :mod:`.lower` (the Pattern) -> :mod:`.compiled` (optional: the code nvcc
emits). Nothing in the text is run. What cannot be modelled comes back as diagnostics with line
and column, and the rest is imported.
"""

from .report import InstructionStat, instruction_stats, worst
from .result import Diagnostic, ImportResult, SourceSpan
from .translate import ImportOptions, import_cuda, parse_block

__all__ = ["Diagnostic", "ImportOptions", "ImportResult", "InstructionStat", "SourceSpan", "import_cuda",
           "instruction_stats", "parse_block", "worst"]
