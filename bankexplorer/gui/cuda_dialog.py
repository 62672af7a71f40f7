"""The Import CUDA dialog (Tools > Import CUDA..., installed by :mod:`.tools.cuda_import`).

Paste or open a kernel; it is compiled and one block of it executed on the CPU while you type, and
its shared-memory cost shown per source line; import it into the window as one undoable edit.

The code is on the left (line numbers; the worst line red; compile errors underlined; lines whose
addresses depend on data or on timing marked in the gutter). On the right: the launch (block size,
block index, grid, architecture, and a row per kernel parameter: a pointer gets a ``.npy`` file,
"zero-filled" until one is attached; a scalar gets a value), then the per-line view
(:class:`~bankexplorer.gui.line_tree.LineTree`: executed warp instructions, threads, wavefronts
vs ideal, worst lines first, each line's SASS under it) and the run's notes.

A whole kernel (a ``__global__`` function) goes through :func:`bankexplorer.kernels.cuda_source.emulate` and
:func:`bankexplorer.sass.to_pattern.kernel_pattern` on a worker thread
(:class:`~bankexplorer.gui.kernel_runner.KernelRunner`): edits are debounced, and a result for a
text or launch that has changed since is dropped. A few lines with no ``__global__`` function are
read as written by :func:`bankexplorer.cudaimport.import_cuda` (nothing to compile). Without the
compiler the window says in one line how to get it.

Clicking a line selects its code and, once imported, its instructions in every view of the window.
"""

from __future__ import annotations

import os
import re
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
from PySide6.QtCore import QSize, Qt, QTimer, Signal
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QComboBox, QDialog, QFileDialog, QGridLayout, QHBoxLayout, QLabel, QLineEdit, QListWidget, QListWidgetItem,
    QPushButton, QSizePolicy, QSplitter, QToolButton, QVBoxLayout, QWidget,
)

from ..compiler import nvrtc
from ..cudaimport.includes import file_beside
from ..model.pattern import MAX_THREADS
from ..resources import EXAMPLES
from ..sass import limits
from ..sass.line_totals import LineStat, SassStat, by_line, instruction_lines, stats_from_run
from .document import Document, KernelLaunch
from .code_editor import SEVERITY_COLOR, WORST_MARK, CodeEditor, Problem
from .line_tree import LineTree
from .kernel_runner import KernelRunner, Launch, Outcome
from .scroll_bar import flat_scroll_bars
from .screen_fit import dialog_size, work_area

if TYPE_CHECKING:
    from .tools.host import ToolHost

#: pause after the last keystroke before compiling and running again
DEBOUNCE_MS = 400
PRINTF_NOTES = 50  # printf lines the notes show
PROGRESS_MS = 250  # how often a running kernel's count of executed warp instructions is shown
CUDA_EXAMPLES = EXAMPLES / "cuda"
#: a pointer parameter's buffer (what ``sass.launch`` gives each): an attached array must fit
MAX_ARRAY_BYTES = 16 << 20

GOOD = QColor(30, 130, 60)
GREY = "#6a6a6a"

STARTER = """\
// Paste or open a kernel: it is compiled and one block executed on the CPU as you type.
// The block size comes from a '// block: 32, 8' comment, a launch, or the Block box.
#define TILE 32

__global__ void transpose(float *out, const float *in)
{
    __shared__ float tile[TILE][TILE];
    int x = threadIdx.x, y = threadIdx.y;
    for (int j = 0; j < TILE; j += 8)
        tile[y + j][x] = in[(y + j) * TILE + x];
    __syncthreads();
    for (int j = 0; j < TILE; j += 8)
        out[(y + j) * TILE + x] = tile[x][y + j];
}

void launch(float *out, const float *in)
{
    transpose<<<1, dim3(32, 8)>>>(out, in);
}
"""


def kernel_name(text: str) -> str | None:
    """The first ``__global__`` function's name (the one a run executes unless told)."""
    from ..kernels.cuda_source import kernel_names

    names = kernel_names(text)
    return names[0] if names else None


def parse_dims(text: str, what: str) -> tuple[int, int, int]:
    """A Block, Block index or Grid box's text as (x, y, z) within CUDA's limits
    (:func:`bankexplorer.sass.limits.parse_dims`); ValueError naming the box otherwise."""
    try:
        return limits.parse_dims(text, what)
    except ValueError as e:
        raise ValueError(f"{what} {text!r}: {e}") from None


def parse_number(text: str) -> int | float:
    t = text.strip().replace("_", "")
    try:
        return int(t, 0)
    except ValueError:
        return float(t)


def input_lines(text: str) -> dict[str, str]:
    """The ``// input: NAME = FILE.npy`` lines of a kernel: the data it was measured with."""
    return dict(re.findall(r"//\s*input:\s*(\w+)\s*=\s*(\S+)", text))


def load_npy(path: str) -> bytes:
    """The bytes an attached ``.npy`` array fills its buffer with (no pickles; C order)."""
    if os.path.getsize(path) > MAX_ARRAY_BYTES + 4096:
        raise ValueError(f"{Path(path).name} is larger than a parameter's {MAX_ARRAY_BYTES >> 20} MiB buffer")
    arr = np.load(path, allow_pickle=False)
    if not isinstance(arr, np.ndarray):
        raise ValueError(f"{Path(path).name} holds several arrays (.npz): save one array with numpy.save")
    data = np.ascontiguousarray(arr).tobytes()
    if len(data) > MAX_ARRAY_BYTES:
        raise ValueError(f"{Path(path).name}: {len(data):,} bytes do not fit a parameter's {MAX_ARRAY_BYTES >> 20} MiB "
                         f"buffer")
    return data


class ParamRow:
    """The widgets of one kernel parameter in the launch grid."""

    def __init__(self, dialog: "CudaImportDialog", name: str, ctype: str, pointer: bool):
        self.name, self.ctype, self.pointer = name, ctype, pointer
        self.label = QLabel(f"<code>{ctype} <b>{name}</b></code>")
        self.label.setTextFormat(Qt.TextFormat.RichText)
        self.widgets: list[QWidget] = [self.label]
        if pointer:
            self.data: bytes | None = None
            self.file: str = ""
            self.state = QLabel()
            self.state.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            self.attach = QPushButton("Attach .npy…")
            self.attach.setToolTip(f"Fill {name}'s buffer from the start with a numpy array (.npy, no pickles); "
                                   f"the rest of its 16 MiB stays zero")
            self.attach.clicked.connect(lambda: dialog.choose_array(name))
            self.detach = QToolButton()
            self.detach.setText("×")
            self.detach.setToolTip(f"Detach: {name} zero-filled again")
            self.detach.clicked.connect(lambda: dialog.detach(name))
            self.widgets += [self.state, self.attach, self.detach]
            self.show_state()
        else:
            self.edit = QLineEdit()
            self.edit.setPlaceholderText("64")
            self.edit.setToolTip(f"The value of {name} at launch (empty: 64, as the measurements' launcher gives "
                                 f"every scalar)")
            self.edit.textChanged.connect(dialog._changed)
            self.widgets.append(self.edit)

    def show_state(self, origin: str = "") -> None:
        if self.data is None:
            self.state.setText(f"<i style='color:{GREY}'>zero-filled</i>")
            self.state.setToolTip(f"{self.name} points to 16 MiB of zeros: attach the data it is meant to read")
            self.detach.setEnabled(False)
        else:
            self.state.setText(f"{self.file} <span style='color:{GREY}'>({len(self.data):,} B{origin})</span>")
            self.state.setToolTip(f"{self.name} starts with the bytes of {self.file}")
            self.detach.setEnabled(True)

    def value(self) -> int | float | None:
        t = self.edit.text().strip()
        return parse_number(t) if t else None


# ---- the dialog ----------------------------------------------------------------------------------------
class CudaImportDialog(QDialog):
    """``analysisUpdated`` is emitted after every result shown (a run, a failed run, a snippet)."""

    analysisUpdated = Signal()

    def __init__(self, document: Document, parent: QWidget | None = None):
        super().__init__(parent)
        self.document = document
        self.binary: bytes | None = None  # a binary opened (set_binary): it runs, the text is its source
        self.setWindowTitle("Import CUDA")
        self.setWindowFlag(Qt.WindowType.Window, True)
        self.name = "Imported CUDA"
        self.path: str | None = None  # the kernel's file, when it came from one
        self.outcome: Outcome | None = None  # the result shown
        self.stats: list[LineStat] = []
        self._stats_text: str | None = None  # the text ``stats`` and the code's marks belong to
        self.snippet = None  # an ImportResult, for a snippet read as written
        self.state = "idle"  # idle | running | done | failed | unavailable | snippet | invalid
        self.params: dict[str, ParamRow] = {}
        self._param_key: tuple = ()
        self._expect = -1  # the generation whose result is wanted
        self._launch: Launch | None = None
        self.imported_kernel = None  # the KernelSource this dialog last put in the document
        self._detached: set[str] = set()  # detached by hand: its // input: line does not attach it again
        self.runner = KernelRunner(self)
        self.runner.finished.connect(self._finished)

        # ---- top row
        self.examples = QComboBox()
        self.examples.addItem("Examples…", None)
        for path in sorted(CUDA_EXAMPLES.glob("*.cu")):
            self.examples.addItem(path.stem.replace("_", " "), str(path))
        self.examples.activated.connect(self._load_example)
        self.open_button = QPushButton("Open…")
        self.open_button.setToolTip("Open a .cu file (its // input: lines attach the arrays beside it)")
        self.open_button.clicked.connect(self._open_file)
        self.arch_combo = QComboBox()
        for a in nvrtc.ARCHITECTURES:
            self.arch_combo.addItem(a if a in nvrtc.MEASURED_ARCHITECTURES else f"{a} (not measured)", a)
        self.arch_combo.setCurrentIndex(nvrtc.ARCHITECTURES.index(nvrtc.DEFAULT_ARCH))
        self.arch_combo.setToolTip("Architecture to compile for. The bank rules were measured on sm_90 (H100).")
        self.arch_combo.currentIndexChanged.connect(self._changed)
        top = QHBoxLayout()
        top.addWidget(self.examples)
        top.addWidget(self.open_button)
        top.addStretch(1)
        top.addWidget(QLabel("Compile for"))
        top.addWidget(self.arch_combo)

        # ---- left: the code
        self.editor = CodeEditor()
        self.editor.setPlaceholderText("Paste a CUDA kernel here")

        # ---- right: launch, per-line view, notes
        self.block_edit = QLineEdit()
        self.block_edit.setPlaceholderText("auto")
        self.block_edit.setToolTip("Threads per block: x[,y[,z]]. Empty: a '// block: x, y' comment, a "
                                   "<<<grid, block>>> launch or __launch_bounds__ in the code, else 32.")
        self.block_origin = QLabel()
        self.block_origin.setStyleSheet(f"color:{GREY}")
        self.index_edit = QLineEdit()
        self.index_edit.setPlaceholderText("0,0,0")
        self.index_edit.setToolTip("Which block to execute: blockIdx x[,y[,z]] (one block is executed)")
        self.grid_edit = QLineEdit()
        self.grid_edit.setPlaceholderText("auto")
        self.grid_edit.setToolTip("gridDim x[,y[,z]] (empty: one block more than the block index in each dimension)")
        self.extern_edit = QLineEdit()
        self.extern_edit.setPlaceholderText("auto")
        self.extern_edit.setToolTip("Bytes of dynamic shared memory for 'extern __shared__' arrays. Empty: a "
                                    "'// extern-size: N' comment or the launch's third argument, else 48 KiB.")
        for e in (self.block_edit, self.index_edit, self.grid_edit, self.extern_edit):
            e.setMinimumWidth(70)
            e.textChanged.connect(self._changed)
        launch = QGridLayout()
        launch.setHorizontalSpacing(6)
        launch.setVerticalSpacing(3)
        launch.addWidget(QLabel("Block"), 0, 0)
        launch.addWidget(self.block_edit, 0, 1)
        launch.addWidget(QLabel("Block index"), 0, 2)
        launch.addWidget(self.index_edit, 0, 3)
        launch.addWidget(QLabel("Grid"), 0, 4)
        launch.addWidget(self.grid_edit, 0, 5)
        launch.addWidget(QLabel("extern bytes"), 0, 6)
        launch.addWidget(self.extern_edit, 0, 7)
        launch.addWidget(self.block_origin, 1, 1, 1, 7)
        self.params_box = QWidget()
        self.params_grid = QGridLayout(self.params_box)
        self.params_grid.setContentsMargins(0, 0, 0, 0)
        self.params_grid.setHorizontalSpacing(8)
        self.params_grid.setVerticalSpacing(2)
        self.params_title = QLabel("<b>Parameters</b>")

        self.hint = QLabel(nvrtc.INSTALL_HINT)
        self.hint.setStyleSheet("color:#a05000;")
        self.hint.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.hint.setVisible(False)
        self.summary = QLabel()
        self.summary.setWordWrap(True)
        self.summary.setTextFormat(Qt.TextFormat.RichText)
        self.summary.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.summary.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Minimum)
        self.lines = LineTree()
        self.lines.linePicked.connect(self._line_picked)
        self.lines.sassPicked.connect(self._sass_picked)
        self.notes_label = QLabel("Notes")
        self.notes = QListWidget()
        flat_scroll_bars(self.notes)
        self.notes.setWordWrap(True)
        self.notes.setMaximumHeight(120)
        self.notes.itemClicked.connect(self._go_to_note)

        self.import_button = QPushButton("Import into window")
        self.import_button.setDefault(True)
        self.import_button.setToolTip("Replace the window's pattern with this kernel's shared-memory instructions as "
                                      "executed (Edit > Undo brings the old one back)")
        self.import_button.clicked.connect(self.import_into_document)
        close = QPushButton("Close")
        close.clicked.connect(self.close)
        self.stop_button = QPushButton("Stop")
        self.stop_button.setToolTip("Stop executing this kernel (an endless loop would run on to the "
                                    "emulator's budget of warp instructions: minutes)")
        self.stop_button.clicked.connect(self.stop)
        self.stop_button.setVisible(False)
        self.go_on_button = QPushButton("Go on")
        self.go_on_button.setToolTip("Let the kernel execute for as long again (it waits where it is)")
        self.go_on_button.clicked.connect(self.go_on)
        self.go_on_button.setVisible(False)
        self.status = QLabel()
        self.status.setWordWrap(True)
        buttons = QHBoxLayout()
        buttons.addWidget(self.status, 1)
        buttons.addWidget(self.go_on_button)
        buttons.addWidget(self.stop_button)
        buttons.addWidget(self.import_button)
        buttons.addWidget(close)

        right = QWidget()
        rv = QVBoxLayout(right)
        rv.setContentsMargins(0, 0, 0, 0)
        rv.setSpacing(4)
        rv.addLayout(launch)
        rv.addWidget(self.params_title)
        rv.addWidget(self.params_box)
        rv.addWidget(self.hint)
        rv.addWidget(self.summary)
        rv.addWidget(self.lines, 1)
        rv.addWidget(self.notes_label)
        rv.addWidget(self.notes)

        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(self.editor)
        split.addWidget(right)
        split.setStretchFactor(0, 1)
        split.setStretchFactor(1, 1)
        split.setChildrenCollapsible(False)
        self.splitter = split
        self._sized = False
        outer = QVBoxLayout(self)
        outer.addLayout(top)
        outer.addWidget(split, 1)
        outer.addLayout(buttons)
        self.resize(dialog_size(work_area(self), QSize(1500, 860)))

        self.timer = QTimer(self)
        self.timer.setSingleShot(True)
        self.timer.setInterval(DEBOUNCE_MS)
        self.timer.timeout.connect(self.refresh)
        self.progress_timer = QTimer(self)  # while a kernel runs: how far it got
        self.progress_timer.setInterval(PROGRESS_MS)
        self.progress_timer.timeout.connect(self._fill_progress)
        self.editor.textChanged.connect(self._changed)
        self.editor.cursorPositionChanged.connect(self._cursor_moved)
        self.document.selectionChanged.connect(self._document_selection)
        self.editor.setPlainText(STARTER)
        self.refresh()

    def showEvent(self, event) -> None:  # noqa: N802 - Qt's name
        super().showEvent(event)
        if not self._sized:  # code 2/5, launch and lines 3/5 of the width
            self._sized = True
            w = max(self.splitter.width(), 600)
            self.splitter.setSizes([w * 2 // 5, w - w * 2 // 5])

    # ---- the text and the launch ----------------------------------------------------------------
    def set_binary(self, path: str) -> None:
        """Open a binary (a cubin, a fatbin, an executable, a shared library) and run its sm_90
        kernel; the code shows the kernel's source when it lies beside the binary (read-only: the
        binary is what runs), else what the binary says of the kernel."""
        from ..kernels.binary import from_binary, read_file

        data = read_file(path)
        k = from_binary(data, None, path)  # a message (no sm_90 code...) goes to the caller
        text = k.source_text if k.source_text is not None else (
            f"// {Path(path).name}: a {k.origin} (its source {k.line_file or ''} is not beside it)\n"
            f"// kernel {k.signature or k.name}\n")
        self.set_text(text, Path(path).stem, path, data)

    def set_text(self, text: str, name: str | None = None, path: str | None = None,
                 binary: bytes | None = None) -> None:
        """Show ``text`` (a kernel opened from ``path``, an example) and run it now (``binary``:
        the binary ``text`` is the source of, which is what runs)."""
        self.binary = binary
        self.editor.setReadOnly(binary is not None)
        self.path = path
        self.name = name or (Path(path).stem if path else self.name)
        for row in self.params.values():  # another kernel: its own data
            if row.pointer:
                row.data, row.file = None, ""
        self._detached = set()
        self.forget_results()
        self.editor.setPlainText(text)
        self.refresh()

    def forget_results(self) -> None:
        """Another kernel's text comes in: the last one's rows, notes and marks go now, not when
        the new run ends (they were drawn under the new text's line numbers while it ran)."""
        self.outcome, self.snippet, self.stats, self._stats_text = None, None, [], None
        self.editor.set_marks(None, [], {})
        self.lines.set_stats([])
        self.notes.clear()

    def _changed(self, *_) -> None:
        self.status.setText("")
        self.runner.cancel()  # whatever runs now is for the text before this edit
        self._expect = -1
        self.timer.start()

    def launch(self) -> Launch:
        """The launch the fields describe (ValueError with what to fix)."""
        from ..sass.launch import text_settings

        text = self.editor.toPlainText()
        settings = text_settings(text)
        if self.block_edit.text().strip():
            block, origin = parse_dims(self.block_edit.text(), "block"), "given"
        elif "block" in settings:
            block, origin = settings["block"]
        else:
            block, origin = (32, 1, 1), "default"
        if int(np.prod(block)) > MAX_THREADS:
            raise ValueError(f"block {'x'.join(map(str, block))}: {int(np.prod(block)):,} threads is more than a block "
                             f"can have ({MAX_THREADS})")
        index = parse_dims(self.index_edit.text(), "block index") if self.index_edit.text().strip() else (0, 0, 0)
        grid = parse_dims(self.grid_edit.text(), "grid") if self.grid_edit.text().strip() else None
        if grid is not None and any(i >= g for i, g in zip(index, grid)):
            raise ValueError(f"block index {index} is outside the grid {grid}")
        ext = self.extern_edit.text().strip().replace("_", "").replace(",", "")
        extern = None
        if ext:
            if not ext.isdigit() or int(ext) > 227 << 10:
                raise ValueError(f"extern bytes {ext!r}: write a number of bytes up to 232,448 (227 KiB)")
            extern = int(ext)
        elif "extern-size" in settings:
            extern = int(settings["extern-size"][0])
        scalars, arrays, inputs = {}, {}, {}
        for name, row in self.params.items():
            if row.pointer:
                if row.data is not None:
                    arrays[name], inputs[name] = row.data, row.file
            else:
                try:
                    v = row.value()
                except ValueError:
                    raise ValueError(f"{name}: {row.edit.text()!r} is not a number") from None
                if v is not None:
                    scalars[name] = v
        return Launch(text, self.name, tuple(block), tuple(index), grid, tuple(sorted(scalars.items())),
                      tuple(sorted(arrays.items())), tuple(sorted(inputs.items())), self.arch_combo.currentData(),
                      self.path, extern, origin, self.binary)

    def _sync_params(self, text: str, name: str | None) -> None:
        """One row per parameter of the kernel (values and attached data kept by name)."""
        from ..sass.launch import kernel_params

        decls = kernel_params(text, name) if name else None
        key = tuple((d.name, d.type, d.pointer) for d in decls or ())
        if key != self._param_key:
            self._param_key = key
            old = self.params
            while self.params_grid.count():
                w = self.params_grid.takeAt(0).widget()
                if w is not None:
                    w.setParent(None)
            self.params = {}
            for r, d in enumerate(decls or ()):
                row = ParamRow(self, d.name, d.type, d.pointer)
                prev = old.get(d.name)
                if prev is not None and prev.pointer == d.pointer:
                    if d.pointer:
                        row.data, row.file = prev.data, prev.file
                        row.show_state()
                    else:
                        row.edit.blockSignals(True)
                        row.edit.setText(prev.edit.text())
                        row.edit.blockSignals(False)
                for c, w in enumerate(row.widgets):
                    self.params_grid.addWidget(w, r, c)
                self.params[d.name] = row
            self.params_grid.setColumnStretch(1, 1)
            self.params_title.setVisible(bool(self.params))
            self.params_box.setVisible(bool(self.params))
        # the data a kernel names on its "// input:" lines, beside its file
        folder = Path(self.path).parent if self.path else None
        for pname, fname in input_lines(text).items():
            row = self.params.get(pname)
            if row is not None and row.pointer and row.data is None and folder is not None \
                    and pname not in self._detached:
                try:  # only a file in the kernel's folder, as an #include (no absolute path, no '..')
                    self.attach(pname, file_beside(folder, fname), origin=", from its // input: line", run=False)
                except (OSError, ValueError):
                    pass

    def choose_array(self, name: str) -> None:
        start = str(Path(self.path).parent) if self.path else str(Path.home())
        path, _ = QFileDialog.getOpenFileName(self, f"Data for {name}", start, "numpy arrays (*.npy);;All files (*)")
        if path:
            try:
                self.attach(name, path)
            except (OSError, ValueError, EOFError) as e:
                self.status.setText(f"<span style='color:{WORST_MARK.name()}'>{name}: cannot use {Path(path).name}: "
                                    f"{e}</span>")

    def attach(self, name: str, path: str, origin: str = "", run: bool = True) -> None:
        """Fill pointer parameter ``name`` from the ``.npy`` file ``path`` (ValueError when it is
        not one, or too large) and run again."""
        row = self.params.get(name)
        if row is None or not row.pointer:
            raise ValueError(f"the kernel has no pointer parameter {name!r}")
        try:
            row.data = load_npy(path)
        except (ValueError, EOFError) as e:
            raise ValueError(str(e) if "npy" in str(e) or "buffer" in str(e) else
                             f"{Path(path).name} is not a .npy array file ({e})") from None
        row.file = Path(path).name
        self._detached.discard(name)
        row.show_state(origin)
        if run:
            self.refresh()

    def detach(self, name: str) -> None:
        row = self.params.get(name)
        if row is not None and row.pointer:
            row.data, row.file = None, ""
            self._detached.add(name)
            row.show_state()
            self.refresh()

    # ---- running ----------------------------------------------------------------------------------
    def refresh(self) -> None:
        """Compile and run the text now (the timer calls this after a pause in typing)."""
        self.timer.stop()
        text = self.editor.toPlainText()
        name = kernel_name(text)
        self._sync_params(text, name)
        if name is None:
            self._run_snippet(text)
            return
        self.snippet = None
        try:
            launch = self.launch()
        except ValueError as e:
            self.state = "invalid"
            self._launch = None
            self._show(problem=str(e))
            return
        self.block_origin.setText(f"{'×'.join(map(str, launch.block))} ({launch.origin})"
                                  if not self.block_edit.text().strip() else "")
        if not nvrtc.available():
            self.state = "unavailable"
            self._launch = None
            self._show()
            return
        self.state = "running"
        self._launch = launch
        self._expect = self.runner.submit(launch)
        self._show()

    def stop(self) -> None:
        """Stop the kernel that runs now; what it had done is not shown (only where it stopped)."""
        self.runner.stop()

    def go_on(self) -> None:
        """A kernel that has executed for a while waits to be let on (:data:`.kernel_runner.ASK_AFTER`)."""
        self.runner.go_on()
        self.go_on_button.setVisible(False)

    def _finished(self, generation: int, out: Outcome) -> None:
        if generation != self._expect:
            return  # a run for a text or launch that has changed since
        self.outcome = out
        self.state = "done" if out.ok else "failed"
        if out.ok and out.run.kernel != kernel_name(out.launch.text):  # another kernel ran: its parameters
            self._sync_params(out.launch.text, out.run.kernel)
        self._show()

    def wait_compiled(self, timeout_ms: int = 60000) -> bool:
        """Process events until the run of the text as it is now is shown (tests, screenshots,
        Import into window)."""
        if self.timer.isActive():
            self.refresh()
        return self.runner.wait(timeout_ms) and self.state != "running"

    def _run_snippet(self, text: str) -> None:
        """A few lines with no kernel around them: read as written (nothing to compile)."""
        from ..cudaimport import ImportOptions, import_cuda
        from ..model.analysis import analyze
        from ..model.errors import BankExplorerError

        self.runner.cancel()
        self._launch = None
        opts = ImportOptions(name=self.name, hardware=self.document.pattern.hardware)
        problem = None
        try:
            if self.block_edit.text().strip():
                opts.block = parse_dims(self.block_edit.text(), "block")
        except ValueError as e:
            problem = str(e)
        self.state = "snippet"
        self.snippet = res = import_cuda(text, opts)
        stats = []
        try:
            an = analyze(res.pattern, detail=False)
        except BankExplorerError as e:
            an, problem = None, problem or str(e)
        if an is not None:
            res_ = an.result
            for k, ins in enumerate(res.pattern.instructions):
                rows = an.rows_of(k)
                ok = res_.wavefronts[rows] >= 0
                stats.append(SassStat(k, ins.title(), res.sources[k].line if k < len(res.sources) else 0,
                                      int((ok & res_.served[rows].any(axis=1)).sum()),
                                      int(res_.served[rows][ok].sum()), int(res_.wavefronts[rows][ok].sum()),
                                      int(res_.ideal[rows][ok].sum()), instruction=k))
        self.stats = by_line(stats)
        self.block_origin.setText(f"{'×'.join(map(str, res.pattern.block))} ({res.block_origin})"
                                  if not self.block_edit.text().strip() else "")
        self._show(problem=problem)

    # ---- showing ----------------------------------------------------------------------------------
    def _show(self, problem: str | None = None) -> None:
        out = self.outcome if self.state in ("done", "failed") else None
        text_lines = self.editor.toPlainText().split("\n")
        if self.state == "done":
            self.stats, self._stats_text = stats_from_run(out.run), out.launch.text
        elif self.state == "snippet":
            self._stats_text = self.editor.toPlainText()
        elif self.state != "running":
            self.stats, self._stats_text = [], None
        # while running: the last numbers stay, greyed and labelled as the text before the edit
        # (typing is never blocked); another kernel's were dropped when its text came in
        self.lines.set_stats(self.stats, text_lines)
        self.lines.setEnabled(self.state != "running")
        self.hint.setVisible(self.state == "unavailable")
        diags: list[Problem] = []
        notes: list[tuple[int, str, str]] = []
        if out is not None:
            diags += [Problem(d.line, d.column, d.severity, d.message) for d in out.problems]
            if out.run is not None:
                notes += [(ln, "note", msg) for ln, msg in out.run.notes]
                shown = out.run.printed[:PRINTF_NOTES]
                notes += [(ln, "note", f"printf: {text}") for ln, text in shown]
                more = len(out.run.printed) + out.run.printed_dropped - len(shown)
                if more > 0:
                    notes.append((0, "note", f"printf: … {more:,} more line{'s' if more != 1 else ''}"))
                if out.run.timing_dependent:
                    notes.append((0, "note", "some counts depend on the order in which warps run (the GPU's timing)"))
            if out.message and not out.problems:
                notes.insert(0, (0, "error" if not out.ok else "warning", out.message))
        if self.snippet is not None:
            diags += [Problem(d.line, d.column, d.severity, d.message) for d in self.snippet.diagnostics]
        if problem:
            notes.insert(0, (0, "error", problem))
        for d in diags:
            notes.append((d.line, d.severity, d.message))
        flags = {}
        for ls in self.stats:
            if ls.timing:
                flags[ls.line] = "T"
            elif ls.data:
                flags[ls.line] = "D"
        worst = self.stats[0].line if self.stats and self.stats[0].excess > 0 else None
        if self.state != "running":
            self.editor.set_marks(worst, diags, flags)
        self._fill_notes(notes)
        self._fill_summary(problem)
        can = (self.state == "done" and out is not None and out.pattern is not None) or \
              (self.state == "snippet" and self.snippet is not None and bool(self.snippet.pattern.instructions)
               and problem is None)
        self.import_button.setEnabled(bool(can) or self.state == "running")
        self.stop_button.setVisible(self.state == "running")
        self.go_on_button.setVisible(self.state == "running" and self.runner.paused is not None)
        if self.state == "running":
            self.progress_timer.start()
        else:
            self.progress_timer.stop()
        self._document_selection()
        self.analysisUpdated.emit()

    def _fill_notes(self, notes: list[tuple[int, str, str]]) -> None:
        self.notes.clear()
        for line, sev, msg in notes:
            it = QListWidgetItem((f"{line}: " if line else "") + msg)
            it.setForeground(SEVERITY_COLOR.get(sev, SEVERITY_COLOR["note"]))
            it.setData(Qt.ItemDataRole.UserRole, line)
            it.setToolTip(msg)
            self.notes.addItem(it)
        n = len(notes)
        self.notes_label.setText(f"Notes ({n})" if n else "Notes: none")

    def _fill_summary(self, problem: str | None) -> None:
        grey = "<span style='color:" + GREY + "'>{}</span>"
        st = self.state
        if st == "unavailable":
            self.summary.setText(grey.format("A whole kernel is compiled and executed; the compiler is not installed."))
            return
        if st == "invalid":
            self.summary.setText(f"<span style='color:{WORST_MARK.name()}'>{problem}</span>")
            return
        if st == "snippet":
            res = self.snippet
            p = res.pattern
            msg = [grey.format(f"A snippet (no __global__ function): read as written, access by access, block "
                               f"{'×'.join(map(str, p.block))} ({res.block_origin}). Paste a whole kernel to compile "
                               f"and execute it.")]
            if self.stats:
                wf, ideal = sum(s.wavefronts for s in self.stats), sum(s.ideal for s in self.stats)
                msg.append(f"<b>{wf:,}</b> wavefronts (ideal {ideal:,})")
            self.summary.setText("<br>".join(msg))
            return
        launch = self._launch if st == "running" else (self.outcome.launch if self.outcome else None)
        if launch is None:
            self.summary.setText("")
            return
        where = (f"block {'×'.join(map(str, launch.block))}, index {','.join(map(str, launch.block_index))}"
                 + (f" of a grid of {','.join(map(str, launch.grid))}" if launch.grid else ""))
        if st == "running":
            stale = ("<br>" + grey.format("<i>The lines below are the last run's, for the text before your edit.</i>")
                     if self.stats and self._stats_text != self.editor.toPlainText() else "")
            self.summary.setText(grey.format(self._running_text(launch, where)) + stale)
            return
        out = self.outcome
        if not out.ok:
            self.summary.setText(f"<span style='color:{WORST_MARK.name()}'><b>Not executed:</b> "
                                 f"{_esc(out.message.splitlines()[0] if out.message else 'the kernel does not compile')}"
                                 f"</span>")
            return
        run = out.run
        arch = run.arch + ("" if run.arch in nvrtc.MEASURED_ARCHITECTURES else " (not measured: sm_90's bank rules)")
        lines = [f"<b>{_esc(run.kernel)}</b>: {where}, as compiled for {arch}, executed on the CPU: "
                 f"{run.warp_instructions:,} warp instructions in {out.seconds:.2f} s"]
        wf = sum(ls.wavefronts for ls in self.stats)
        ideal = sum(ls.ideal for ls in self.stats)
        ex = sum(ls.executed for ls in self.stats)
        eff = f"{ideal / wf:.0%}" if wf else "–"
        lines.append(f"<b>{wf:,}</b> shared-memory wavefronts for {ex:,} warp instructions executed "
                     f"(ideal {ideal:,}, efficiency {eff})")
        worst = self.stats[0] if self.stats and self.stats[0].excess > 0 else None
        if worst is not None:
            lines.append(f"<span style='color:{WORST_MARK.name()}'><b>Worst: line {worst.line}</b>, "
                         f"{worst.excess:,} excess wavefronts</span>")
        elif self.stats:
            lines.append(f"<span style='color:{GOOD.name()}'><b>No bank conflict.</b></span>")
        else:
            lines.append(grey.format("No shared-memory instruction executed."))
        if out.pattern is not None and out.pattern.arrays:
            lines.append(grey.format("Arrays: " + ", ".join(_esc(a.declaration()) for a in out.pattern.arrays)))
        elif out.pattern is None and out.message:
            lines.append(f"<span style='color:{WORST_MARK.name()}'>{_esc(out.message)}</span>")
        self.summary.setText("<br>".join(lines))

    def _running_text(self, launch: Launch, where: str) -> str:
        stage, issued = self.runner.progress or ("compiling", 0)
        if stage == "compiling" or not issued:
            return f"Compiling for {launch.arch} and executing one block ({where})…"
        line = self.runner.paused
        if line is not None:
            at = f", at line {line}" if line else ""
            return (f"Still executing one block ({where}) after {self.runner.seconds:.0f} s ({issued:,} warp "
                    f"instructions){at}: an endless or very long loop? <b>Go on</b> lets it run as long again; "
                    f"<b>Stop</b> ends it.")
        return f"Executing one block ({where}): {issued:,} warp instructions so far, in {self.runner.seconds:.0f} s…"

    def _fill_progress(self) -> None:
        if self.state == "running" and self._launch is not None:
            self._fill_summary(None)
            self.go_on_button.setVisible(self.runner.paused is not None)

    # ---- linking lines, code and the window ---------------------------------------------------------
    def _ours(self) -> bool:
        """The document shows what this dialog imported (so a line picked here selects there)."""
        k = self.document.pattern.kernel
        return k is not None and k is self.imported_kernel

    def _line_picked(self, line: int) -> None:
        self.editor.select_line(line)
        if self._ours():
            ks = [k for k, ln in instruction_lines(self.document.pattern).items() if ln == line]
            if ks:
                self.document.select_group(ks)
        elif self.state == "snippet" and self._snippet_ours():
            ls = next((x for x in self.stats if x.line == line), None)
            if ls is not None and ls.instructions:
                self.document.select_group(ls.instructions)

    def _sass_picked(self, line: int, pc: int) -> None:
        self.editor.select_line(line)
        if self._ours():
            k = next((j for j, ins in enumerate(self.document.pattern.instructions) if ins.pc == pc), None)
            if k is not None:
                self.document.select(instruction=k)
        elif self.state == "snippet" and self._snippet_ours():
            self.document.select(instruction=pc)

    def _snippet_ours(self) -> bool:
        return self.snippet is not None and self.document.pattern is getattr(self, "_imported_snippet", None)

    def _cursor_moved(self) -> None:
        """The cursor moved in the code: mark the line in the per-line view."""
        if self.timer.isActive():
            return
        line = self.editor.textCursor().blockNumber() + 1
        if any(ls.line == line for ls in self.stats):
            self.editor.select_line(line, scroll=False)
            self.lines.select_line(line)

    def _document_selection(self) -> None:
        """The window selected an instruction of what this dialog imported: mark its line here."""
        if not self._ours():
            return
        k = self.document.selection.instruction
        line = instruction_lines(self.document.pattern).get(k)
        if line is not None:
            self.lines.select_line(line)
            self.editor.select_line(line, scroll=False)

    def _go_to_note(self, item: QListWidgetItem) -> None:
        line = item.data(Qt.ItemDataRole.UserRole)
        if line:
            self.editor.select_line(int(line))
            self.lines.select_line(int(line))

    def _load_example(self, index: int) -> None:
        path = self.examples.itemData(index)
        if path:
            self.set_text(Path(path).read_text(encoding="utf-8"), Path(path).stem, path)
        self.examples.setCurrentIndex(0)

    def _open_file(self) -> None:
        start = str(Path(self.path).parent) if self.path else str(CUDA_EXAMPLES)
        path, _ = QFileDialog.getOpenFileName(self, "Open kernel", start, "CUDA (*.cu *.cuh);;CUDA binaries (*.cubin "
                                              "*.fatbin *.so *.exe);;All files (*)")
        if path:
            try:
                self.open_path(path)
            except (OSError, ValueError) as e:
                self.status.setText(f"Cannot open {Path(path).name}: {getattr(e, 'strerror', None) or e}")

    def open_path(self, path: str) -> None:
        """A kernel's source, or a binary (by its first bytes): :meth:`set_binary`."""
        from ..kernels import is_binary

        with open(path, "rb") as f:
            binary = is_binary(f.read(4))
        if binary:
            self.set_binary(path)
        else:
            self.set_text(Path(path).read_text(encoding="utf-8", errors="replace"), path=path)

    # ---- into the window ------------------------------------------------------------------------------
    def import_into_document(self) -> bool:
        """Replace the document's pattern with the kernel as executed: one undoable edit."""
        if self.state == "running" or self.timer.isActive():
            self.status.setText("Importing once the run has finished (Stop ends it)…")
        self.wait_compiled()
        if self.state == "snippet":
            return self._import_snippet()
        out = self.outcome if self.state == "done" else None
        if out is None or out.pattern is None:
            why = out.message if out is not None and out.message else "the kernel has not run (see the notes)"
            self.status.setText(f"<span style='color:{WORST_MARK.name()}'>Not imported: {_esc(why)}</span>")
            return False
        pat = replace(out.pattern, figure=self.document.pattern.figure)
        if not pat.instructions:
            self.status.setText("Nothing to import: the kernel executed no shared-memory instruction.")
            return False
        if not self.document.apply(pat, f"Import CUDA kernel {out.run.kernel}"):
            where, msg = self.document.errors[0]
            self.status.setText(f"<span style='color:{WORST_MARK.name()}'>Not imported: {where}: {msg}</span>")
            return False
        self.imported_kernel = pat.kernel
        self.document.remember_launch(pat.kernel, KernelLaunch(dict(out.launch.arrays), out.launch.path,
                                                                out.launch.extern_bytes))
        picked = self.lines.selectedItems()
        line = picked[0].data(0, Qt.ItemDataRole.UserRole)[0] if picked else (self.stats[0].line if self.stats else None)
        ks = [k for k, ln in instruction_lines(pat).items() if ln == line]
        if ks:
            self.document.select_group(ks)
        n = len(pat.instructions)
        self.status.setText(f"Imported {out.run.kernel}: {n} shared-memory SASS instruction{'s' if n != 1 else ''} "
                            f"(Edit > Undo brings the previous pattern back).")
        return True

    def _import_snippet(self) -> bool:
        res = self.snippet
        if res is None or not res.pattern.instructions:
            self.status.setText("Nothing to import: no shared-memory access found.")
            return False
        pat = replace(res.pattern, figure=self.document.pattern.figure)
        if not self.document.apply(pat, f"Import CUDA ({len(pat.instructions)} instructions)"):
            where, msg = self.document.errors[0]
            self.status.setText(f"<span style='color:{WORST_MARK.name()}'>Not imported: {where}: {msg}</span>")
            return False
        self._imported_snippet = pat
        self.status.setText(f"Imported {len(pat.instructions)} instruction(s) as written (Edit > Undo brings the "
                            f"previous pattern back).")
        return True

    def closeEvent(self, ev) -> None:  # noqa: N802 - Qt's name
        self.runner.cancel()
        super().closeEvent(ev)


def _esc(s: str) -> str:
    import html

    return html.escape(s)


def open_dialog(window: "ToolHost", path: str | None = None) -> CudaImportDialog:
    """Show the dialog (one per window); with ``path``, on that kernel's text (a ``.cu`` file
    opened from the command line, File > Open or a drop)."""
    tool = window.tools["cuda_import"]
    dlg = tool.dialog
    if dlg is None:
        dlg = tool.dialog = CudaImportDialog(window.document, window)
    if path is not None:
        try:
            dlg.open_path(str(path))
        except ValueError as e:  # a binary without sm_90 code, a truncated file: said in the dialog
            dlg.status.setText(str(e))
    dlg.show()
    dlg.raise_()
    dlg.activateWindow()
    return dlg
