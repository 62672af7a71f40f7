"""Paste CUDA: build a Pattern from the lines of a kernel that declare and index shared memory.

The text is parsed with tree-sitter's CUDA grammar and walked (:mod:`.translate`); nothing in it
is compiled or run. What cannot be modelled comes back as diagnostics with line and column, and
the rest is imported.
"""

from .result import Diagnostic, ImportResult, SourceSpan
from .report import InstructionStat, instruction_stats, worst
from .translate import ImportOptions, import_cuda, parse_block

__all__ = ["Diagnostic", "ImportOptions", "ImportResult", "InstructionStat", "SourceSpan", "import_cuda",
           "instruction_stats", "parse_block", "worst"]
