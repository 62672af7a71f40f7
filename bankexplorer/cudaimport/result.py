"""What an import gives back: the pattern, where each instruction came from, and what was not understood."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..compiler.diagnostics import Diagnostic  # noqa: F401 - the importer's messages are the compiler's kind
from ..model.pattern import Pattern


@dataclass(frozen=True)
class SourceSpan:
    """Where an instruction's access is written (1-based lines and columns, in characters)."""

    line: int
    column: int
    end_line: int
    end_column: int
    text: str = ""
    site: int = 0  # in an inlined function: the line of the outermost call (where nvcc's line table puts it)

    @property
    def code_line(self) -> int:
        """The line the compiled code of this access is on."""
        return self.site or self.line


@dataclass(frozen=True)
class ImportResult:
    pattern: Pattern
    sources: tuple[SourceSpan, ...]  # one per instruction of ``pattern``
    diagnostics: tuple[Diagnostic, ...]
    block_origin: str  # where the block size came from: "given", "launch at line N", ...
    #: the Import CUDA window's compile step (its ``Compiled``): None for an import as written
    compiled: Any = None
    #: (i, j, active): instruction j, in the else branch of an ``if`` on the thread, makes the same access
    #: as instruction i in its then branch; nvcc makes it once for both (``active``: the lanes of both)
    twins: tuple[tuple[int, int, str], ...] = ()
    #: constants of the pattern that are the kernel's own ``int`` parameters: values of the launch, not
    #: of the compiled code (nvcc cannot use them to prove two addresses equal)
    runtime_names: tuple[str, ...] = ()
    #: a barrier or fence (``__syncthreads``, ``__syncwarp``...) sits before each of these instructions:
    #: nvcc does not keep a shared value in a register across one
    barriers: tuple[int, ...] = ()

    @property
    def complete(self) -> bool:
        """True when everything in the text was understood (notes do not count)."""
        return not any(d.severity != "note" for d in self.diagnostics)

    def instruction_at_line(self, line: int) -> list[int]:
        return [k for k, s in enumerate(self.sources) if s.line <= line <= s.end_line]
