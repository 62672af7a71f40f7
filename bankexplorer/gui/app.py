"""The window: wires a Document to its views, editors and menus, and nothing more.

``run_app(path)`` is what ``bankexplorer`` / ``bankexplorer FILE`` / ``bankexplorer open`` call.
Other features are the modules of :mod:`.tools`: each adds its actions and docks through the
window's small interface (:class:`.tools.host.ToolHost`), and the window keeps what each returns
in :attr:`MainWindow.tools`.
"""

from __future__ import annotations

import html
import json
import os
import sys
import time
import traceback
from pathlib import Path
from typing import Callable

from PySide6.QtCore import QByteArray, QCoreApplication, QEvent, QSettings, QSize, Qt, QTimer
from PySide6.QtGui import QAction, QCloseEvent, QIcon, QKeySequence, QPainter
from PySide6.QtWidgets import (
    QApplication, QDockWidget, QFileDialog, QLabel, QMainWindow, QMessageBox, QStyle, QWidget,
)

from .. import resources
from ..io import patternfile
from ..model.errors import BankExplorerError
from ..model.pattern import Instruction, Pattern
from ..model.layout import SharedArray
from ..startup import collector_on
from .document import Document
from .editors import EditorPanel
from .keys import redo_keys  # noqa: F401 - the window's Redo action; tests reach it here too
from .lazy_dock import LazyDock
from .screen_fit import area_value, fit_restored, place_main_window
from .views import BanksView, InstructionList, MatrixView, SummaryView, TileView, TimelineView

ORG, APP = "BankExplorer", "BankExplorer"
MAX_RECENT = 8
DEFAULT_EXAMPLE = "06_transpose_32x32.json"
#: bump when the dock arrangement changes, so an old saved layout is not restored over it
LAYOUT_VERSION = 5  # 5: an imported kernel's Source lines is a tab of the Edit pane
#: the least each view keeps (pixels): below it a view stops being readable (the timeline's lane
#: ticks collide, the summary's kernel column goes behind a scroll bar); docks cannot be
#: squeezed past it, at 1366x768 as at 1920x1080, with the Before pane or without
MIN_VIEW_SIZE = {"tile": (280, 250), "banks": (340, 170), "matrix": (340, 230), "timeline": (360, 230),
                 "summary": (300, 170)}

def is_trace_file(path: str | Path) -> bool:
    """A ``.jsonl`` trace, or a pattern file larger than the editor takes (opened as a trace)."""
    p = Path(path)
    if p.suffix.lower() == ".jsonl":
        return True
    try:
        return p.stat().st_size > patternfile.MAX_FILE_BYTES
    except OSError:
        return False


#: kernel sources: opened in Tools > Import CUDA, not as a pattern file
CUDA_SUFFIXES = (".cu", ".cuh")


def is_cuda_file(path: str | Path) -> bool:
    """A kernel source, or a binary with device code (a cubin, a fatbin, an executable, a shared
    library: by its first bytes), which Import CUDA opens."""
    if Path(path).suffix.lower() in CUDA_SUFFIXES:
        return True
    from ..kernels import is_binary

    try:
        with open(path, "rb") as f:
            return is_binary(f.read(4))
    except OSError:
        return False


def _too_big_for_editor(e: BankExplorerError) -> bool:
    """A pattern file refused only for its size (too many instructions for the editor)."""
    problems = getattr(e, "problems", None) or []
    return bool(problems) and all(p == "instructions" and ("too many" in m or "at most" in m) for p, m in problems)


def new_pattern() -> Pattern:
    """What File > New gives: a 32x32 float tile read by rows (conflict-free) by one warp."""
    return Pattern(
        name="untitled",
        arrays=(SharedArray("s", "float", (32, 32)),),
        block=(32, 1, 1),
        instructions=(Instruction("load", array="s", index=("0", "threadIdx.x")),),
    )


def instruction_tooltip(title: str, error: str = "", note: str = "") -> str:
    """The instruction table's tooltip: the full title, then its error and note. Rich text, so
    Qt wraps a long note instead of drawing one line wider than the screen."""
    parts = [f"<b>{html.escape(title)}</b>"]
    if error:
        parts.append(f"<span style='color:#c01010'>error: {html.escape(error)}</span>")
    if note:
        parts.append(f"⚠ {html.escape(note)}")
    return "<p>" + "</p><p>".join(parts) + "</p>"


class ElidedLabel(QLabel):
    """A one-line label that cuts its text at the right with "…" instead of widening the window
    (the status bar's note can be a long sentence); the full text is its tooltip."""

    MAX_WIDTH = 640

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt's names
        h = super().sizeHint()
        return QSize(min(self.fontMetrics().horizontalAdvance(self.text()) + 8, self.MAX_WIDTH), h.height())

    def minimumSizeHint(self) -> QSize:  # noqa: N802
        return QSize(40, super().minimumSizeHint().height())

    def paintEvent(self, ev) -> None:  # noqa: N802
        p = QPainter(self)
        p.setPen(self.palette().color(self.foregroundRole()))
        r = self.contentsRect()
        text = self.fontMetrics().elidedText(self.text(), Qt.TextElideMode.ElideRight, r.width())
        p.drawText(r, int(Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft), text)


class MainWindow(QMainWindow):
    instances: list["MainWindow"] = []

    def __init__(self, settings: QSettings | None = None, pattern: Pattern | None = None):
        """``pattern``: the one about to be opened (analysed once, not after File > New's)."""
        super().__init__()
        self.settings = settings or QSettings(ORG, APP)
        self.document = Document(pattern if pattern is not None else new_pattern(), self)
        self.setAcceptDrops(True)
        self.setDockNestingEnabled(True)
        self.tile = TileView(self.document)
        self.banks = BanksView(self.document)
        self.matrix = MatrixView(self.document)
        self.timeline = TimelineView(self.document)
        self.summary = SummaryView(self.document)
        self.instructions = InstructionList(self.document)
        self.editor = EditorPanel(self.document)
        self.views = [self.tile, self.banks, self.matrix, self.timeline]
        for name, (mw, mh) in MIN_VIEW_SIZE.items():
            getattr(self, name).setMinimumSize(mw, mh)
        self.setCentralWidget(self.tile)
        self.docks: dict[str, QDockWidget] = {}
        # editor (and instruction list) on the left, the two 32-bank views on the right, both
        # full height; timeline and summary under the tile, which keeps the middle.
        self.setCorner(Qt.Corner.TopLeftCorner, Qt.DockWidgetArea.LeftDockWidgetArea)
        self.setCorner(Qt.Corner.BottomLeftCorner, Qt.DockWidgetArea.LeftDockWidgetArea)
        self.setCorner(Qt.Corner.TopRightCorner, Qt.DockWidgetArea.RightDockWidgetArea)
        self.setCorner(Qt.Corner.BottomRightCorner, Qt.DockWidgetArea.RightDockWidgetArea)
        self._dock("editor", self.editor, Qt.DockWidgetArea.LeftDockWidgetArea)
        self._dock("instructions", self.instructions, Qt.DockWidgetArea.LeftDockWidgetArea)
        self._dock("banks", self.banks, Qt.DockWidgetArea.RightDockWidgetArea)
        self._dock("matrix", self.matrix, Qt.DockWidgetArea.RightDockWidgetArea)
        self._dock("timeline", self.timeline, Qt.DockWidgetArea.BottomDockWidgetArea)
        self._dock("summary", self.summary, Qt.DockWidgetArea.BottomDockWidgetArea)
        self.splitDockWidget(self.docks["editor"], self.docks["instructions"], Qt.Orientation.Vertical)
        self.splitDockWidget(self.docks["banks"], self.docks["matrix"], Qt.Orientation.Vertical)
        self.splitDockWidget(self.docks["timeline"], self.docks["summary"], Qt.Orientation.Horizontal)
        # a big trace: its own virtualized list, below the pattern's instruction list, shown on open
        # (made when a trace is first opened: most sessions never open one)
        trace = LazyDock("Trace", self._make_trace_panel, self)
        trace.setObjectName("dock_trace")
        self.addDockWidget(Qt.DockWidgetArea.LeftDockWidgetArea, trace)
        self.docks["trace"] = trace
        self.splitDockWidget(self.docks["instructions"], trace, Qt.Orientation.Vertical)
        trace.hide()
        self._layout_pending = True
        self.menus = {}
        self._build_menus()
        self.document.dirtyChanged.connect(self._update_title)
        self.document.pathChanged.connect(self._update_title)
        self.document.patternChanged.connect(self._update_title)
        self.document.errorsChanged.connect(self._show_errors)
        self.statusBar()
        self._setup_instruction_table()
        self._restore_geometry()
        MainWindow.instances.append(self)
        self.destroyed.connect(lambda *_: None)
        from .tools import install_all

        #: each tool's object by its module's name (``tools["imported_kernel"]``: the Source lines dock...)
        self.tools: dict[str, object] = {}
        install_all(self)

    def _make_trace_panel(self) -> QWidget:
        from .trace_panel import TracePanel

        panel = TracePanel()
        panel.instructionChosen.connect(self._show_trace_instruction)
        panel.loaded.connect(lambda _data: self._give_trace_room())
        return panel

    @property
    def trace(self):
        """The big-trace panel (:class:`.trace_panel.TracePanel`), made the first time it is needed."""
        return self.docks["trace"].content()

    def _dock(self, name: str, w: QWidget, area) -> QDockWidget:
        d = QDockWidget(getattr(w, "title", name.title()), self)
        d.setObjectName(f"dock_{name}")
        d.setWidget(w)
        self.addDockWidget(area, d)
        self.docks[name] = d
        return d

    # ---- menus -------------------------------------------------------------------------------
    def _action(self, menu, text: str, slot, shortcut=None) -> QAction:
        a = QAction(text, self)
        if shortcut is not None:
            a.setShortcut(shortcut)
        a.triggered.connect(slot)
        menu.addAction(a)
        return a

    def _build_menus(self) -> None:
        mb = self.menuBar()
        f = self.menus["file"] = mb.addMenu("&File")
        self._action(f, "&New", self.new_file, QKeySequence.StandardKey.New)
        self._action(f, "&Open…", self.open_dialog, QKeySequence.StandardKey.Open)
        self._action(f, "Open &Trace…", self.open_trace_dialog, QKeySequence("Ctrl+Shift+O"))
        ex = self.menus["examples"] = f.addMenu("Open &Example")
        for path in resources.examples():
            self._action(ex, path.stem.replace("_", " "), lambda _=False, p=path: self.open_path(p))
        self.menus["recent"] = f.addMenu("Open &Recent")
        self._fill_recent()
        f.addSeparator()
        self._action(f, "&Save", self.save, QKeySequence.StandardKey.Save)
        self._action(f, "Save &As…", self.save_as, QKeySequence.StandardKey.SaveAs)
        f.addSeparator()
        self._action(f, "&Quit", self.close, QKeySequence.StandardKey.Quit)
        e = self.menus["edit"] = mb.addMenu("&Edit")
        undo = self.document.undo_stack.createUndoAction(self, "&Undo")
        undo.setShortcut(QKeySequence.StandardKey.Undo)
        redo = self.document.undo_stack.createRedoAction(self, "&Redo")
        redo.setShortcuts(redo_keys())
        e.addAction(undo)
        e.addAction(redo)
        v = self.menus["view"] = mb.addMenu("&View")
        for d in self.docks.values():
            v.addAction(d.toggleViewAction())
        v.addSeparator()
        self._action(v, "Reset &Layout", self.apply_default_layout)
        self._action(v, "&Fit Views", self.fit_views, QKeySequence("Ctrl+0"))
        self.menus["tools"] = mb.addMenu("&Tools")
        self.menus["help"] = mb.addMenu("&Help")
        self._action(self.menus["help"], "&About", self.about)

    def about(self) -> None:
        from html import escape

        from ..about import components

        (name, what), *parts = components()
        rows = "".join(f"<tr><td nowrap>{escape(n)}</td><td nowrap>&nbsp;&nbsp;{escape(w)}</td></tr>" for n, w in parts)
        QMessageBox.about(self, "About BankExplorer", f"<b>{escape(name)}</b><br>{escape(what)}.<br><br><table>{rows}</table>")

    # ---- files -------------------------------------------------------------------------------
    def _update_title(self) -> None:
        d = self.document
        name = d.path.name if d.path else d.pattern.name
        # the marker is written out (not Qt's "[*]" placeholder) so the title is the same text
        # on every platform and in screenshots: "name — BankExplorer", "name * — BankExplorer"
        self.setWindowTitle(f"{name}{' *' if d.dirty else ''} — BankExplorer")

    def maybe_save(self) -> bool:
        """True when it is fine to drop the current document (saved, discarded or clean)."""
        if not self.document.dirty:
            return True
        r = QMessageBox.question(
            self, "Unsaved changes", "The pattern has unsaved changes. Save them?",
            QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Discard | QMessageBox.StandardButton.Cancel,
            QMessageBox.StandardButton.Save)
        if r == QMessageBox.StandardButton.Save:
            return self.save()
        return r == QMessageBox.StandardButton.Discard

    def new_file(self) -> None:
        if self.maybe_save():
            self.document.set_pattern(new_pattern())

    def open_dialog(self) -> None:
        if not self.maybe_save():
            return
        start = str(self.document.path.parent) if self.document.path else str(resources.EXAMPLES)
        path, _ = QFileDialog.getOpenFileName(
            self, "Open pattern", start,
            "Pattern files (*.json);;Traces (*.jsonl);;CUDA kernels (*.cu *.cuh);;"
            "CUDA binaries (*.cubin *.fatbin *.so *.exe);;Triton kernels (*.py, cache entries *.cubin);;All files (*)")
        if path:
            self.open_path(path, ask=False)

    def open_trace_dialog(self) -> None:
        start = str(self.document.path.parent) if self.document.path else str(Path.home())
        path, _ = QFileDialog.getOpenFileName(self, "Open trace", start,
                                              "Traces (*.jsonl);;Pattern files of explicit addresses (*.json)")
        if path:
            self.open_trace(path)

    def open_trace(self, path: str | Path) -> None:
        """Load and analyze a big trace on a worker thread; the window stays live (see TracePanel)."""
        dock = self.docks["trace"]
        if dock.isHidden():
            dock.show()
            QTimer.singleShot(0, self._give_trace_room)  # once the window is laid out
        dock.raise_()
        self.trace.open(path)

    def _give_trace_room(self) -> None:
        """Half the left column for the trace list (its rows are what a trace is read by)."""
        docks = [self.docks[k] for k in ("editor", "instructions", "trace")]
        h = sum(d.height() for d in docks)
        if h > 0:
            self.resizeDocks(docks, [int(h * 0.36), int(h * 0.14), int(h * 0.5)], Qt.Orientation.Vertical)
        want = self.trace.table.horizontalHeader().length() + 40  # every column in view
        if docks[2].width() < want:
            self.resizeDocks([docks[2]], [min(want, int(self.width() * 0.3))], Qt.Orientation.Horizontal)

    def _show_trace_instruction(self, k: int) -> None:
        """The selected trace instruction, in every view (a one-instruction pattern)."""
        if self.trace.data is None:
            return
        if not self.maybe_save():
            return
        self.document.set_pattern(self.trace.data.pattern_of(k))

    def open_path(self, path: str | Path, ask: bool = True) -> bool:
        """Load a pattern file; a bad file is reported in a message and the document stays. A trace
        (``.jsonl``, or a pattern file too big for the editor) opens in the trace list."""
        if is_trace_file(path):
            self.open_trace(path)
            return True
        from ..kernels import is_triton_file

        if is_triton_file(str(path)):  # a Triton kernel: its .py, or a cache entry's .cubin
            from .triton_dialog import open_triton

            self.triton_dialog = open_triton(self, str(path))
            return True
        if is_cuda_file(path):
            return self.open_cuda(path)
        if ask and not self.maybe_save():
            return False
        try:
            pat = patternfile.load(path)
        except BankExplorerError as e:
            if _too_big_for_editor(e):  # a trace saved as a pattern file: the trace list takes it
                self.open_trace(path)
                return True
            self.statusBar().showMessage(f"Cannot open: {e}", 10000)
            QMessageBox.warning(self, "Cannot open pattern", str(e))
            return False
        is_example = Path(path).resolve().parent == resources.EXAMPLES.resolve()
        self.document.set_pattern(pat, None if is_example else path)
        if not is_example:
            self._add_recent(str(Path(path).resolve()))
        self.statusBar().showMessage(f"Opened {Path(path).name}", 4000)
        return True

    def open_cuda(self, path: str | Path) -> bool:
        """A kernel source opens in Tools > Import CUDA with its text (its import into the window
        is one undoable edit there, so nothing is asked here)."""
        from .tools.cuda_import import open_dialog

        try:
            open_dialog(self, str(path))
        except OSError as e:
            self.statusBar().showMessage(f"Cannot open {Path(path).name}: {e.strerror or e}", 10000)
            QMessageBox.warning(self, "Cannot open kernel", f"{path}: {e.strerror or e}")
            return False
        self.statusBar().showMessage(f"Opened {Path(path).name} in Import CUDA", 4000)
        return True

    def save(self) -> bool:
        if self.document.path is None:
            return self.save_as()
        return self._save_to(self.document.path)

    def save_as(self) -> bool:
        start = str(self.document.path or Path.home() / f"{self.document.pattern.name.replace(' ', '_')}.json")
        path, _ = QFileDialog.getSaveFileName(self, "Save pattern", start, "Pattern files (*.json)")
        if not path:
            return False
        if not path.endswith(".json"):
            path += ".json"
        return self._save_to(Path(path))

    def _save_to(self, path: Path) -> bool:
        try:
            patternfile.save(self.document.pattern, path)
        except OSError as e:
            QMessageBox.warning(self, "Cannot save", f"{path}: {e.strerror or e}")
            return False
        self.document.mark_saved(path)
        self._add_recent(str(Path(path).resolve()))
        self.statusBar().showMessage(f"Saved {path}", 4000)
        return True

    def recent_files(self) -> list[str]:
        v = self.settings.value("recent", [])
        if isinstance(v, str):
            v = [v]
        return [str(x) for x in (v or [])]

    def _add_recent(self, path: str) -> None:
        lst = [p for p in self.recent_files() if p != path]
        lst.insert(0, path)
        self.settings.setValue("recent", lst[:MAX_RECENT])
        self._fill_recent()

    def _fill_recent(self) -> None:
        m = self.menus["recent"]
        m.clear()
        files = self.recent_files()
        for p in files:
            self._action(m, p, lambda _=False, p=p: self.open_path(p))
        m.setEnabled(bool(files))

    def dragEnterEvent(self, ev) -> None:  # noqa: N802
        if ev.mimeData().hasUrls():
            ev.acceptProposedAction()

    def dropEvent(self, ev) -> None:  # noqa: N802
        urls = [u for u in ev.mimeData().urls() if u.isLocalFile()]
        if urls:
            ev.acceptProposedAction()
            self.open_path(urls[0].toLocalFile())

    # ---- the instruction table and the status bar ------------------------------------------
    def _setup_instruction_table(self) -> None:
        """The full title and the instruction's note as tooltips, a warning icon on instructions that have a note;
        the selected instruction's note also stays in the status bar."""
        self._note_icon = self.style().standardIcon(QStyle.StandardPixmap.SP_MessageBoxWarning)
        self.note_status = ElidedLabel()
        self.note_status.setStyleSheet("color:#805000;")
        self.statusBar().addPermanentWidget(self.note_status)
        # connected after the list's own refresh, so this runs on the rows it has just filled;
        # should the list ever fill its rows later (a deferred refresh), a change to the table's
        # rows decorates them again once the event loop is back
        self.document.analysisChanged.connect(self._decorate_instruction_table)
        self._decorating = False
        self._decorate_timer = QTimer(self)
        self._decorate_timer.setSingleShot(True)
        self._decorate_timer.timeout.connect(self._decorate_instruction_table)
        model = self.instructions.table.model()
        for sig in (model.rowsInserted, model.modelReset):
            sig.connect(self._queue_decorate)
        model.dataChanged.connect(self._table_data_changed)
        self.document.selectionChanged.connect(self._show_selected_note)
        self._decorate_instruction_table()

    def _queue_decorate(self, *_) -> None:
        try:
            self._decorate_timer.start(0)
        except RuntimeError:  # the window is being torn down (its timer went first)
            pass

    def instruction_note(self, k: int) -> str:
        """The engine's note for instruction ``k`` ("" when none or nothing analyzed)."""
        an = self.document.analysis
        if an is None or not 0 <= k < len(an.pattern.instructions):
            return ""
        return an.note(k)

    def _table_data_changed(self, top_left, *_) -> None:
        if not self._decorating and top_left.column() <= 1:
            self._queue_decorate()

    def _decorate_instruction_table(self) -> None:
        self._decorating = True
        try:
            self._decorate_rows()
        finally:
            self._decorating = False
        self._show_selected_note()

    def _decorate_rows(self) -> None:
        table = self.instructions.table
        an = self.document.analysis
        for k, ins in enumerate(self.document.pattern.instructions):
            it = table.item(k, 1)
            if it is None:
                continue
            note = self.instruction_note(k)
            error = an.instruction_errors.get(k, "") if an is not None else ""
            tip = instruction_tooltip(ins.title(), error, note)
            if it.toolTip() != tip:
                it.setToolTip(tip)
            if it.icon().isNull() == bool(note):
                it.setIcon(self._note_icon if note else QIcon())

    def _show_selected_note(self) -> None:
        k = self.document.selection.instruction
        note = self.instruction_note(k)
        text = f"⚠ #{k}: {note}" if note else ""
        if text != self.note_status.text():  # a change re-lays out the status bar and the window
            self.note_status.setText(text)
            self.note_status.setToolTip(note)
            self.note_status.updateGeometry()

    # ---- state -------------------------------------------------------------------------------
    def _show_errors(self) -> None:
        if self.document.errors:
            p, m = self.document.errors[0]
            self.statusBar().showMessage(f"Not applied — {p + ': ' if p else ''}{m}", 8000)

    def _restore_geometry(self) -> None:
        """Geometry and dock layout of the last session; a fresh start (or a layout saved by an
        older version) gets :meth:`apply_default_layout` once the window has its size."""
        g = self.settings.value("geometry")
        refit = False
        if isinstance(g, (QByteArray, bytes)):
            self.restoreGeometry(g)
            # saved on a larger screen: this screen's work area, and the docks laid out for it
            refit = fit_restored(self, self.settings.value("screenArea"))
        else:
            place_main_window(self, QSize(1600, 1000))
        s = self.settings.value("windowState")
        if isinstance(s, (QByteArray, bytes)) and self.restoreState(s, LAYOUT_VERSION) and not refit:
            self._layout_pending = False

    def default_dock_sizes(self, w: int, h: int) -> dict[str, int]:
        """Dock sizes (pixels) that keep every view legible in a ``w`` x ``h`` window: the banks
        and matrix column wide enough for 32 banks of readable cells, the editor as wide as its
        labels and fields, the tile the rest."""
        left = max(290, min(340, int(0.21 * w)))
        right = max(380, min(560, int(0.31 * w)))
        # the timeline's view, its replay bar and title; the summary's table and arrays in full
        bottom = max(290, min(340, int(0.33 * h)))
        return {"left": left, "right": right, "bottom": bottom,
                "instructions": max(170, int(0.26 * h)), "banks": max(260, int(0.45 * (h - 60))),
                "summary": max(300, min(380, int(0.4 * (w - left - right))))}

    def apply_default_layout(self) -> None:
        """Show every core dock where the default layout puts it, sized for the window's size."""
        for name, d in self.docks.items():
            if name in ("editor", "instructions", "banks", "matrix", "timeline", "summary"):
                if d.isFloating():  # (re-docking one that is docked re-lays out the window for nothing)
                    d.setFloating(False)
                d.show()
        z = self.default_dock_sizes(self.width(), self.height())
        H = Qt.Orientation.Horizontal
        V = Qt.Orientation.Vertical
        self.resizeDocks([self.docks["editor"], self.docks["banks"]], [z["left"], z["right"]], H)
        self.resizeDocks([self.docks["timeline"]], [z["bottom"]], V)
        self.resizeDocks([self.docks["summary"]], [z["summary"]], H)
        rest = self.height() - 60
        self.resizeDocks([self.docks["instructions"], self.docks["editor"]],
                         [z["instructions"], rest - z["instructions"]], V)
        self.resizeDocks([self.docks["banks"], self.docks["matrix"]], [z["banks"], rest - z["banks"]], V)
        self._layout_pending = False

    def showEvent(self, ev) -> None:  # noqa: N802 - Qt's name
        super().showEvent(ev)
        if self._layout_pending:
            self.apply_default_layout()
            QTimer.singleShot(0, self.apply_default_layout)  # again once the layout is settled

    def save_settings(self) -> None:
        self.settings.setValue("geometry", self.saveGeometry())
        self.settings.setValue("screenArea", area_value(self))
        self.settings.setValue("windowState", self.saveState(LAYOUT_VERSION))
        self.settings.sync()

    def closeEvent(self, ev: QCloseEvent) -> None:  # noqa: N802
        if not self.maybe_save():
            ev.ignore()
            return
        if self.docks["trace"].built:
            self.trace.shutdown()
        self.save_settings()
        if self in MainWindow.instances:
            MainWindow.instances.remove(self)
        ev.accept()

    def fit_views(self) -> None:
        """Zoom every view back to its fitted range (View > Fit Views, Ctrl+0)."""
        for v in self.views:
            v.fit(force=True)

    def refresh_now(self, pending_only: bool = False) -> None:
        """Draw every view for the current state immediately (tests, benchmarks, screenshots);
        with ``pending_only``, just the views with a redraw still queued."""
        for v in [*self.views, self.summary]:
            if not pending_only or v._pending:
                v.refresh()


# ---- the exception hook ----------------------------------------------------------------------
def install_excepthook(window_getter: Callable[[], MainWindow | None]) -> None:
    """An unexpected error becomes a message; the document stays as it was (edits are
    all-or-nothing values, so there is nothing half-done to repair)."""
    previous = sys.excepthook

    def hook(etype, value, tb):
        text = "".join(traceback.format_exception(etype, value, tb))
        sys.stderr.write(text)
        w = window_getter()
        if w is None or etype is KeyboardInterrupt:
            previous(etype, value, tb)
            return
        w.statusBar().showMessage(f"Internal error: {etype.__name__}: {value}", 15000)
        box = QMessageBox(QMessageBox.Icon.Warning, "Unexpected error",
                          f"{etype.__name__}: {value}\n\nThe pattern was not changed.", parent=w)
        box.setDetailedText(text)
        box.setModal(False)
        box.show()

    sys.excepthook = hook


def _screenshot_then_quit(win: MainWindow, path: str, t0: float) -> None:
    """``BANKEXPLORER_SCREENSHOT=path``: save the window as it is on screen once it is drawn and
    quit; used by the CI smoke test under Xvfb and to make the README screenshots."""
    app = QApplication.instance()
    try:
        _save_screenshot(win, path, t0)
    except Exception as e:  # noqa: BLE001 - whatever happens, a screenshot run must end
        try:
            sys.stderr.write(f"screenshot failed: {type(e).__name__}: {e}\n")
        except OSError:  # stderr is gone too (a closed pipe): still end
            pass
        app.exit(1)


def _save_screenshot(win: MainWindow, path: str, t0: float) -> None:
    app = QApplication.instance()
    dlg = win.tools["cuda_import"].dialog
    if dlg is not None:  # a .cu file opened in Import CUDA: its compiled view, then the picture
        dlg.wait_compiled()
    win.refresh_now(pending_only=True)
    app.processEvents()
    screen = win.screen() or app.primaryScreen()
    pix = screen.grabWindow(win.winId()) if os.environ.get("BANKEXPLORER_GRAB", "screen") == "screen" else win.grab()
    if pix.isNull() or pix.width() < 10:
        pix = win.grab()
    painted = time.perf_counter() - t0
    # the start as a user sees it ends here; writing the PNG is the screenshot's own cost
    sys.stdout.write(f"painted after={painted:.3f}s\n")
    sys.stdout.flush()
    ok = pix.save(path)
    sys.stdout.write(f"screenshot {path} {pix.width()}x{pix.height()} title={win.windowTitle()!r} "
                     f"painted_after={painted:.3f}s saved={ok}\n")
    # where each view is in the image, so a checker can look at the views and not the chrome
    ratio = pix.width() / max(win.width(), 1)
    rects = {}
    for name, v in (("tile", win.tile), ("banks", win.banks), ("matrix", win.matrix), ("timeline", win.timeline),
                    ("summary", win.summary)):
        if v.isVisible():
            tl = v.mapTo(win, v.rect().topLeft())
            rects[name] = [round(tl.x() * ratio), round(tl.y() * ratio), round(v.width() * ratio),
                           round(v.height() * ratio)]
    sys.stdout.write("views " + json.dumps(rects) + "\n")
    shown = [w.windowTitle() for w in app.topLevelWidgets() if w.isVisible() and w is not win and w.windowTitle()]
    sys.stdout.write("windows " + json.dumps(shown) + "\n")  # dialogs open beside the window
    sys.stdout.flush()
    app.exit(0 if ok else 1)


def run_app(path: str | None) -> int:
    t0 = time.perf_counter()
    trace_path = path if path and is_trace_file(path) else None
    cuda_path = path if path and is_cuda_file(path) else None
    if cuda_path and not Path(cuda_path).is_file():
        raise BankExplorerError(f"{cuda_path}: no such file")
    # a bad pattern file: one line from the CLI, exit 2 (before Qt: also where there is no display)
    pat = patternfile.load(path) if path and not trace_path and not cuda_path else None
    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setOrganizationName(ORG)
    app.setApplicationName(APP)
    win = MainWindow(pattern=pat)
    install_excepthook(lambda: win)
    if pat is not None:
        win.document.set_pattern(pat, path)
        win._add_recent(str(Path(path).resolve()))
    else:
        win.open_path(resources.EXAMPLES / DEFAULT_EXAMPLE, ask=False)
    if trace_path:
        collector_on()  # before the loader's thread starts: it pauses the collector itself while it parses
        win.open_trace(trace_path)
    if cuda_path:
        win.open_cuda(cuda_path)
    pick = os.environ.get("BANKEXPLORER_INSTRUCTION", "")  # screenshots: which instruction to show
    if pick.isdigit():
        win.document.select(instruction=int(pick))
    shot = os.environ.get("BANKEXPLORER_SCREENSHOT")
    size = os.environ.get("BANKEXPLORER_SIZE")
    if size:
        w, h = (int(x) for x in size.lower().split("x"))
        win.resize(w, h)
    win.show()
    collector_on()  # off since the program started (see startup.py)
    before = os.environ.get("BANKEXPLORER_BEFORE")  # screenshots: FILE as the Before of a comparison
    if before and "snapshot_compare" in win.tools:
        win.tools["snapshot_compare"].snap.set(patternfile.load(before))
        win.tools["snapshot_compare"].show()
    if shot:
        QTimer.singleShot(int(os.environ.get("BANKEXPLORER_SCREENSHOT_DELAY_MS", "300")),
                          lambda: _screenshot_then_quit(win, shot, t0))
    rc = app.exec()
    dlg = win.tools["cuda_import"].dialog
    if dlg is not None:  # its compile runs on a thread in NVRTC: let it end before Python does
        dlg.wait_compiled()
    # the window goes while Qt is whole: left to the interpreter's exit, its widgets were freed in
    # whatever order Python's objects went, and the process could crash on its way out
    win.deleteLater()
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    return rc
