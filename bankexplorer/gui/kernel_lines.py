"""An executed kernel per source line: for every line with shared-memory SASS, its instructions
with executed warp instructions, threads, wavefronts and ideal (the columns of Nsight Compute's
source page), the lines whose addresses depend on the data in a pointer parameter or on the
order between warps marked; worst lines first.

Two sources give the same rows: a fresh run (:func:`stats_from_run`, what Import CUDA shows) and
an imported kernel's pattern with its current analysis (:func:`stats_from_pattern`: the executed
counts from the run it came from, the wavefronts from the analysis, so a padding what-if shows at
once). :class:`LineTree` draws them (a row per line, its SASS under it) and says which line or
instruction was picked.
"""

from __future__ import annotations

import html
from dataclasses import dataclass

import numpy as np
from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QBrush, QColor, QFont, QFontDatabase
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTreeWidget, QTreeWidgetItem

from ..sass.opcode import opcode_of
from .palette import SCREEN
from .scroll_bar import flat_scroll_bars

WORST_BG = QColor(255, 222, 222)
BAD = QColor(*SCREEN.conflict)
GOOD = QColor(30, 130, 60)
DATA = QColor(120, 60, 170)  # addresses that depend on a pointer parameter's data
TIMING = QColor(200, 110, 0)  # addresses that depend on the order between warps
FAINT = QColor(*SCREEN.faint)


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
    line: int
    sass: tuple[SassStat, ...]

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
    def schedule(self) -> str:
        return next((s.schedule for s in self.sass if s.schedule), "")

    @property
    def instructions(self) -> tuple[int, ...]:
        return tuple(s.instruction for s in self.sass if s.instruction is not None)

    def summary(self) -> str:
        """``4 x LDS, LDS.128``: the line's shared-memory opcodes."""
        ops: dict[str, int] = {}
        for s in self.sass:
            ops[s.opcode] = ops.get(s.opcode, 0) + 1
        return ", ".join(f"{n} x {op}" if n > 1 else op for op, n in ops.items())


def _by_line(stats: list[SassStat]) -> list[LineStat]:
    lines: dict[int, list[SassStat]] = {}
    for s in stats:
        lines.setdefault(s.line, []).append(s)
    out = [LineStat(ln, tuple(xs)) for ln, xs in lines.items()]
    out.sort(key=lambda ls: (-ls.excess, -ls.wavefronts, ls.line))  # the worst first
    return out


def stats_from_run(run) -> list[LineStat]:
    """Per line, from a ``KernelRun``: every shared-memory SASS instruction, executed or not, but
    those that made no access (``SassRow.guarded_off``: "3 x LDS" on a line that reads nothing)."""
    return _by_line([SassStat(r.pc, r.sass, r.line, r.executed, r.threads, r.wavefronts or 0, r.ideal or 0,
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
    from ..sass.run import SCHEDULE_NOTE

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
    return _by_line(stats)


COLUMNS = ["line", "source / SASS", "executed", "threads", "wavefronts", "ideal", "excess", "depends on"]
TIPS = ["source line (click: select its code and its instructions)",
        "the line's code; under it each shared-memory SASS instruction the compiler made of it",
        "warp instructions executed by the block (as Nsight Compute's source page counts them)",
        "threads that executed them",
        "shared-memory wavefronts (the cost)",
        "the fewest wavefronts the same data could take",
        "wavefronts over the ideal: bank conflicts",
        "data: the addresses depend on the data in a pointer parameter (the counts hold for the data "
        "given, or zeros); timing: on the order in which warps reach shared memory; schedule: the GPU's "
        "scheduling decides the counts (a policy that does not fit all its probes)"]


def depends_text(data: tuple[str, ...], timing: bool, schedule: str = "") -> str:
    parts = []
    if data:
        parts.append("data: " + ", ".join(data))
    if timing:
        parts.append("timing")
    if schedule:
        parts.append("schedule")
    return "; ".join(parts)


class LineTree(QTreeWidget):
    """The per-line rows, worst first; a line's SASS instructions under it (collapsed).
    ``linePicked(line)`` and ``sassPicked(line, pc)`` when the user picks a row."""

    linePicked = Signal(int)
    sassPicked = Signal(int, int)

    def __init__(self, parent=None, compact: bool = False):
        super().__init__(parent)
        flat_scroll_bars(self)
        #: compact (a dock beside the views): no threads or depends-on column, narrower headers;
        #: a line whose addresses depend on data or timing shows D or T after its number
        self.compact = compact
        self.setColumnCount(len(COLUMNS))
        self.setHeaderLabels(COLUMNS if not compact else
                             ["line", "source / SASS", "exe-\ncuted", "threads", "wave-\nfronts", "ideal", "excess", ""])
        for c, tip in enumerate(TIPS):
            self.headerItem().setToolTip(c, tip)
        self.setRootIsDecorated(True)
        self.setUniformRowHeights(True)
        self.setAlternatingRowColors(False)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setTextElideMode(Qt.TextElideMode.ElideRight)
        hh = self.header()
        hh.setStretchLastSection(False)
        hh.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        for c in (0, 2, 3, 4, 5, 6, 7):
            hh.setSectionResizeMode(c, QHeaderView.ResizeMode.ResizeToContents)
        if compact:
            self.setColumnHidden(3, True)
            self.setColumnHidden(7, True)
        self.mono = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
        self.bold = QFont(self.font())
        self.bold.setBold(True)
        self.stats: list[LineStat] = []
        self._shape = None
        self._items: dict[int, QTreeWidgetItem] = {}  # line -> its row
        self._muted = False
        self.itemSelectionChanged.connect(self._picked)
        self.itemClicked.connect(lambda *_: self._picked())  # a click on the row already selected too

    def set_stats(self, stats: list[LineStat], source_lines: list[str] | None = None) -> None:
        """Show ``stats``; the same lines and instructions as before update in place."""
        self.stats = list(stats)
        shape = tuple((ls.line, tuple(s.pc for s in ls.sass)) for ls in stats)
        self._muted = True
        try:
            if shape != self._shape:
                self._shape = shape
                self.clear()
                self._items = {}
                for ls in stats:
                    top = QTreeWidgetItem(self)
                    top.setData(0, Qt.ItemDataRole.UserRole, (ls.line, -1))
                    self._items[ls.line] = top
                    for s in ls.sass:
                        ch = QTreeWidgetItem(top)
                        ch.setData(0, Qt.ItemDataRole.UserRole, (ls.line, s.pc))
                        ch.setFont(1, self.mono)
            worst = stats[0].line if stats and stats[0].excess > 0 else None
            for ls in stats:
                code = ""
                if source_lines is not None and 0 < ls.line <= len(source_lines):
                    code = source_lines[ls.line - 1].strip()
                top = self._items[ls.line]
                self._fill(top, str(ls.line), code or ls.summary(), ls, ls.line == worst)
                top.setToolTip(1, f"<p><b>line {ls.line}</b>: {html.escape(code)}</p><p>{html.escape(ls.summary())}</p>"
                               + (f"<p>{len(ls.sass)} shared-memory SASS instructions</p>" if len(ls.sass) > 1 else ""))
                for j, s in enumerate(ls.sass):
                    self._fill(top.child(j), "", s.sass, s, False)
        finally:
            self._muted = False

    def _fill(self, it: QTreeWidgetItem, line: str, text: str, s, worst: bool) -> None:
        if self.compact and line:
            line += " T" if s.timing else " S" if s.schedule else " D" if s.data else ""
        cells = [line, text, f"{s.executed:,}", f"{s.threads:,}", f"{s.wavefronts:,}", f"{s.ideal:,}",
                 f"{s.excess:,}", depends_text(s.data, s.timing, s.schedule)]
        for c, v in enumerate(cells):
            if it.text(c) != v:
                it.setText(c, v)
            if c != 1 and c != 7:
                it.setTextAlignment(c, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        red = s.excess > 0
        for c in (4, 6):
            it.setForeground(c, QBrush(BAD if red else GOOD if s.executed else FAINT))
        it.setForeground(7, QBrush(TIMING if s.timing or s.schedule else DATA))
        if s.data or s.timing or s.schedule:
            tip = ("the addresses depend on " + " and ".join(
                ([f"the data in {', '.join(s.data)}"] if s.data else [])
                + (["the order in which warps reach shared memory"] if s.timing else [])) + ": the counts hold for this run"
                   ) if s.data or s.timing else ""
            if s.schedule:
                tip = (tip + "; " if tip else "") + s.schedule
            it.setToolTip(7, tip)
            if self.compact and line:
                it.setForeground(0, QBrush(TIMING if s.timing or s.schedule else DATA))
                it.setToolTip(0, f"line {line.split()[0]}: {tip}")
        bg = QBrush(WORST_BG) if worst else QBrush()
        for c in range(len(COLUMNS)):
            it.setBackground(c, bg)

    def top_row(self, line: int) -> QTreeWidgetItem | None:
        return self._items.get(line)

    def select_line(self, line: int | None, pc: int | None = None) -> None:
        """Mark ``line`` (its instruction ``pc`` when given) without saying it was picked."""
        self._muted = True
        try:
            it = self._items.get(line) if line is not None else None
            if it is not None and pc is not None:
                it = next((it.child(j) for j in range(it.childCount())
                           if it.child(j).data(0, Qt.ItemDataRole.UserRole)[1] == pc), it)
            if it is None:
                self.clearSelection()
            elif not it.isSelected():
                self.setCurrentItem(it)
                self.scrollToItem(it)
        finally:
            self._muted = False

    def _picked(self) -> None:
        if self._muted:
            return
        items = self.selectedItems()
        if not items:
            return
        line, pc = items[0].data(0, Qt.ItemDataRole.UserRole)
        if pc < 0:
            self.linePicked.emit(int(line))
        else:
            self.sassPicked.emit(int(line), int(pc))
