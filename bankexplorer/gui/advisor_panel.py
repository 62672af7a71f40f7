"""The Advisor dock's contents (Tools > Advisor, installed by :mod:`.tools.advisor`): the layouts that remove the current document's bank conflicts, ranked, and
what each costs in resident blocks per SM.

The ranking is :func:`bankexplorer.advisor.advise` (every candidate costed in one engine call).
It runs on a worker thread so the window never waits on it: the dock re-ranks by itself when the
document changes (after a short pause, and only while the last ranking was fast, see
:data:`AUTO_RUN_LIMIT_S`), otherwise on Run. Applying a candidate is one ordinary document edit,
so it is one step of the undo stack like any other.
"""

from __future__ import annotations

import time
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import replace

import pyqtgraph as pg
from PySide6.QtCore import QObject, Qt, QTimer, Signal
from PySide6.QtGui import QBrush, QColor, QFont
from PySide6.QtWidgets import (
    QAbstractItemView, QComboBox, QGridLayout, QHBoxLayout, QHeaderView, QLabel, QPushButton,
    QSpinBox, QTableWidget, QTableWidgetItem, QVBoxLayout, QWidget,
)

from ..advisor.occupancy import CUSTOM, DEFAULT_GPU, GPU, GPUS
from ..advisor.search import Advice, PaddingPoint, Ranked, advise
from ..model.errors import BankExplorerError
from .document import Document
from .palette import SCREEN
from .scroll_bar import flat_scroll_bars

#: re-rank automatically after an edit only while a ranking takes less than this
AUTO_RUN_LIMIT_S = 0.5
#: pause after the last edit before re-ranking (a held spin box is one ranking, not twenty)
DEBOUNCE_MS = 150
#: rows the table shows (the shortlist: no candidate a simpler one of its kind beats)
SHOWN = 30
PRESETS = (("V100", "v100"), ("A100", "a100"), ("H100", "h100"), ("RTX 4090", "rtx4090"), ("Custom", "custom"))
COLUMNS = ("candidate", "wavefronts", "ideal", "extra bytes", "blocks/SM")

GOOD = (30, 130, 60)  # reaches the ideal
BAD = SCREEN.conflict  # still conflicts
MUTED = SCREEN.faint
KB = 1024


def _hex(rgb) -> str:
    return "#%02x%02x%02x" % tuple(rgb)


def short_label(label: str) -> str:
    """The table's name for a candidate: CuTe swizzles without their byte-offset twin (which the
    tooltip keeps), so the column stays readable in a narrow dock."""
    return label.split(" (= ")[0] if label.startswith("Swizzle<") else label


class _Worker(QObject):
    """Runs one ranking at a time off the GUI thread. The GUI thread polls for the answer, so no
    Python object crosses threads through a Qt signal (PySide6 has mishandled reference counts
    of such queued arguments)."""

    done = Signal(int, object, str)  # generation, Advice or None, error message (GUI thread)

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="advisor")
        self._jobs: list[tuple[int, Future]] = []
        self._poll = QTimer(self)
        self._poll.setInterval(10)
        self._poll.timeout.connect(self._check)

    def submit(self, generation: int, pattern, gpu: GPU, analysis) -> None:
        def job():
            try:
                return advise(pattern, gpu, analysis=analysis), ""
            except BankExplorerError as e:
                return None, str(e)

        self._jobs.append((generation, self._pool.submit(job)))
        self._poll.start()

    def _check(self) -> None:
        while self._jobs and self._jobs[0][1].done():
            generation, fut = self._jobs.pop(0)
            try:
                adv, err = fut.result()
            except Exception as e:  # a bug, not bad input: say it rather than hang on "Running"
                adv, err = None, f"internal error: {type(e).__name__}: {e}"
            self.done.emit(generation, adv, err)
        if not self._jobs:
            self._poll.stop()

    def shutdown(self) -> None:
        self._poll.stop()
        self._pool.shutdown(wait=True)


class OccupancyChart(QWidget):
    """Blocks per SM against the padding of one array, conflict-free paddings marked: the
    trade-off of a padded, conflict-free layout against fewer resident blocks."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        st = SCREEN
        self.points: list[PaddingPoint] = []
        self.array = ""
        self.plot = pg.PlotWidget(background=_hex(st.background), enableMenu=False)  # no menu built to be dropped
        self.plot.setMenuEnabled(False)
        self.plot.setMouseEnabled(False, False)
        self.plot.hideButtons()
        self.plot.showGrid(x=False, y=True, alpha=0.25)
        ink = _hex(st.ink)
        for side in ("left", "bottom"):
            ax = self.plot.getAxis(side)
            ax.setPen(pg.mkPen(ink))
            ax.setTextPen(pg.mkPen(ink))
        self.plot.setLabel("left", "blocks / SM", color=ink)
        self.plot.setLabel("bottom", "padding (elements per row)", color=ink)
        self.line = pg.PlotDataItem(pen=pg.mkPen(_hex(st.faint), width=1.5))
        self.ok = pg.ScatterPlotItem(symbol="o", size=9, brush=pg.mkBrush(*GOOD), pen=pg.mkPen(*GOOD),
                                     name="conflict-free")
        self.bad = pg.ScatterPlotItem(symbol="o", size=7, brush=pg.mkBrush(255, 255, 255), pen=pg.mkPen(*BAD, width=1.5),
                                      name="bank conflicts")
        self.invalid = pg.ScatterPlotItem(symbol="x", size=8, brush=pg.mkBrush(*MUTED), pen=pg.mkPen(*MUTED),
                                          name="misaligned")
        for item in (self.line, self.ok, self.bad, self.invalid):
            self.plot.addItem(item)
        self.current = pg.InfiniteLine(angle=90, pen=pg.mkPen(_hex(st.ink), width=1, style=Qt.PenStyle.DashLine))
        self.plot.addItem(self.current)
        self.caption = QLabel()
        self.caption.setStyleSheet(f"color:{ink}")
        self.caption.setWordWrap(True)
        # the legend sits beside the chart rather than on it, so it never hides a point
        self.legend = QLabel(
            f"<span style='color:{_hex(GOOD)}'>&#9679;</span> conflict-free &nbsp; "
            f"<span style='color:{_hex(BAD)}'>&#9675;</span> bank conflicts &nbsp; "
            f"<span style='color:{_hex(MUTED)}'>&#10005;</span> misaligned &nbsp; "
            f"<span style='color:{ink}'>&#9482;</span> current padding")
        self.legend.setStyleSheet(f"color:{ink}")
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(2)
        lay.addWidget(self.caption)
        lay.addWidget(self.legend)
        lay.addWidget(self.plot, 1)

    def set_curve(self, points: list[PaddingPoint], array: str, current_padding: int | None, caption: str) -> None:
        self.points, self.array = list(points), array
        self.caption.setText(caption)
        xs = [p.padding for p in points]
        ys = [p.blocks for p in points]
        self.line.setData(xs, ys)
        self.ok.setData([p.padding for p in points if p.conflict_free], [p.blocks for p in points if p.conflict_free])
        self.bad.setData([p.padding for p in points if p.wavefronts is not None and not p.conflict_free],
                         [p.blocks for p in points if p.wavefronts is not None and not p.conflict_free])
        self.invalid.setData([p.padding for p in points if p.wavefronts is None],
                             [p.blocks for p in points if p.wavefronts is None])
        self.plot.setLabel("bottom", f"padding of {array} (elements per row)" if array else "padding", color=_hex(SCREEN.ink))
        self.current.setVisible(current_padding is not None and bool(points))
        if current_padding is not None:
            self.current.setValue(current_padding)
        if points:
            top = max(ys)
            self.plot.setXRange(-0.5, max(xs) + 0.5, padding=0)
            top = max(4, top)
            self.plot.setYRange(0, top * 1.15 + 0.5, padding=0)
            step = max(1, -(-top // 4))  # whole blocks only: no 0.5-block ticks
            self.plot.getAxis("left").setTickSpacing(step, step)

    def series(self) -> dict[str, list[tuple[int, int]]]:
        """What is drawn, as (padding, blocks) per marker kind (for tests and export)."""
        def pts(item):
            x, y = item.getData()
            return [(int(a), int(b)) for a, b in zip(x, y)]
        return {"conflict-free": pts(self.ok), "conflicts": pts(self.bad), "rejected": pts(self.invalid)}


class AdvisorPanel(QWidget):
    """The dock's contents: GPU, Run, the summary sentence, the ranking, Apply, the chart."""

    title = "Advisor"
    #: a ranking for the current document is shown (tests and scripts wait on it)
    adviceReady = Signal()
    #: (before, after, text): open the chosen candidate as the after of a comparison (the window's
    #: Compare tool listens)
    compareRequested = Signal(object, object, str)

    def __init__(self, document: Document, parent: QWidget | None = None):
        super().__init__(parent)
        self.document = document
        self.advice: Advice | None = None
        self.rows: list[Ranked] = []
        self.gpu: GPU = GPUS[DEFAULT_GPU]
        self._custom_base: GPU = CUSTOM
        self.generation = 0
        self.running = False
        self.last_seconds = 0.0
        self._started = 0.0
        self._again = False
        self._submitted = None  # the pattern being ranked
        self._shown = None  # the pattern the dock's contents are for
        self._worker = _Worker(self)
        self._worker.done.connect(self._on_done)
        self._debounce = QTimer(self)
        self._debounce.setSingleShot(True)
        self._debounce.setInterval(DEBOUNCE_MS)
        self._debounce.timeout.connect(lambda: self.run(auto=True))
        self._build()
        document.patternChanged.connect(self._on_pattern_changed)  # also emitted on open

    # ---- widgets -----------------------------------------------------------------------------
    def _build(self) -> None:
        top = QHBoxLayout()
        top.setSpacing(6)
        top.addWidget(QLabel("GPU"))
        self.gpu_combo = QComboBox()
        for text, key in PRESETS:
            self.gpu_combo.addItem(text, key)
        self.gpu_combo.setCurrentIndex([k for _, k in PRESETS].index(DEFAULT_GPU))
        self.gpu_combo.setToolTip("Blocks per SM follow this GPU's shared memory, block and thread limits")
        self.gpu_combo.currentIndexChanged.connect(self._on_gpu_changed)
        top.addWidget(self.gpu_combo)
        top.addStretch(1)
        self.run_button = QPushButton("Run")
        self.run_button.setToolTip("Rank padding, XOR, CuTe Swizzle and remap layouts for this pattern")
        self.run_button.clicked.connect(lambda: self.run(auto=False))
        self.apply_button = QPushButton("Apply")
        self.apply_button.setToolTip("Change the pattern to the selected layout (one undo step); double-click does the same")
        self.apply_button.setEnabled(False)
        self.apply_button.clicked.connect(self.apply_selected)
        self.compare_button = QPushButton("Compare")
        self.compare_button.setToolTip("Apply the selected layout and compare it with the pattern as it was "
                                       "(the Before pane; File › Export › Export Comparison…)")
        self.compare_button.setEnabled(False)
        self.compare_button.clicked.connect(self.compare_selected)
        top.addWidget(self.run_button)
        top.addWidget(self.apply_button)
        top.addWidget(self.compare_button)

        self.custom_box = QWidget()
        grid = QGridLayout(self.custom_box)
        grid.setContentsMargins(0, 0, 0, 0)
        grid.setHorizontalSpacing(6)
        grid.setVerticalSpacing(2)
        self.spins: dict[str, QSpinBox] = {}
        specs = (("shared_per_sm", "shared/SM", " KB", 1, 4096), ("shared_per_block", "shared/block", " KB", 1, 4096),
                 ("max_blocks", "max blocks/SM", "", 1, 256), ("max_threads", "max threads/SM", "", 32, 8192))
        for i, (field, text, suffix, lo, hi) in enumerate(specs):
            sb = QSpinBox()
            sb.setRange(lo, hi)
            sb.setSuffix(suffix)
            if field == "max_threads":
                sb.setSingleStep(32)
            sb.setKeyboardTracking(False)
            sb.valueChanged.connect(self._on_custom_changed)
            self.spins[field] = sb
            grid.addWidget(QLabel(text), i // 2, (i % 2) * 2)
            grid.addWidget(sb, i // 2, (i % 2) * 2 + 1)
        self.custom_error = QLabel()
        self.custom_error.setStyleSheet(f"color:{_hex(BAD)}")
        self.custom_error.setWordWrap(True)
        grid.addWidget(self.custom_error, 2, 0, 1, 4)
        self.custom_error.hide()
        self.custom_box.setVisible(False)

        self.summary = QLabel("Press Run to rank layouts for this pattern.")
        self.summary.setWordWrap(True)
        self.summary.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)

        self.table = QTableWidget(0, len(COLUMNS))
        flat_scroll_bars(self.table)
        self.table.setHorizontalHeaderLabels(list(COLUMNS))
        self.table.verticalHeader().setVisible(False)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setWordWrap(False)
        self.table.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        self.table.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 6)
        h = self.table.horizontalHeader()
        h.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        for c in range(1, len(COLUMNS)):
            h.setSectionResizeMode(c, QHeaderView.ResizeMode.ResizeToContents)
        tips = ("the layout change", "kernel wavefronts with this layout (x repeat counts, all warps)",
                "fewest wavefronts any layout of the same data could take", "shared memory bytes the layout adds",
                "resident blocks per SM on the selected GPU (shared memory, threads, block limit; registers not counted)")
        for c, tip in enumerate(tips):
            self.table.horizontalHeaderItem(c).setToolTip(tip)
        self.table.itemSelectionChanged.connect(self._on_row_selected)
        self.table.cellDoubleClicked.connect(lambda r, _c: self.apply_row(r))

        self.chart = OccupancyChart()
        self.chart.setMinimumHeight(170)
        self.chart.setMaximumHeight(200)
        self.footer = QLabel()
        self.footer.setStyleSheet(f"color:{_hex(MUTED)}")
        self.footer.setWordWrap(True)

        lay = QVBoxLayout(self)
        lay.setContentsMargins(6, 4, 6, 4)
        lay.setSpacing(4)
        lay.addLayout(top)
        lay.addWidget(self.custom_box)
        lay.addWidget(self.summary)
        lay.addWidget(self.table, 3)
        lay.addWidget(self.footer)
        lay.addWidget(self.chart, 1)

    # ---- running -----------------------------------------------------------------------------
    @property
    def up_to_date(self) -> bool:
        """What the dock shows (a ranking, or why there is none) is for the document's pattern."""
        return self._shown is not None and self._shown is self.document.pattern

    def run(self, auto: bool = False) -> None:
        """Rank the document's pattern on the worker thread (one at a time; an edit made while
        one runs is ranked right after it)."""
        if auto and not self.isVisible():
            return
        if self.running:
            self._again = True
            return
        an = self.document.analysis
        if an is None:
            self._show_message("The pattern is not valid; fix it in the editor, then run the advisor.", BAD)
            return
        self.generation += 1
        self.running = True
        self._again = False
        self._started = time.perf_counter()
        self._submitted = self.document.pattern
        self.run_button.setEnabled(False)
        self.run_button.setText("Running…")
        self._worker.submit(self.generation, self.document.pattern, self.gpu, an)

    def _on_done(self, generation: int, adv: Advice | None, err: str) -> None:
        self.running = False
        # the search's own time decides whether edits re-rank by themselves (not time spent
        # queued behind the window's first paint)
        self.last_seconds = adv.seconds if adv is not None else time.perf_counter() - self._started
        self.run_button.setEnabled(True)
        self.run_button.setText("Run")
        if generation != self.generation:
            return
        if self._submitted is not self.document.pattern:  # edited meanwhile
            if self._again or self.last_seconds <= AUTO_RUN_LIMIT_S:
                self.run(auto=not self._again)
            else:
                self._mark_stale()
            return
        self._shown = self._submitted
        if adv is None:
            self.advice = None
            self.rows = []
            self.table.setRowCount(0)
            self.apply_button.setEnabled(False)
            self.compare_button.setEnabled(False)
            self._update_chart(None)
            self._show_message(f"Cannot rank layouts: {err}", BAD)
        else:
            if adv.gpu != self.gpu:  # the GPU changed while it ran
                adv = adv.with_gpu(self.gpu)
            self.advice = adv
            self._fill()
        self.adviceReady.emit()

    def _on_pattern_changed(self) -> None:
        if self.up_to_date:
            return
        self.apply_button.setEnabled(False)  # the rows are for another pattern until re-ranked
        self.compare_button.setEnabled(False)
        if not self.isVisible():
            return
        if self.last_seconds <= AUTO_RUN_LIMIT_S:
            self._debounce.start()
        else:
            self._mark_stale()

    def _mark_stale(self) -> None:
        self.apply_button.setEnabled(False)
        self.compare_button.setEnabled(False)
        self._show_message(f"The pattern changed; press Run to rank again (the last ranking took "
                           f"{self.last_seconds:.1f} s, so it does not run by itself).", MUTED)

    def showEvent(self, ev) -> None:  # noqa: N802 - Qt's name
        super().showEvent(ev)
        if not self.up_to_date and not self.running and (self.advice is None or self.last_seconds <= AUTO_RUN_LIMIT_S):
            QTimer.singleShot(0, lambda: self.run(auto=True))

    def shutdown(self) -> None:
        self._worker.shutdown()

    # ---- GPU ---------------------------------------------------------------------------------
    def _on_gpu_changed(self) -> None:
        key = self.gpu_combo.currentData()
        custom = key == "custom"
        if custom:
            self._custom_base = replace(self.gpu, key="custom", name=f"Custom (from {self.gpu.name})")
            for f, sb in self.spins.items():
                sb.blockSignals(True)
                v = getattr(self._custom_base, f)
                sb.setValue(v // KB if f.startswith("shared") else v)
                sb.blockSignals(False)
            self.custom_error.clear()
            self.custom_error.hide()
            self._set_gpu(self._custom_base)
        else:
            self._set_gpu(GPUS[key])
        self.custom_box.setVisible(custom)

    def _on_custom_changed(self) -> None:
        vals = {f: sb.value() * (KB if f.startswith("shared") else 1) for f, sb in self.spins.items()}
        g = replace(self._custom_base, name="Custom", **vals)
        problems = g.validate()
        if problems:
            f, msg = problems[0]
            self.custom_error.setText(f"{f.replace('_', ' ')}: {msg}; blocks per SM not updated.")
            self.custom_error.show()
            return
        self.custom_error.clear()
        self.custom_error.hide()
        self._set_gpu(g)

    def set_gpu(self, key: str, **custom: int) -> None:
        """Pick a preset (or ``"custom"`` with values in bytes/counts), as the combo would."""
        self.gpu_combo.setCurrentIndex([k for _, k in PRESETS].index(key))
        if custom:
            for f, v in custom.items():
                self.spins[f].blockSignals(True)
                self.spins[f].setValue(v // KB if f.startswith("shared") else v)
                self.spins[f].blockSignals(False)
            self._on_custom_changed()

    def _set_gpu(self, g: GPU) -> None:
        self.gpu = g
        if self.advice is not None:
            self.advice = self.advice.with_gpu(g)
            self._fill()

    # ---- showing -----------------------------------------------------------------------------
    def _show_message(self, text: str, color) -> None:
        self.summary.setText(text)
        self.summary.setStyleSheet(f"color:{_hex(color)}")

    def _fill(self) -> None:
        adv = self.advice
        sel = self.table.currentRow()
        self.rows = adv.shortlist(SHOWN)
        best = adv.best
        if best is None:
            self._show_message(adv.summary(), BAD)
        elif best.conflict_free:
            self._show_message(adv.summary(), GOOD)
        else:
            b = best
            if b.current:
                text = (f"No candidate is conflict-free, and none beats the current layout: {b.wavefronts:,} "
                        f"wavefronts against an ideal of {b.ideal:,}.")
            else:
                now = f" (now {adv.current.wavefronts:,})" if adv.current is not None else ""
                text = (f"No candidate is conflict-free; best is {short_label(b.label)}: {b.wavefronts:,} wavefronts "
                        f"against an ideal of {b.ideal:,}{now}.")
            self._show_message(text, BAD)
        self.table.setSortingEnabled(False)
        self.table.setRowCount(len(self.rows))
        bold = QFont(self.font())
        bold.setBold(True)
        for i, r in enumerate(self.rows):
            label = "current layout" if r.current else short_label(r.label)
            cells = (label, f"{r.wavefronts:,}", f"{r.ideal:,}", f"{r.extra_bytes:,}", str(r.blocks_per_sm))
            occ = r.occupancy
            occ_tip = (f"{occ.blocks} blocks of {adv.pattern.threads} threads per SM on {adv.gpu.name}: limited by "
                       f"{occ.limiter}; {occ.shared_charged:,} B of shared memory charged per block "
                       f"({r.shared_bytes:,} B of arrays + the driver's reservation, rounded up). Registers not counted."
                       + (f" {occ.note}." if occ.note else ""))
            tips = (self._candidate_tip(r), "reaches the ideal" if r.conflict_free else
                    f"{r.wavefronts / r.ideal:.2f}x the ideal" if r.ideal else "", "", f"{r.shared_bytes:,} B in all", occ_tip)
            for c, (text, tip) in enumerate(zip(cells, tips)):
                it = QTableWidgetItem(text)
                if c:
                    it.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                if tip:
                    it.setToolTip(tip)
                if r.current:
                    it.setFont(bold)
                if c == 1:
                    it.setForeground(QBrush(QColor(*(GOOD if r.conflict_free else BAD))))
                if c == 4 and occ.blocks == 0:
                    it.setForeground(QBrush(QColor(*BAD)))
                self.table.setItem(i, c, it)
        self.footer.setText(f"{adv.generated:,} layouts tried, {adv.rejected:,} rejected, in {adv.seconds * 1000:.0f} ms; "
                            "blocks/SM without registers")
        self.footer.setToolTip(f"{adv.generated:,} candidate layouts, {adv.distinct:,} distinct, {adv.rejected:,} rejected "
                               f"(an access out of bounds or misaligned), ranked in {adv.seconds * 1000:.0f} ms.\n"
                               f"Blocks per SM on {adv.gpu.name} follow the CUDA occupancy rules for shared memory "
                               "(with the driver's per-block reservation), threads and resident blocks; registers "
                               "are not counted.")
        self.table.setCurrentCell(min(max(sel, 0), len(self.rows) - 1), 0) if self.rows else None
        self._on_row_selected()

    @staticmethod
    def _candidate_tip(r: Ranked) -> str:
        if r.current:
            return "the pattern as it is"
        return "\n".join([r.label] + [a.declaration() + (f" with {a.transform.describe()}" if a.transform.kind != "none" else "")
                                      for _, a in r.candidate.changes])

    def _on_row_selected(self) -> None:
        r = self.selected()
        self.apply_button.setEnabled(r is not None and not r.current and self.up_to_date)
        self.compare_button.setEnabled(self.apply_button.isEnabled())
        self._update_chart(r)

    def selected(self) -> Ranked | None:
        i = self.table.currentRow()
        return self.rows[i] if 0 <= i < len(self.rows) else None

    def _chart_array(self, r: Ranked | None) -> str | None:
        curves = self.advice.curves if self.advice else {}
        if r is not None and r.candidate.changes:
            name = self.advice.pattern.arrays[r.candidate.changes[0][0]].name
            if name in curves:
                return name
        return next(iter(curves), None)

    def _update_chart(self, r: Ranked | None) -> None:
        adv = self.advice
        name = self._chart_array(r) if adv is not None else None
        if name is None:
            self.chart.set_curve([], "", None, "No padding to chart: no 2-D array is accessed (padding adds to rows)."
                                 if adv is not None else "")
            return
        arr = next(a for a in adv.pattern.arrays if a.name == name)
        cur = arr.padding if arr.transform.kind == "none" else None
        self.chart.set_curve(adv.curves[name], name, cur,
                             f"Blocks per SM against padding of {name} on {adv.gpu.name}, {adv.pattern.threads} threads per block")

    # ---- applying ----------------------------------------------------------------------------
    def apply_selected(self) -> bool:
        return self.apply_row(self.table.currentRow())

    def compare_selected(self) -> bool:
        """Ask the window to compare the pattern as it is (before) with the selected candidate
        applied (after): :attr:`compareRequested`."""
        i = self.table.currentRow()
        if not 0 <= i < len(self.rows) or self.rows[i].current or not self.up_to_date or self.advice is None:
            return False
        r = self.rows[i]
        self.compareRequested.emit(self.advice.pattern, r.candidate.apply(self.advice.pattern), f"Advisor: {r.label}")
        return True

    def apply_row(self, i: int) -> bool:
        """Make the document's layout the candidate of row ``i``: one undoable edit."""
        if not 0 <= i < len(self.rows) or self.rows[i].current:
            return False
        if not self.up_to_date or self.advice is None:
            self._mark_stale()
            return False
        r = self.rows[i]
        new = r.candidate.apply(self.advice.pattern)
        return self.document.apply(new, f"Advisor: {r.label}")
