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
    """The summary as HTML: one compact table, the selected warp instruction next to the whole
    pattern (one pass of the block) and the kernel (x repeat counts), then the arrays."""
    if an is None:
        return "<p>The pattern is not valid.</p>"
    red, ink, faint = style.hex(style.conflict), style.hex(style.ink), style.hex(style.faint)
    p = an.pattern
    t = an.totals()
    row = selected_row(an, sel)
    det = detail_for(an, row)
    out = []
    head = ""
    if row is not None:
        k = int(an.source[row])
        head = f"#{k} {p.instructions[k].title()}"
        if an.loop_values[k]:
            head += " (" + ", ".join(f"{a}={b}" for a, b in an.loop_values[k][int(an.iteration[row])].items()) + ")"
        head += f", warp {int(an.warp[row])}"
    out.append(f"<div style='margin:0 0 3px 0'><b>{_esc(head)}</b></div>" if head else "")
    if row is not None and det is None:
        out.append(f"<p style='color:{red}'>{_esc(an.errors[row])}</p>")

    def cell(v, bad=False, bold=False):
        txt = f"<b>{v}</b>" if bold else str(v)
        return f"<td align=right style='padding:0 6px;{'color:' + red if bad else ''}'>{txt}</td>"

    rows: list[tuple[str, list[str]]] = []
    if det is not None:
        eff = det.ideal / det.wavefronts if det.wavefronts else 1.0
        bad = det.wavefronts > det.ideal
        rq, mv = int(an.result.bytes_requested[row]), int(an.result.bytes_moved[row])
        sel_vals = [cell(f"{det.degree}-way", bad, True), cell(det.wavefronts, bad, True), cell(det.ideal),
                    cell(det.wavefronts - det.ideal, bad), cell(f"{eff:.0%}", bad), cell(f"{rq:,}"), cell(f"{mv:,}"),
                    cell(f"≈ {float(latency_cycles(det.wavefronts)):.0f} cyc")]
    else:
        sel_vals = [cell("–")] * 8
    pb = t.excess > 0
    kb = t.kernel_excess > 0
    pat_vals = [cell(f"{t.worst_degree}-way", t.worst_degree > 1, True), cell(f"{t.wavefronts:,}", pb, True),
                cell(f"{t.ideal:,}"), cell(f"{t.excess:,}", pb), cell(f"{t.efficiency:.0%}", pb), "<td></td>", "<td></td>",
                f"<td align=right style='padding:0 6px;color:{faint}'>{t.instructions:,} instr.</td>"]
    k_eff = t.kernel_ideal / t.kernel_wavefronts if t.kernel_wavefronts else 1.0
    ker_vals = ["<td></td>", cell(f"{t.kernel_wavefronts:,}", kb, True), cell(f"{t.kernel_ideal:,}"),
                cell(f"{t.kernel_excess:,}", kb), cell(f"{k_eff:.0%}", kb), cell(f"{t.bytes_requested:,}"),
                cell(f"{t.bytes_moved:,}"),
                f"<td align=right style='padding:0 6px;color:{faint}'>{t.kernel_instructions:,} instr.</td>"]
    names = ["N-way conflict", "wavefronts", "ideal", "excess", "efficiency", "bytes requested", "bytes moved",
             "latency · count"]
    for j, n in enumerate(names):
        rows.append((n, [sel_vals[j], pat_vals[j], ker_vals[j]]))
    out.append("<table cellspacing=0 cellpadding=1 style='margin:0'>"
               f"<tr style='color:{faint}'><td></td><td align=right style='padding:0 6px'>selected</td>"
               f"<td align=right style='padding:0 6px'>pattern</td>"
               f"<td align=right style='padding:0 6px' title='× repeat counts, all warps'>kernel</td></tr>")
    for n, vals in rows:
        out.append(f"<tr><td style='color:{ink}'>{n}</td>{''.join(vals)}</tr>")
    out.append("</table>")
    out.append(f"<div style='margin:5px 0 1px 0'><b>Shared memory: {t.shared_bytes:,} B</b></div>"
               "<table cellspacing=0 cellpadding=1>")
    for a in p.arrays:
        out.append(f"<tr><td><code>{_esc(a.declaration())}</code></td><td align=right style='padding:0 6px'>"
                   f"{a.nbytes:,} B</td></tr>")
    out.append("</table>")
    if t.invalid:
        out.append(f"<p style='color:{red}'>{t.invalid} warp instruction(s) are invalid.</p>")
    out.append(f"<div style='color:{faint};margin-top:4px'>pattern = one pass of the block; "
               f"kernel = × repeat counts, all warps</div>")
    return "".join(out)


def _set_max(sb: QSpinBox, v: int) -> None:
    if sb.maximum() != v:
        sb.setMaximum(v)


def _set_tip(it: QTableWidgetItem, tip: str) -> None:
    if it.toolTip() != tip:
        it.setToolTip(tip)


def _esc(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


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
        html = summary_html(an, sel, self.style_)
        if html != getattr(self, "_html", None):  # setHtml re-lays out the document: only on change
            self._html = html
            # setHtml first empties the document: a scroll bar shown as needed went away and
            # came back, and the text was laid out twice per edit, at two widths
            bar = self.verticalScrollBar().isVisible()
            if bar:
                self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOn)
            self.setHtml(html)
            if bar:
                self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAsNeeded)


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
        self.table.setHorizontalHeaderLabels(["#", "instruction", "Σ wavefr.", "Σ ideal", "worst"])
        for c, tip in enumerate(["instruction number", "the instruction as the kernel writes it",
                                 "wavefronts summed over every warp and loop iteration of the block "
                                 "(a conflict-free instruction of 8 warps x 4 iterations shows 32)",
                                 "the conflict-free minimum, summed the same way",
                                 "worst conflict degree of any one warp instruction (1-way = no conflict)"]):
            self.table.horizontalHeaderItem(c).setToolTip(tip)
        self.table.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        self.table.setWordWrap(False)
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
                    if c != 1:
                        it.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                    self.table.setItem(k, c, it)
                if it.text() != v:  # every change repaints the table (and re-decorates its rows)
                    it.setText(v)
                if bad and an is not None:
                    _set_tip(it, an.instruction_errors.get(k, ""))
                elif an is not None and c in (2, 3):
                    n = len(rows)
                    per = int(an.result.wavefronts[rows].max(initial=0)) if c == 2 else int(an.result.ideal[rows].max(initial=0))
                    _set_tip(it, f"sum over {n:,} warp instruction{'s' if n != 1 else ''} "
                                  f"({p.warps} warp{'s' if p.warps != 1 else ''} × {ins.iterations()} "
                                  f"iteration{'s' if ins.iterations() != 1 else ''}); at most {per} per warp instruction")
        self.table.blockSignals(False)
        self.sync_selection()

    def sync_selection(self) -> None:
        s, p = self.doc.selection, self.doc.pattern
        for w in (self.table, self.iteration, self.warp, self.lane):
            w.blockSignals(True)
        if p.instructions:
            if self.table.currentRow() != s.instruction or not self.table.selectionModel().hasSelection():
                self.table.selectRow(s.instruction)
            _set_max(self.iteration, max(p.instructions[s.instruction].iterations() - 1, 0))
        _set_max(self.warp, max(p.warps - 1, 0))
        _set_max(self.lane, p.hardware.warp_size - 1)
        for sb, v in ((self.iteration, s.iteration), (self.warp, s.warp), (self.lane, -1 if s.lane is None else s.lane)):
            if sb.value() != v:  # an unchanged value would still repaint the box
                sb.setValue(v)
        for w in (self.table, self.iteration, self.warp, self.lane):
            w.blockSignals(False)

    def _row_picked(self, r: int, *_):
        if r >= 0:
            self.doc.select(instruction=r)
