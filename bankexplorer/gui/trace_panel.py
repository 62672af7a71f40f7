"""Big traces in the window: loaded and analyzed on a worker thread (progress bar, cancel), listed
by a virtualized table (a model over numpy arrays, no widget per row), and the selected
instruction shown in every view (the document becomes a one-instruction pattern of it).

The worker reads the trace in small batches, so the GUI thread gets the interpreter between
them: a ``.jsonl`` trace of any length loads while the window keeps painting. (A ``.json`` pattern
file is parsed in one piece first: a pause of about a second per 50 MB.)
"""

from __future__ import annotations

import gc
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
from PySide6.QtCore import QAbstractTableModel, QModelIndex, QObject, Qt, QThread, Signal
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QAbstractItemView, QHBoxLayout, QHeaderView, QLabel, QProgressBar, QPushButton, QTableView, QVBoxLayout, QWidget,
)

from ..model.engine import count_wavefronts, narrow
from ..model.errors import BankExplorerError
from ..model.pattern import Instruction, Pattern
from ..model.summary import RowCounts, Summary
from ..palette import SCREEN
from .scroll_bar import flat_scroll_bars

if TYPE_CHECKING:
    from ..io import trace

#: instructions per batch in the window: each batch holds the interpreter for a few milliseconds
GUI_BATCH = 2048
#: seconds between progress reports
PROGRESS_INTERVAL = 0.1


@dataclass
class TraceData:
    """A whole trace, analyzed: one entry per instruction, and what the table and views need."""

    path: Path
    header: Pattern
    templates: list  # trace.Template
    labels: list[str]
    template: np.ndarray  # (N,)
    label: np.ndarray  # (N,) -1 = none
    pc: np.ndarray  # (N,) -1 = none
    repeat: np.ndarray
    wavefronts: np.ndarray  # (N,) -1 on an error
    ideal: np.ndarray
    degree: np.ndarray
    addr: np.ndarray  # (N, W)
    active: np.ndarray  # (N, W)
    errors: dict[int, str]
    summary: Summary

    def __len__(self) -> int:
        return int(self.template.shape[0])

    def title(self, k: int) -> str:
        lab = int(self.label[k])
        return self.labels[lab] if lab >= 0 else self.templates[int(self.template[k])].title()

    def instruction(self, k: int) -> Instruction:
        """Instruction ``k`` as a pattern instruction (explicit addresses), for the views."""
        t = self.templates[int(self.template[k])].ins
        addrs = tuple(int(a) if on else None for a, on in zip(self.addr[k].tolist(), self.active[k].tolist()))
        pc = int(self.pc[k])
        return Instruction(t.kind, t.width, t.matrices, t.trans, addresses=addrs, repeat=int(self.repeat[k]),
                           label=self.title(k), space=t.space, op=t.op, aggregate=t.aggregate,
                           pc=pc if pc >= 0 else None)

    def pattern_of(self, k: int) -> Pattern:
        return Pattern(f"{self.header.name} #{k:,}", hardware=self.header.hardware, instructions=(self.instruction(k),))


class TraceLoader(QObject):
    """Runs on a worker thread: read, validate and analyze a trace batch by batch."""

    progress = Signal(int, float)  # instructions done, fraction of the file (-1 unknown)
    finished = Signal(object)  # TraceData
    failed = Signal(str)
    cancelled = Signal()

    def __init__(self, path: str | Path) -> None:
        super().__init__()
        self.path = Path(path)
        self.stop = threading.Event()

    def run(self) -> None:
        # parsing makes millions of objects and no cycles: with the collector on, a full collection
        # over a big heap would hold the interpreter (and so the GUI thread) for seconds at a time
        # and the GUI thread, whose every call into Python (a repaint runs hundreds) waits for the
        # interpreter, gets it back after half a millisecond instead of five while this thread works
        collecting = gc.isenabled()
        interval = sys.getswitchinterval()
        gc.disable()
        sys.setswitchinterval(min(interval, 0.0005))
        try:
            self._run()
        finally:
            sys.setswitchinterval(interval)
            if collecting:
                gc.enable()

    def _run(self) -> None:
        try:
            data = self._load()
        except BankExplorerError as e:
            self.failed.emit(str(e))
            return
        except (MemoryError, OSError) as e:
            self.failed.emit(f"{self.path.name}: {e}")
            return
        if data is None:
            self.cancelled.emit()
        else:
            self.finished.emit(data)

    def _open(self) -> "trace.Source":
        from ..io import trace  # the trace reader (and orjson) load with the first trace opened

        if self.path.suffix.lower() == ".jsonl":
            return trace.read_jsonl(self.path, batch=GUI_BATCH)
        from ..io import jsonread, patternfile

        raw = patternfile.read_bytes(self.path, max_bytes=None)
        d, exact = jsonread.fast_parse(raw, "", self.path.name)
        if not trace.explicit_only(d):
            raise BankExplorerError(f"{self.path.name}: too big for the editor, and only files whose instructions "
                                    "all give explicit addresses open as a trace")
        again = None if exact else (lambda: jsonread.parse(raw, "", self.path.name))
        return trace.from_pattern_dict(d, self.path.name, batch=GUI_BATCH, reparse=again)

    def _load(self) -> TraceData | None:
        size = max(self.path.stat().st_size, 1)
        src = self._open()
        hw = src.header.hardware
        summary = Summary(hw.row_bytes, src.header.shared_bytes())
        parts: dict[str, list] = {k: [] for k in ("template", "label", "pc", "repeat", "wavefronts", "ideal", "degree",
                                                 "addr", "active")}
        errors: dict[int, str] = {}
        done = 0
        last = -PROGRESS_INTERVAL
        for b in src.batches:
            if self.stop.is_set():
                return None
            wb = b.batch
            wb.addr = narrow(wb.addr)
            res = count_wavefronts(wb, hw)
            n = len(b)
            errs = {r: e for r, e in b.errors.items()}
            for r in np.flatnonzero(res.wavefronts < 0).tolist():
                errs.setdefault(r, f"warp 0: {res.error[r]}")
            ok = np.ones(n, bool)
            if errs:
                ok[list(errs)] = False
            errors.update({b.first + r: e for r, e in errs.items()})
            ones = np.ones(n, np.int64)
            counts = RowCounts(ok, res.wavefronts, res.ideal, res.degree, res.bytes_requested,
                               res.executions if res.executions is not None else ones,
                               res.loop_load_wavefronts if res.loop_load_wavefronts is not None else 0 * ones,
                               b.repeat, res.loop_load_ideal if res.loop_load_ideal is not None else 0 * ones)
            summary.add(b.first, counts, b.label, src.converter.labels, b.pc)
            for k, v in (("template", b.template.astype(np.int32)), ("label", b.label.astype(np.int32)),
                         ("pc", b.pc), ("repeat", b.repeat), ("wavefronts", np.where(ok, res.wavefronts, -1)),
                         ("ideal", res.ideal), ("degree", res.degree), ("addr", wb.addr), ("active", wb.active)):
                parts[k].append(v)
            done += n
            now = time.monotonic()
            if now - last >= PROGRESS_INTERVAL:  # a signal per batch would flood the GUI thread's queue
                last = now
                self.progress.emit(done, self._fraction(src, size, done))
        W = hw.warp_size
        cat = {k: (np.concatenate(v) if v else np.zeros((0, W) if k in ("addr", "active") else 0, np.int64))
               for k, v in parts.items()}
        return TraceData(self.path, src.header, src.converter.templates, src.converter.labels, errors=errors,
                         summary=summary, **cat)

    @staticmethod
    def _fraction(src: "trace.Source", size: int, done: int) -> float:
        if src.count_hint:
            return done / src.count_hint
        return src.position() / size if src.position else -1.0


_CONFLICT = QColor(*SCREEN.conflict)


class TraceTableModel(QAbstractTableModel):
    """The instructions of a trace as table rows, read from the arrays on demand."""

    HEADERS = ("#", "instruction", "pc", "wavefronts", "ideal", "N-way")

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.data_: TraceData | None = None

    def set_data(self, data: TraceData | None) -> None:
        self.beginResetModel()
        self.data_ = data
        self.endResetModel()

    def rowCount(self, parent=QModelIndex()) -> int:  # noqa: N802 - Qt's names
        return 0 if parent.isValid() or self.data_ is None else len(self.data_)

    def columnCount(self, parent=QModelIndex()) -> int:  # noqa: N802
        return 0 if parent.isValid() else len(self.HEADERS)

    def headerData(self, section, orientation, role=Qt.ItemDataRole.DisplayRole):  # noqa: N802
        if role == Qt.ItemDataRole.DisplayRole and orientation == Qt.Orientation.Horizontal:
            return self.HEADERS[section]
        return None

    def data(self, index, role=Qt.ItemDataRole.DisplayRole):
        d = self.data_
        if d is None or not index.isValid():
            return None
        r, c = index.row(), index.column()
        if role == Qt.ItemDataRole.ToolTipRole and r in d.errors:
            return d.errors[r]
        if role == Qt.ItemDataRole.TextAlignmentRole and c != 1:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.ForegroundRole and c in (3, 5) and (r in d.errors or int(d.degree[r]) > 1):
            return _CONFLICT  # a conflicted (or invalid) instruction's numbers in the conflict colour
        if role != Qt.ItemDataRole.DisplayRole:
            return None
        if c == 0:
            return f"{r:,}"
        if c == 1:
            return d.title(r)
        if c == 2:
            pc = int(d.pc[r])
            return f"0x{pc:x}" if pc >= 0 else ""
        if r in d.errors:
            return "error" if c == 3 else ""
        return str(int((d.wavefronts, d.ideal, d.degree)[c - 3][r]))


class TracePanel(QWidget):
    """Progress and cancel while a trace loads; then its totals and its instructions."""

    loaded = Signal(object)  # TraceData
    instructionChosen = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.status = QLabel("No trace open (File > Open Trace…).")
        self.status.setWordWrap(True)
        self.bar = QProgressBar()
        self.bar.setRange(0, 1000)
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.clicked.connect(self.cancel)
        row = QHBoxLayout()
        row.addWidget(self.bar, 1)
        row.addWidget(self.cancel_button)
        self.model = TraceTableModel(self)
        self.table = QTableView()
        flat_scroll_bars(self.table)
        self.table.setModel(self.model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.verticalHeader().setVisible(False)
        self.table.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        self.table.horizontalHeader().setStretchLastSection(False)
        self.table.horizontalHeader().setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        self.table.selectionModel().currentRowChanged.connect(lambda cur, _prev: self._chosen(cur.row()))
        lay = QVBoxLayout(self)
        lay.addWidget(self.status)
        lay.addLayout(row)
        lay.addWidget(self.table, 1)
        self._set_busy(False)
        self.thread: QThread | None = None
        self.loader: TraceLoader | None = None
        self.data: TraceData | None = None
        self.state = "empty"  # loading, loaded, cancelled, failed
        self.done = 0  # instructions analyzed so far

    def _set_busy(self, busy: bool) -> None:
        self.bar.setVisible(busy)
        self.cancel_button.setVisible(busy)

    def open(self, path: str | Path) -> None:
        """Start loading ``path`` on a worker thread (a load under way is cancelled first)."""
        self.cancel()
        self._wait()
        self.model.set_data(None)
        self.data = None
        self.state = "loading"
        self.done = 0
        self.status.setText(f"Loading {Path(path).name}…")
        self.bar.setValue(0)
        self.bar.setFormat("%p%")
        self._set_busy(True)
        self.thread = QThread(self)
        self.loader = TraceLoader(path)
        self.loader.moveToThread(self.thread)
        self.thread.started.connect(self.loader.run)
        self.loader.progress.connect(self._progress)
        self.loader.finished.connect(self._finished)
        self.loader.failed.connect(self._failed)
        self.loader.cancelled.connect(self._cancelled)
        for sig in (self.loader.finished, self.loader.failed, self.loader.cancelled):
            sig.connect(self.thread.quit)
        self.thread.start()

    def cancel(self) -> None:
        if self.loader is not None and self.state == "loading":
            self.loader.stop.set()

    def _wait(self) -> None:
        if self.thread is not None:
            self.thread.quit()
            self.thread.wait()
            self.thread.deleteLater()
            self.thread = None
            self.loader = None

    def _progress(self, done: int, fraction: float) -> None:
        # the bar's own text, not the label: a label whose text changes lays the window out again
        self.done = done
        if fraction >= 0:
            self.bar.setRange(0, 1000)
            self.bar.setValue(int(1000 * min(fraction, 1.0)))
        else:
            self.bar.setRange(0, 0)
        self.bar.setFormat(f"%p%  ({done:,} instructions analyzed)")

    def _finished(self, data: TraceData) -> None:
        self.data = data
        self.state = "loaded"
        self._set_busy(False)
        self.model.set_data(data)
        t = data.summary.totals
        eff = t["ideal"] / t["wavefronts"] if t["wavefronts"] else 1.0
        self.status.setText(f"{data.path.name}: {t['instructions']:,} warp instructions, {t['wavefronts']:,} wavefronts "
                            f"(ideal {t['ideal']:,}, efficiency {eff:.0%}), worst {t['worst_degree']}-way"
                            + (f", {t['invalid']:,} invalid" if t["invalid"] else ""))
        self._fit_columns(len(data))
        self.loaded.emit(data)
        if len(data):  # open on the most expensive instruction, as a pattern opens on its own
            k = self.worst_row()
            self.table.selectRow(k)
            self.table.scrollTo(self.model.index(k, 0), QAbstractItemView.ScrollHint.PositionAtCenter)

    def worst_row(self) -> int:
        """The first row with the most wavefronts (0 when none is valid)."""
        d = self.data
        if d is None or not len(d):
            return 0
        wf = np.asarray(d.wavefronts, np.int64).copy()
        if d.errors:
            wf[np.fromiter(d.errors, np.int64)] = -1
        return int(np.argmax(wf)) if wf.max(initial=-1) >= 0 else 0

    def _fit_columns(self, n: int) -> None:
        """Numeric columns as wide as their widest possible text (not measured row by row: a trace
        has millions), the instruction name taking the rest."""
        fm = self.table.fontMetrics()
        pad = 2 * fm.horizontalAdvance("0")
        header = self.table.horizontalHeader()
        samples = {0: f"{max(n - 1, 0):,}", 2: "0x" + "f" * 6, 3: "9,999", 4: "9,999", 5: "32-way"}
        for c, text in samples.items():
            w = max(fm.horizontalAdvance(text), fm.horizontalAdvance(TraceTableModel.HEADERS[c])) + pad
            header.setSectionResizeMode(c, QHeaderView.ResizeMode.Fixed)
            header.resizeSection(c, w)
        self.table.setColumnHidden(2, not bool((np.asarray(self.data.pc) >= 0).any()) if self.data else True)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Interactive)
        header.resizeSection(1, max(fm.horizontalAdvance("instruction") + pad, fm.horizontalAdvance("0") * 16))

    def _failed(self, message: str) -> None:
        self.state = "failed"
        self._set_busy(False)
        self.status.setText(f"Cannot open: {message}")

    def _cancelled(self) -> None:
        self.state = "cancelled"
        self._set_busy(False)
        self.status.setText("Loading cancelled.")

    def _chosen(self, row: int) -> None:
        if self.data is not None and 0 <= row < len(self.data):
            self.instructionChosen.emit(row)

    def shutdown(self) -> None:
        self.cancel()
        self._wait()
