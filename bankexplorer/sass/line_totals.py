"""An executed kernel per source line: each line's shared-memory SASS instructions and their sums
(executed warp instructions, threads, wavefronts, ideal, excess, what the addresses depend on).

The one place a line's totals are made, for ``import-cuda``'s report (:mod:`.cli`), the as written
vs as compiled comparison (:mod:`.compare`) and the window's per-line views (Import CUDA's and the
Source lines dock). Three sources give the same rows: a fresh run (:func:`stats_from_run`), an
imported kernel's pattern with its current analysis (:func:`stats_from_pattern`: executed counts
from the run, wavefronts from the analysis, so a padding what-if shows at once), and any rows with
the same fields (:func:`by_line`). No Qt here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Protocol

import numpy as np

from .opcode import opcode_of


class SassCounts(Protocol):
    """What a per-line total sums: a run's :class:`~.run.SassRow` or a :class:`SassStat`."""

    line: int
    sass: str
    executed: int
    wavefronts: int
    ideal: int
    data: tuple[str, ...]
    timing: bool


@dataclass(frozen=True)
class SassStat:
    """One shared-memory SASS instruction of the block's run."""

    pc: int
    sass: str
    line: int
    executed: int
    threads: int
    wavefronts: int
    ideal: int
    data: tuple[str, ...] = ()
    timing: bool = False
    instruction: int | None = None  # its instruction in the pattern (None: never executed)
    #: what says the GPU's scheduling decided its counts (a policy that does not fit all its probes)
    schedule: str = ""

    @property
    def excess(self) -> int:
        return max(self.wavefronts - self.ideal, 0)

    @property
    def opcode(self) -> str:
        return opcode_of(self.sass)


@dataclass(frozen=True)
class LineStat:
    """One source line: its shared-memory SASS instructions (``sass``) and their sums."""

    line: int
    sass: tuple

    @property
    def executed(self) -> int:
        return sum(s.executed for s in self.sass)

    @property
    def threads(self) -> int:
        return sum(s.threads for s in self.sass)

    @property
    def wavefronts(self) -> int:
        return sum(s.wavefronts for s in self.sass)

    @property
    def ideal(self) -> int:
        return sum(s.ideal for s in self.sass)

    @property
    def excess(self) -> int:
        return max(self.wavefronts - self.ideal, 0)

    @property
    def data(self) -> tuple[str, ...]:
        return tuple(sorted({d for s in self.sass for d in s.data}))

    @property
    def timing(self) -> bool:
        return any(s.timing for s in self.sass)

    @property
    def schedule(self):
        """The first of its rows' scheduling notes (empty: no count of the line is the GPU's choice)."""
        return next((s.schedule for s in self.sass if getattr(s, "schedule", "")), "")

    @property
    def instructions(self) -> tuple[int, ...]:
        return tuple(s.instruction for s in self.sass if getattr(s, "instruction", None) is not None)

    def summary(self) -> str:
        """``4 x LDS, LDS.128``: the line's shared-memory opcodes."""
        ops: dict[str, int] = {}
        for s in self.sass:
            ops[s.opcode] = ops.get(s.opcode, 0) + 1
        return ", ".join(f"{n} x {op}" if n > 1 else op for op, n in ops.items())


def by_line(rows: Iterable[SassCounts]) -> list[LineStat]:
    """The rows grouped by source line (each line's rows in the order given), the worst line first:
    the most excess wavefronts, then the most wavefronts, then the first line."""
    lines: dict[int, list] = {}
    for s in rows:
        lines.setdefault(s.line, []).append(s)
    out = [LineStat(ln, tuple(xs)) for ln, xs in lines.items()]
    out.sort(key=lambda ls: (-ls.excess, -ls.wavefronts, ls.line))
    return out


def stats_from_run(run) -> list[LineStat]:
    """Per line, from a ``KernelRun``: every shared-memory SASS instruction, executed or not, but
    those that made no access (``SassRow.guarded_off``: "3 x LDS" on a line that reads nothing)."""
    return by_line([SassStat(r.pc, r.sass, r.line, r.executed, r.threads, r.wavefronts or 0, r.ideal or 0,
                             tuple(r.data), bool(r.timing),
                             schedule=", ".join(r.schedule) and f"scheduling policy {', '.join(r.schedule)}")
                    for r in run.rows if r.wavefronts is not None and not r.guarded_off])


def instruction_lines(pattern) -> dict[int, int]:
    """Pattern instruction -> its source line, for an imported kernel (empty otherwise)."""
    k = pattern.kernel
    if k is None:
        return {}
    line_of = {row[0]: row[2] for row in k.sass}
    return {j: line_of[ins.pc] for j, ins in enumerate(pattern.instructions) if ins.pc in line_of}


def stats_from_pattern(pattern, an) -> list[LineStat]:
    """Per line, for an imported kernel: executed and threads as the kernel ran, wavefronts and
    ideal from ``an`` (the analysis of the pattern as it is now: a what-if shows)."""
    k = pattern.kernel
    if k is None:
        return []
    by_pc = {ins.pc: j for j, ins in enumerate(pattern.instructions) if ins.pc is not None}
    wf = ideal = None
    if an is not None and len(an):
        n = len(pattern.instructions)
        c = an.counts()
        wf = np.bincount(an.source, weights=c.total_wavefronts(), minlength=n).astype(np.int64)
        ideal = np.bincount(an.source, weights=c.total_ideal(), minlength=n).astype(np.int64)
    from .run import SCHEDULE_NOTE

    scheduled = {ln: m for ln, m in k.notes if m.startswith(SCHEDULE_NOTE)}
    stats = []
    for pc, sass, line, executed, threads, _pred, w, i, data, timing in k.sass:
        if w < 0:  # not a shared-memory instruction
            continue
        j = by_pc.get(pc)
        if j is not None and wf is not None:
            w, i = int(wf[j]), int(ideal[j])
        stats.append(SassStat(pc, sass, line, executed, threads, w, i, tuple(data), bool(timing), j,
                              scheduled.get(line, "")))
    return by_line(stats)
