"""An import's analysis per source instruction: what the CLI prints and the editor lists.

The analysis has one row per (instruction, loop iteration, warp); people reading code think per
line, so each instruction is summarized by its worst row and its totals, and the instruction with
the most excess wavefronts is the "worst conflict" the editor marks.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..model.analysis import Analysis, analyze
from .result import ImportResult


@dataclass(frozen=True)
class InstructionStat:
    index: int  # in the pattern
    line: int
    title: str
    wavefronts: int  # of the worst row (warp x iteration); -1 when the instruction has an error
    ideal: int  # of that row
    degree: int  # N-way of that row
    rows: int  # warp instructions (warps x iterations)
    total_wavefronts: int
    total_ideal: int
    error: str | None = None

    @property
    def excess(self) -> int:
        return self.total_wavefronts - self.total_ideal if self.error is None else 0


def instruction_stats(result: ImportResult, an: Analysis | None = None) -> list[InstructionStat]:
    an = an if an is not None else analyze(result.pattern, detail=False)
    res = an.result
    out: list[InstructionStat] = []
    for k, ins in enumerate(result.pattern.instructions):
        rows = an.rows_of(k)
        line = result.sources[k].line if k < len(result.sources) else 0
        err = an.instruction_errors.get(k)
        if err is not None or not rows.size:
            out.append(InstructionStat(k, line, ins.title(), -1, 0, 0, int(rows.size), 0, 0, err or "no rows"))
            continue
        wf = res.wavefronts[rows]
        excess = wf - res.ideal[rows]
        r = int(rows[int(np.lexsort((-wf, -excess))[0])])  # the most excess, then the most wavefronts
        out.append(InstructionStat(k, line, ins.title(), int(res.wavefronts[r]), int(res.ideal[r]),
                                   int(res.degree[r]), int(rows.size), int(wf.sum()), int(res.ideal[rows].sum())))
    return out


def worst(stats: list[InstructionStat]) -> InstructionStat | None:
    """The instruction with the most excess wavefronts (None when nothing conflicts)."""
    best = max(stats, key=lambda s: (s.excess, s.degree), default=None)
    return best if best is not None and best.excess > 0 else None
