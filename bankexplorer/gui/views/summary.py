"""Summary numbers (selected instruction, pattern, kernel, arrays) and the instruction list that
selects what every other view shows."""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import (
    QAbstractItemView, QHBoxLayout, QHeaderView, QLabel, QSpinBox, QTableWidget, QTableWidgetItem, QTextBrowser,
    QVBoxLayout, QWidget,
)

from ...model.analysis import Analysis
from ...model.hardware import latency_cycles
from ..document import Document, Selection
from ..palette import SCREEN, Style
from .base import detail_for, selected_row


def summary_html(an: Analysis | None, sel: Selection, style: Style = SCREEN) -> str:
    """The summary as HTML (shared by the window and exported figures)."""
    if an is None:
        return "<p>The pattern is not valid.</p>"
    red = style.hex(style.conflict)
    p = an.pattern
    t = an.totals()
    row = selected_row(an, sel)
    det = detail_for(an, row)
    out = []
    if row is not None:
        k = int(an.source[row])
        ins = p.instructions[k]
        out.append(f"<h3 style='margin:2px 0'>#{k} {ins.title()}</h3>")
        if det is None:
            out.append(f"<p style='color:{red}'>{an.errors[row]}</p>")
        else:
            eff = det.ideal / det.wavefronts if det.wavefronts else 1.0
            c = red if det.wavefronts > det.ideal else style.hex(style.ink)
            rq, mv = int(an.result.bytes_requested[row]), int(an.result.bytes_moved[row])
            out.append(
                "<table cellspacing=2>"
                f"<tr><td>N-way conflict</td><td align=right><b style='color:{c}'>{det.degree}-way</b></td></tr>"
                f"<tr><td>wavefronts</td><td align=right><b style='color:{c}'>{det.wavefronts}</b> (ideal {det.ideal})</td></tr>"
                f"<tr><td>efficiency</td><td align=right>{eff:.0%}</td></tr>"
                f"<tr><td>bytes requested / moved</td><td align=right>{rq:,} / {mv:,}</td></tr>"
                f"<tr><td>latency (one warp)</td><td align=right>≈ {float(latency_cycles(det.wavefronts)):.0f} cycles</td></tr>"
                f"<tr><td>lanes served</td><td align=right>{int((det.lane_addr >= 0).sum())}</td></tr>"
                "</table>")
    ec = red if t.excess else style.hex(style.ink)
    out.append("<h3 style='margin:6px 0 2px 0'>Pattern (one pass of the block)</h3>")
    out.append(
        "<table cellspacing=2>"
        f"<tr><td>warp instructions</td><td align=right>{t.instructions:,}</td></tr>"
        f"<tr><td>wavefronts</td><td align=right><b style='color:{ec}'>{t.wavefronts:,}</b> (ideal {t.ideal:,})</td></tr>"
        f"<tr><td>excess (conflicts)</td><td align=right style='color:{ec}'>{t.excess:,}</td></tr>"
        f"<tr><td>efficiency</td><td align=right>{t.efficiency:.0%}</td></tr>"
        f"<tr><td>worst N-way</td><td align=right>{t.worst_degree}-way</td></tr>"
        "</table>")
    out.append("<h3 style='margin:6px 0 2px 0'>Kernel (× repeat counts, all warps)</h3>")
    out.append(
        "<table cellspacing=2>"
        f"<tr><td>instructions</td><td align=right>{t.kernel_instructions:,}</td></tr>"
        f"<tr><td>wavefronts</td><td align=right>{t.kernel_wavefronts:,} (ideal {t.kernel_ideal:,})</td></tr>"
        f"<tr><td>excess</td><td align=right>{t.kernel_excess:,}</td></tr>"
        f"<tr><td>bytes requested / moved</td><td align=right>{t.bytes_requested:,} / {t.bytes_moved:,}</td></tr>"
        "</table>")
    out.append(f"<h3 style='margin:6px 0 2px 0'>Shared memory: {t.shared_bytes:,} bytes</h3><table cellspacing=2>")
    for a in p.arrays:
        out.append(f"<tr><td><code>{a.declaration()}</code></td><td align=right>{a.nbytes:,} B</td></tr>")
    out.append("</table>")
    if t.invalid:
        out.append(f"<p style='color:{red}'>{t.invalid} warp instruction(s) are invalid.</p>")
    return "".join(out)


class SummaryView(QTextBrowser):
    title = "Summary"

    def __init__(self, doc: Document | None = None, style: Style = SCREEN, parent=None):
        super().__init__(parent)
        self.doc, self.style_ = doc, style
        self.setOpenLinks(False)
        self._pending = False
        if doc is not None:
            doc.analysisChanged.connect(self.schedule)
            doc.selectionChanged.connect(self.schedule)

    def schedule(self) -> None:
        if not self._pending:
            self._pending = True
            QTimer.singleShot(0, self.refresh)

    def refresh(self) -> None:
        self._pending = False
        if self.doc is not None:
            self.render(self.doc.analysis, self.doc.selection)

    def render(self, an: Analysis | None, sel: Selection) -> None:
        self.setHtml(summary_html(an, sel, self.style_))


class InstructionList(QWidget):
    """One row per pattern instruction (wavefronts summed over iterations and warps); the spin
    boxes pick the loop iteration, warp and lane the views show."""

    title = "Instructions"

    def __init__(self, doc: Document, parent=None):
        super().__init__(parent)
        self.doc = doc
        lay = QVBoxLayout(self)
        lay.setContentsMargins(2, 2, 2, 2)
        self.table = QTableWidget(0, 5)
        self.table.setHorizontalHeaderLabels(["#", "instruction", "wavefronts", "ideal", "worst"])
        self.table.verticalHeader().hide()
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.horizontalHeader().setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        for c in (0, 2, 3, 4):
            self.table.horizontalHeader().setSectionResizeMode(c, QHeaderView.ResizeMode.ResizeToContents)
        lay.addWidget(self.table)
        row = QHBoxLayout()
        self.iteration = QSpinBox()
        self.warp = QSpinBox()
        self.lane = QSpinBox()
        self.lane.setMinimum(-1)
        self.lane.setSpecialValueText("none")
        for label, sb in (("iteration", self.iteration), ("warp", self.warp), ("lane", self.lane)):
            q = QLabel(label)
            q.setBuddy(sb)
            row.addWidget(q)
            row.addWidget(sb, 1)
        lay.addLayout(row)
        self.table.currentCellChanged.connect(self._row_picked)
        self.iteration.valueChanged.connect(lambda v: self.doc.select(iteration=v))
        self.warp.valueChanged.connect(lambda v: self.doc.select(warp=v))
        self.lane.valueChanged.connect(lambda v: self.doc.select(lane=None if v < 0 else v))
        doc.analysisChanged.connect(self.refresh)
        doc.selectionChanged.connect(self.sync_selection)
        self.refresh()

    def refresh(self) -> None:
        an, p = self.doc.analysis, self.doc.pattern
        self.table.blockSignals(True)
        self.table.setRowCount(len(p.instructions))
        for k, ins in enumerate(p.instructions):
            vals = [str(k), ins.title(), "", "", ""]
            bad = False
            if an is not None:
                rows = an.rows_of(k)
                wf = an.result.wavefronts[rows]
                bad = bool((wf < 0).any())
                if bad:
                    vals[2] = "error"
                else:
                    vals[2] = f"{int(wf.sum()):,}"
                    vals[3] = f"{int(an.result.ideal[rows].sum()):,}"
                    vals[4] = f"{int(an.result.degree[rows].max(initial=0))}-way"
            for c, v in enumerate(vals):
                it = self.table.item(k, c)
                if it is None:
                    it = QTableWidgetItem()
                    self.table.setItem(k, c, it)
                it.setText(v)
                if c != 1:
                    it.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                if bad and an is not None:
                    it.setToolTip(an.instruction_errors.get(k, ""))
        self.table.blockSignals(False)
        self.sync_selection()

    def sync_selection(self) -> None:
        s, p = self.doc.selection, self.doc.pattern
        for w in (self.table, self.iteration, self.warp, self.lane):
            w.blockSignals(True)
        if p.instructions:
            self.table.selectRow(s.instruction)
            self.iteration.setMaximum(max(p.instructions[s.instruction].iterations() - 1, 0))
        self.warp.setMaximum(max(p.warps - 1, 0))
        self.lane.setMaximum(p.hardware.warp_size - 1)
        self.iteration.setValue(s.iteration)
        self.warp.setValue(s.warp)
        self.lane.setValue(-1 if s.lane is None else s.lane)
        for w in (self.table, self.iteration, self.warp, self.lane):
            w.blockSignals(False)

    def _row_picked(self, r: int, *_):
        if r >= 0:
            self.doc.select(instruction=r)
