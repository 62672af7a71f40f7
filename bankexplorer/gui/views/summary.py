"""Summary numbers (selected instruction, pattern, kernel, arrays) and the instruction list that
selects what every other view shows."""

from __future__ import annotations

from html import escape as _esc  # user text inside the summary's markup

import numpy as np
from PySide6.QtCore import QEvent, QItemSelectionModel, QPointF, QRectF, QSize, Qt, QTimer
from PySide6.QtGui import QAction, QColor, QFont, QGuiApplication, QKeySequence, QPainter
from PySide6.QtWidgets import (
    QAbstractItemView,
    QAbstractScrollArea,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QSpinBox,
    QTableWidget,
    QTableWidgetItem,
    QToolTip,
    QVBoxLayout,
    QWidget,
)

from ...model.analysis import Analysis
from ...model.hardware import H100_SHARED_PER_BLOCK, STATIC_SHARED_PER_BLOCK, latency_cycles
from ..document import Document, Selection
from ..palette import SCREEN, Style
from ..scroll_bar import flat_scroll_bars
from . import richtext
from .base import detail_for, selected_row

KIB = 1024


def shared_memory_warning(p) -> tuple[str, str]:
    """(level, text) about the pattern's shared memory against the GPU's per-block limit: level
    "over" (the kernel would not launch, whatever its bank conflicts), "opt-in" (past 48 KiB:
    only as dynamic shared memory with the opt-in attribute) or "" (fine). The NVIDIA preset is
    checked against an H100 (227 KiB opt-in, 48 KiB static), the others against their
    ``shared_bytes``."""
    last = _SHARED_WARNING
    if last and last[0] is p:  # the editor and the summary ask about the same pattern
        return last[1]
    used = p.shared_bytes()
    hw = p.hardware
    if hw.preset == "nvidia-sm70-sm90":
        limit, static, gpu = H100_SHARED_PER_BLOCK, STATIC_SHARED_PER_BLOCK, "an H100"
    else:
        limit, static, gpu = hw.shared_bytes, hw.shared_bytes, hw.name
    if used > limit:
        out = "over", (f"{used:,} B of shared memory is more than one block can have on {gpu} "
                       f"({limit // KIB} KiB" + (f" opt-in, {static // KIB} KiB static" if static < limit else "")
                       + "): the kernel would not launch")
    elif used > static:
        out = "opt-in", (f"more than {static // KIB} KiB: on {gpu} only as dynamic shared memory with "
                         f"cudaFuncSetAttribute(…MaxDynamicSharedMemorySize…) (up to {limit // KIB} KiB)")
    else:
        out = "", ""
    _SHARED_WARNING[:] = [p, out]
    return out


_SHARED_WARNING: list = []  # [pattern, its warning]: the last one asked about


#: a block of the summary: ("para", markup) wraps to the panel's width; ("table", rows) is a
#: table whose rows are lists of cells (markup, right-aligned?, tooltip)
Block = tuple


def summary_blocks(an: Analysis | None, sel: Selection, style: Style = SCREEN) -> list[Block]:
    """The summary: the selected warp instruction next to the whole pattern (one pass of the
    block) and the kernel (x repeat counts), then the arrays."""
    if an is None:
        return [("para", "The pattern is not valid.")]
    red, ink, faint = style.hex(style.conflict), style.hex(style.ink), style.hex(style.faint)

    def cell(v, bad=False, bold=False, color=None, tip=""):
        """A right-aligned number: red where it shows a conflict."""
        txt = f"<b>{v}</b>" if bold else str(v)
        c = red if bad else color
        return (f"<span style='color:{c}'>{txt}</span>" if c else txt, True, tip)

    p = an.pattern
    t = an.totals()
    row = selected_row(an, sel)
    det = detail_for(an, row)
    out: list[Block] = []
    if row is not None:
        k = int(an.source[row])
        head = f"#{k} {p.instructions[k].title()}"
        if an.loop_values[k]:
            head += " (" + ", ".join(f"{a}={b}" for a, b in an.loop_values[k][int(an.iteration[row])].items()) + ")"
        head += f", warp {int(an.warp[row])}"
        out.append(("para", f"<b>{_esc(head)}</b>"))
    if p.kernel is not None:
        changed = p.kernel.what_if(p.arrays)
        if changed:
            out.append(("para", f"<span style='color:#805000'><b>⚠ What-if:</b> {_esc(', '.join(changed))} laid out "
                                f"otherwise than compiled: the kernel's recorded accesses through the new layout "
                                f"(Tools &gt; Re-run as Compiled)</span>"))
    if row is not None and det is None:
        out.append(("para", f"<span style='color:{red}'>{_esc(an.errors[row])}</span>"))
    blank = ("", True, "")
    if det is not None:
        eff = det.ideal / det.wavefronts if det.wavefronts else 1.0
        bad = det.wavefronts > det.ideal
        rq, mv = int(an.result.bytes_requested[row]), int(an.result.bytes_moved[row])
        sel_vals = [cell(f"{det.degree}-way", bad, True), cell(det.wavefronts, bad, True), cell(det.ideal),
                    cell(det.wavefronts - det.ideal, bad), cell(f"{eff:.0%}", bad), cell(f"{rq:,}"), cell(f"{mv:,}"),
                    cell(f"≈ {float(latency_cycles(det.wavefronts)):.0f}"), cell(1, color=faint)]
    else:
        sel_vals = [cell("–")] * 9
    pb = t.excess > 0
    kb = t.kernel_excess > 0
    pat_vals = [cell(f"{t.worst_degree}-way", t.worst_degree > 1, True), cell(f"{t.wavefronts:,}", pb, True),
                cell(f"{t.ideal:,}"), cell(f"{t.excess:,}", pb), cell(f"{t.efficiency:.0%}", pb), blank, blank,
                blank, cell(f"{t.instructions:,}", color=faint)]
    k_eff = t.kernel_ideal / t.kernel_wavefronts if t.kernel_wavefronts else 1.0
    ker_vals = [blank, cell(f"{t.kernel_wavefronts:,}", kb, True), cell(f"{t.kernel_ideal:,}"),
                cell(f"{t.kernel_excess:,}", kb), cell(f"{k_eff:.0%}", kb), cell(f"{t.bytes_requested:,}"),
                cell(f"{t.bytes_moved:,}"), blank, cell(f"{t.kernel_instructions:,}", color=faint)]
    names = ["N-way conflict", "wavefronts", "ideal", "excess", "efficiency", "bytes requested", "bytes moved",
             "latency (cycles)", "warp instructions"]
    rows = [[("", False, ""), cell("selected", color=faint, tip="the selected warp instruction"),
             cell("pattern", color=faint, tip="one pass of the block: every instruction, warp and loop iteration"),
             cell("kernel", color=faint, tip="the kernel: the pattern × its repeat counts, all warps")]]
    for j, n in enumerate(names):
        rows.append([(f"<span style='color:{ink}'>{n}</span>", False, ""), sel_vals[j], pat_vals[j], ker_vals[j]])
    out.append(("table", rows))
    out.append(("para", f"<b>Shared memory: {t.shared_bytes:,} B</b>"))
    level, why = shared_memory_warning(p)
    if level:
        out.append(("para", f"<span style='color:{red if level == 'over' else faint}'>"
                            f"{'⚠ ' if level == 'over' else ''}{_esc(why)}</span>"))
    out.append(("table", [[(f"<code>{_esc(a.declaration())}</code>", False, ""), cell(f"{a.nbytes:,} B")]
                          for a in p.arrays]))
    if t.invalid:
        out.append(("para", f"<span style='color:{red}'>{t.invalid} warp instruction(s) are invalid.</span>"))
    # (what "pattern" and "kernel" mean is their headers' tooltips: a footnote here was the line
    # the default size cut)
    return out


class SummaryView(QAbstractScrollArea):
    """The summary numbers, painted (see :mod:`.richtext`: a QTextBrowser re-parsed and re-laid
    out its HTML table on every edit). Right-click or Ctrl+C copies them as text."""

    title = "Summary"
    MARGIN = 4.0
    PAD = 6.0  # a table cell's padding left and right

    def __init__(self, doc: Document | None = None, style: Style = SCREEN, parent=None):
        super().__init__(parent)
        self.doc, self.style_ = doc, style
        self._pending = False
        self._blocks: list[Block] = []
        self._placed: list = []  # every piece of text at its place (richtext.place)
        self._ops: list = []  # and as drawing steps (richtext.paint_plan)
        self._tips: list[tuple[QRectF, str]] = []
        self._content = QSize(0, 0)
        self._laid_width = -1
        self._bar_w: int | None = None
        self.fonts = richtext.Fonts(QFont().pointSizeF())
        self.ink = QColor(style.hex(style.ink))
        self.setFocusPolicy(Qt.FocusPolicy.ClickFocus)
        self.viewport().setMouseTracking(True)
        self.setContextMenuPolicy(Qt.ContextMenuPolicy.ActionsContextMenu)
        copy = QAction("Copy summary", self)
        copy.setShortcut(QKeySequence.StandardKey.Copy)
        copy.setShortcutContext(Qt.ShortcutContext.WidgetShortcut)
        copy.triggered.connect(self.copy)
        self.addAction(copy)
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
        blocks = summary_blocks(an, sel, self.style_)
        if blocks != self._blocks:  # repaint only what changed: nothing when the numbers stand
            self._blocks = blocks
            self._laid_width = -1
            self._relayout()
            self.viewport().update()

    def toPlainText(self) -> str:  # noqa: N802 - QTextEdit's name, which this view replaced
        out = []
        for kind, body in self._blocks:
            if kind == "para":
                out.append(richtext.plain_text(body))
            else:
                out += ["\t".join(richtext.plain_text(c[0]) for c in r).rstrip() for r in body]
        return "\n".join(out)

    def copy(self) -> None:
        QGuiApplication.clipboard().setText(self.toPlainText())

    # ---- layout and painting -----------------------------------------------------------------
    def _relayout(self) -> None:
        # the width with room for a vertical scroll bar whether or not it shows: a layout that
        # followed the bar (a tighter table when it appears) made it appear and go in a loop
        bar = self._bar_width()
        width = max(self.width() - 2 * self.frameWidth() - bar - 2 * self.MARGIN, 120.0)
        if width == self._laid_width:
            return
        self._laid_width = width
        f, lh = self.fonts, self.fonts.line_height
        placed, tips = [], []
        y, widest = self.MARGIN, 0.0
        for kind, body in self._blocks:
            if kind == "para":
                pieces, n, w = f.laid_out(body, width)
                placed.append((self.MARGIN, y, pieces))
                y += n * lh + 3
                widest = max(widest, w)
                continue
            cells = [[(f.laid_out(m), right, tip) for m, right, tip in r] for r in body]
            ncol = max((len(r) for r in cells), default=0)
            for pad in (self.PAD, self.PAD / 2, 1.0):  # a narrow panel: tighter columns first
                colw = [0.0] * ncol
                for r in cells:
                    for j, ((_, _, w), _, _) in enumerate(r):
                        colw[j] = max(colw[j], w + (2 * pad if j else pad))
                if sum(colw) <= width:
                    break
            for r in cells:
                x = self.MARGIN
                for j, ((pieces, _, w), right, tip) in enumerate(r):
                    cx = x + colw[j] - pad - w if right else x + (pad if j else 0)
                    placed.append((cx, y, pieces))
                    if tip:
                        tips.append((QRectF(x, y, colw[j], lh), tip))
                    x += colw[j]
                y += lh + 2
                widest = max(widest, x - self.MARGIN)
            y += 3
        self._placed, self._tips = richtext.place(placed, f), tips
        self._ops = richtext.paint_plan(self._placed, f, self.ink)
        self._content = QSize(int(widest + 2 * self.MARGIN + 1), int(y + self.MARGIN))
        self._update_bars()

    def _bar_width(self) -> int:
        """The vertical scroll bar's width (asked of the style once: it is the same every edit)."""
        if self._bar_w is None:
            self._bar_w = self.verticalScrollBar().sizeHint().width()
        return self._bar_w

    def changeEvent(self, ev) -> None:  # noqa: N802 - Qt's name
        if ev.type() == QEvent.Type.StyleChange:
            self._bar_w = None
        super().changeEvent(ev)

    def _update_bars(self) -> None:
        vp = self.viewport().size()
        for bar, extent, page in ((self.verticalScrollBar(), self._content.height(), vp.height()),
                                  (self.horizontalScrollBar(), self._content.width(), vp.width())):
            bar.setRange(0, max(0, extent - page))
            bar.setPageStep(page)
            bar.setSingleStep(int(self.fonts.line_height))

    def resizeEvent(self, ev) -> None:  # noqa: N802 - Qt's name
        super().resizeEvent(ev)
        self._relayout()
        self._update_bars()

    def scrollContentsBy(self, dx: int, dy: int) -> None:  # noqa: N802 - Qt's name
        self.viewport().update()

    def paintEvent(self, ev) -> None:  # noqa: N802 - Qt's name
        p = QPainter(self.viewport())
        p.setRenderHint(QPainter.RenderHint.TextAntialiasing, True)
        p.translate(-self.horizontalScrollBar().value(), -self.verticalScrollBar().value())
        richtext.paint_ops(p, self._ops)
        p.end()

    def viewportEvent(self, ev) -> bool:  # noqa: N802 - Qt's name
        if ev.type() == QEvent.Type.ToolTip:
            pos = QPointF(ev.pos()) + QPointF(self.horizontalScrollBar().value(), self.verticalScrollBar().value())
            tip = next((t for r, t in self._tips if r.contains(pos)), "")
            if tip:
                QToolTip.showText(ev.globalPos(), tip, self.viewport())
            else:
                QToolTip.hideText()
                ev.ignore()
            return True
        return super().viewportEvent(ev)

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt's name
        return QSize(300, 240)


def per_instruction(source: np.ndarray, values: np.ndarray, n: int, op=np.maximum) -> np.ndarray:
    """``op`` (np.add or np.maximum) over each instruction's rows, at least 0 (0 for an instruction
    without rows). The analysis lists rows instruction by instruction, so one segment reduction
    does it (an imported kernel has 100,000 rows: ``np.maximum.at`` took milliseconds)."""
    out = np.zeros(n, np.int64)
    if not source.size:
        return out
    if source.size > 1 and (source[1:] < source[:-1]).any():  # not in order: the general way
        op.at(out, source, values)
        return np.maximum(out, 0)
    starts = np.searchsorted(source, np.arange(n))
    has = starts < np.searchsorted(source, np.arange(n), side="right")
    if has.any():
        out[has] = np.maximum(op.reduceat(np.asarray(values, np.int64), starts[has]), 0)
    return out


def _set_max(sb: QSpinBox, v: int) -> None:
    if sb.maximum() != v:
        sb.setMaximum(v)


def _set_tip(it: QTableWidgetItem, tip: str) -> None:
    if it.toolTip() != tip:
        it.setToolTip(tip)


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
        flat_scroll_bars(self.table)
        # two-line headers keep the number columns narrow: the titles get the room
        self.table.setHorizontalHeaderLabels(["#", "instruction", "Σ wave-\nfronts", "Σ\nideal", "worst"])
        for c, tip in enumerate(["instruction number", "the instruction as the kernel writes it",
                                 "wavefronts summed over every warp and loop iteration of the block "
                                 "(a conflict-free instruction of 8 warps x 4 iterations shows 32)",
                                 "the conflict-free minimum, summed the same way",
                                 "worst conflict degree of any one warp instruction (1-way = no conflict)"]):
            self.table.horizontalHeaderItem(c).setToolTip(tip)
        # titles cut at the right: their start says what the instruction is (the full title is
        # the row's tooltip)
        self.table.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.table.setWordWrap(False)
        self.table.verticalHeader().hide()
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.horizontalHeader().setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        for c in self._FITTED:  # sized by _fit_columns, not on every change of a cell
            self.table.horizontalHeader().setSectionResizeMode(c, QHeaderView.ResizeMode.Fixed)
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
        doc.loaded.connect(lambda: self._fit_columns(shrink=True))
        self.refresh()
        self._fit_columns(shrink=True)

    #: the number columns: as wide as their header and widest cell
    _FITTED = (0, 2, 3, 4)

    def _fit_columns(self, shrink: bool = False, columns: set[int] | None = None) -> None:
        """Widen a number column that no longer fits; narrow it only when a file is opened
        (``shrink``). An edit stepped back and forth (32-way, 1-way, 32-way) then keeps its
        columns where they are: nothing jumps under the mouse, and the table and its header are
        not laid out and repainted again on every step (with Qt's fit-to-contents columns, 0.5 ms
        of an 8 ms edit)."""
        header = self.table.horizontalHeader()
        for c in self._FITTED if columns is None else sorted(columns.intersection(self._FITTED)):
            want = max(self.table.sizeHintForColumn(c), header.sectionSizeHint(c))
            if want > header.sectionSize(c) or (shrink and want != header.sectionSize(c)):
                header.resizeSection(c, want)

    def refresh(self) -> None:
        an, p = self.doc.analysis, self.doc.pattern
        n = len(p.instructions)
        self.table.blockSignals(True)
        if self.table.rowCount() != n:
            self.table.setRowCount(n)
        if an is not None:  # per instruction, over its warps and iterations, in one pass each
            src = an.source
            wf, ideal, deg = an.result.wavefronts, an.result.ideal, an.result.degree
            count = np.bincount(src, minlength=n)
            bad_n = per_instruction(src, (wf < 0).astype(np.int64), n, np.add)
            row_wf, row_ideal = an.row_costs()  # the sums the Summary's totals make
            wf_sum = per_instruction(src, row_wf, n, np.add)
            id_sum = per_instruction(src, row_ideal, n, np.add)
            wf_max, id_max, deg_max = (per_instruction(src, x, n, np.maximum) for x in (wf, ideal, deg))
        # the model's signals are held while the texts change and one dataChanged covers the
        # changed cells afterwards: each cell's own made the table and its header (columns sized
        # to their contents) measure every row again, once per changed cell
        model = self.table.model()
        changed: list[tuple[int, int]] = []
        model.blockSignals(True)
        try:
            for k, ins in enumerate(p.instructions):
                vals = [str(k), ins.title(), "", "", ""]
                tips: list[str | None] = [None] * 5
                if an is not None:
                    if bad_n[k]:
                        vals[2] = "error"
                        tips = [an.instruction_errors.get(k, "")] * 5
                    else:
                        vals[2] = f"{int(wf_sum[k]):,}"
                        vals[3] = f"{int(id_sum[k]):,}"
                        vals[4] = f"{int(deg_max[k])}-way"
                        c = int(count[k])
                        base = (f"sum over {c:,} warp instruction{'s' if c != 1 else ''} "
                                f"({p.warps} warp{'s' if p.warps != 1 else ''} × {ins.iterations()} "
                                f"iteration{'s' if ins.iterations() != 1 else ''}); at most ")
                        tips[2] = base + f"{int(wf_max[k])} per warp instruction"
                        tips[3] = base + f"{int(id_max[k])} per warp instruction"
                for c, v in enumerate(vals):
                    it = self.table.item(k, c)
                    if it is None:
                        it = QTableWidgetItem()
                        if c != 1:
                            it.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                        self.table.setItem(k, c, it)
                        changed.append((k, c))
                    if it.text() != v:  # every change repaints the table (and re-decorates its rows)
                        it.setText(v)
                        changed.append((k, c))
                    if tips[c] is not None:
                        _set_tip(it, tips[c])
        finally:
            model.blockSignals(False)
        if changed:
            rows, cols = [r for r, _ in changed], [c for _, c in changed]
            model.dataChanged.emit(model.index(min(rows), min(cols)), model.index(max(rows), max(cols)))
            self._fit_columns(columns=set(cols))  # measuring a column reads every row: the changed ones
        self.table.blockSignals(False)
        self.sync_selection()

    def sync_selection(self) -> None:
        s, p = self.doc.selection, self.doc.pattern
        for w in (self.table, self.iteration, self.warp, self.lane):
            w.blockSignals(True)
        if p.instructions:
            sm = self.table.selectionModel()
            if len(s.group) > 1:  # a source line's instructions: all marked, the drawn one current
                want = set(s.group)
                if {i.row() for i in sm.selectedRows()} != want or self.table.currentRow() != s.instruction:
                    sm.clearSelection()
                    flags = QItemSelectionModel.SelectionFlag.Select | QItemSelectionModel.SelectionFlag.Rows
                    for k in sorted(want):
                        sm.select(self.table.model().index(k, 0), flags)
                    sm.setCurrentIndex(self.table.model().index(s.instruction, 1),
                                       QItemSelectionModel.SelectionFlag.NoUpdate)
                    self.table.scrollTo(self.table.model().index(s.instruction, 1))
            elif self.table.currentRow() != s.instruction or len(sm.selectedRows()) != 1:
                self.table.selectRow(s.instruction)
            runs = self.doc.executions(s.instruction)
            _set_max(self.iteration, max(int(runs[s.warp]) - 1 if s.warp < runs.size else 0, 0))
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
