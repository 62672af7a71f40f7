"""The per-line tree of an executed kernel: for every line with shared-memory SASS, its instructions
with executed warp instructions, threads, wavefronts and ideal (the columns of Nsight Compute's
source page), the lines whose addresses depend on the data in a pointer parameter or on the
order between warps marked; worst lines first.

The rows are :mod:`bankexplorer.sass.line_totals`'s (a fresh run's, what Import CUDA shows, or an
imported kernel's pattern with its current analysis, so a padding what-if shows at once);
:class:`LineTree` draws them (a row per line, its SASS under it) and says which line or
instruction was picked.
"""

from __future__ import annotations

import html

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QBrush, QColor, QFont, QFontDatabase
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTreeWidget, QTreeWidgetItem

from ..sass.line_totals import LineStat
from .palette import SCREEN
from .scroll_bar import flat_scroll_bars

WORST_BG = QColor(255, 222, 222)
BAD = QColor(*SCREEN.conflict)
GOOD = QColor(30, 130, 60)
DATA = QColor(120, 60, 170)  # addresses that depend on a pointer parameter's data
TIMING = QColor(200, 110, 0)  # addresses that depend on the order between warps
FAINT = QColor(*SCREEN.faint)


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
