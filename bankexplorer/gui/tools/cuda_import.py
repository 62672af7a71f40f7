"""Tools > Import CUDA...: paste a kernel's shared-memory code, see its bank conflicts as you type,
and import it into the window as one undoable edit.

Code on the left (line numbers; the line of the worst conflict has a red background and a red
gutter mark; problems are underlined where they are), the analysis on the right (one row per
shared-memory instruction with its wavefronts, ideal and N-way; the problems with line:column).
Clicking an instruction selects the code it came from; moving the cursor in the code selects the
instructions of that line. The import is :func:`bankexplorer.cudaimport.import_cuda`, which only
parses the text; then, when the ``compile`` extra is installed, the text is compiled with NVRTC in a
background thread (:func:`bankexplorer.cudaimport.compiled.import_compiled`) and the results switch
to what the compiled code executes ("as compiled"), with the lines that differ listed. Typing never
waits for the compiler: a result for an older text is dropped.
"""

from __future__ import annotations

import threading
from dataclasses import replace
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication, QElapsedTimer, QEventLoop, QRect, QSize, Qt, QTimer, Signal
from PySide6.QtGui import (
    QAction, QColor, QFontDatabase, QKeySequence, QPainter, QTextCharFormat, QTextCursor, QTextFormat,
)
from PySide6.QtWidgets import (
    QAbstractItemView, QComboBox, QDialog, QHBoxLayout, QHeaderView, QLabel, QLineEdit, QListWidget,
    QListWidgetItem, QPlainTextEdit, QPushButton, QSplitter, QTableWidget, QTableWidgetItem, QTableWidgetSelectionRange, QTextEdit,
    QVBoxLayout, QWidget,
)

from ...compiler import nvrtc
from ...cudaimport import ImportOptions, ImportResult, InstructionStat, import_cuda, instruction_stats, parse_block
from ...cudaimport.compiled import import_compiled
from ...cudaimport.result import Diagnostic, SourceSpan
from ...model.analysis import analyze
from ...model.errors import BankExplorerError
from ...resources import EXAMPLES
from ..document import Document
from ..palette import SCREEN

if TYPE_CHECKING:
    from ..app import MainWindow

#: pause after the last keystroke before re-importing (typing a word is one import, not five)
DEBOUNCE_MS = 250
CUDA_EXAMPLES = EXAMPLES / "cuda"

WORST_BG = QColor(255, 222, 222)
WORST_MARK = QColor(*SCREEN.conflict)
SELECTED_LINE_BG = QColor(222, 235, 255)
SELECTED_SPAN_BG = QColor(170, 200, 250)
SEVERITY_COLOR = {"error": QColor(*SCREEN.conflict), "warning": QColor(220, 130, 0), "note": QColor(120, 120, 130)}
GOOD = QColor(30, 130, 60)

STARTER = """\
// Paste the lines of a kernel that declare and index shared memory.
// The block size comes from a launch below, a '// block: 32, 8' comment or the Block box.
#define TILE 32

__global__ void transpose(float* out, const float* in)
{
    __shared__ float tile[TILE][TILE];
    int x = threadIdx.x, y = threadIdx.y;
    for (int j = 0; j < TILE; j += 8)
        tile[y + j][x] = in[(y + j) * TILE + x];
    __syncthreads();
    for (int j = 0; j < TILE; j += 8)
        out[(y + j) * TILE + x] = tile[x][y + j];
}

void launch(float* out, const float* in)
{
    transpose<<<1, dim3(32, 8)>>>(out, in);
}
"""


def _swatch(color: QColor, text: str) -> str:
    return f"<span style='background:{color.name()}'>&nbsp;&nbsp;&nbsp;</span>&nbsp;{text}"


_LEGEND = "&nbsp;&nbsp;".join([
    _swatch(WORST_BG, "worst conflict"), _swatch(SELECTED_SPAN_BG, "selected access"),
    f"<span style='color:{SEVERITY_COLOR['error'].name()}'>●</span>&nbsp;error",
    f"<span style='color:{SEVERITY_COLOR['warning'].name()}'>●</span>&nbsp;warning (underlined in the code)",
])


class _Gutter(QWidget):
    def __init__(self, editor: "CodeEditor"):
        super().__init__(editor)
        self.editor = editor

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt's name
        return QSize(self.editor.gutter_width(), 0)

    def paintEvent(self, event) -> None:  # noqa: N802
        self.editor.paint_gutter(event)


class CodeEditor(QPlainTextEdit):
    """A plain-text editor with line numbers and marks: the worst line, the selected
    instruction's code and problems, each also shown in the gutter."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        font = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
        font.setPointSize(max(font.pointSize(), 10))
        self.setFont(font)
        self.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.setTabStopDistance(4 * self.fontMetrics().horizontalAdvance(" "))
        self.worst_line: int | None = None
        self.selected: list[SourceSpan] = []
        self.diagnostics: list[Diagnostic] = []
        self.gutter = _Gutter(self)
        self.blockCountChanged.connect(self._update_margin)
        self.updateRequest.connect(self._scroll_gutter)
        self._update_margin()

    # ---- gutter ------------------------------------------------------------------------------
    def gutter_width(self) -> int:
        digits = len(str(max(1, self.blockCount())))
        return 22 + self.fontMetrics().horizontalAdvance("9") * max(3, digits)

    def _update_margin(self, *_):
        self.setViewportMargins(self.gutter_width(), 0, 0, 0)

    def _scroll_gutter(self, rect: QRect, dy: int) -> None:
        if dy:
            self.gutter.scroll(0, dy)
        else:
            self.gutter.update(0, rect.y(), self.gutter.width(), rect.height())

    def resizeEvent(self, event) -> None:  # noqa: N802
        super().resizeEvent(event)
        cr = self.contentsRect()
        self.gutter.setGeometry(QRect(cr.left(), cr.top(), self.gutter_width(), cr.height()))

    def paint_gutter(self, event) -> None:
        p = QPainter(self.gutter)
        p.fillRect(event.rect(), QColor(244, 244, 242))
        worst_lines = {self.worst_line} if self.worst_line else set()
        diag_lines: dict[int, str] = {}
        for d in self.diagnostics:
            if d.severity == "note":
                continue
            if diag_lines.get(d.line) != "error":
                diag_lines[d.line] = d.severity
        block = self.firstVisibleBlock()
        top = round(self.blockBoundingGeometry(block).translated(self.contentOffset()).top())
        h = self.fontMetrics().height()
        w = self.gutter.width()
        while block.isValid() and top <= event.rect().bottom():
            line = block.blockNumber() + 1
            bottom = top + round(self.blockBoundingRect(block).height())
            if block.isVisible() and bottom >= event.rect().top():
                if line in worst_lines:
                    p.fillRect(0, top, w, bottom - top, WORST_BG)
                    p.fillRect(0, top, 4, bottom - top, WORST_MARK)
                if line in diag_lines:
                    p.setBrush(SEVERITY_COLOR[diag_lines[line]])
                    p.setPen(Qt.PenStyle.NoPen)
                    r = max(3, h // 5)
                    p.drawEllipse(8 - r, top + h // 2 - r, 2 * r, 2 * r)
                p.setPen(WORST_MARK if line in worst_lines else QColor(*SCREEN.faint))
                p.drawText(0, top, w - 6, h, int(Qt.AlignmentFlag.AlignRight), str(line))
            block = block.next()
            top = bottom
        p.end()

    # ---- marks -------------------------------------------------------------------------------
    def set_marks(self, worst_line: int | None, diagnostics: list[Diagnostic],
                  selected: list[SourceSpan] | None = None) -> None:
        self.worst_line = worst_line
        self.diagnostics = list(diagnostics)
        if selected is not None:
            self.selected = list(selected)
        self._apply_marks()

    def _line_selection(self, line: int, color: QColor) -> QTextEdit.ExtraSelection | None:
        block = self.document().findBlockByNumber(line - 1)
        if not block.isValid():
            return None
        sel = QTextEdit.ExtraSelection()
        sel.format.setBackground(color)
        sel.format.setProperty(QTextFormat.Property.FullWidthSelection, True)
        sel.cursor = QTextCursor(block)
        return sel

    def cursor_at(self, line: int, column: int) -> QTextCursor:
        """A cursor at 1-based (line, column), clamped to the text."""
        doc = self.document()
        block = doc.findBlockByNumber(max(0, min(line - 1, doc.blockCount() - 1)))
        c = QTextCursor(block)
        c.movePosition(QTextCursor.MoveOperation.Right, n=max(0, min(column - 1, block.length() - 1)))
        return c

    def _span_cursor(self, s: SourceSpan) -> QTextCursor:
        c = self.cursor_at(s.line, s.column)
        end = self.cursor_at(s.end_line, s.end_column)
        c.setPosition(end.position(), QTextCursor.MoveMode.KeepAnchor)
        return c

    def _apply_marks(self) -> None:
        sels: list[QTextEdit.ExtraSelection] = []
        if self.worst_line:
            s = self._line_selection(self.worst_line, WORST_BG)
            if s is not None:
                sels.append(s)
        for span in self.selected:
            s = self._line_selection(span.line, SELECTED_LINE_BG)
            if s is not None:
                sels.append(s)
            s = QTextEdit.ExtraSelection()
            s.format.setBackground(SELECTED_SPAN_BG)
            s.cursor = self._span_cursor(span)
            sels.append(s)
        for d in self.diagnostics:
            if d.severity == "note":
                continue
            c = self.cursor_at(d.line, d.column)
            c.movePosition(QTextCursor.MoveOperation.EndOfWord, QTextCursor.MoveMode.KeepAnchor)
            if not c.hasSelection():  # at the end of a line or on punctuation: mark one character
                c = self.cursor_at(d.line, d.column)
                if c.atBlockEnd() and not c.atBlockStart():
                    c.movePosition(QTextCursor.MoveOperation.Left)
                c.movePosition(QTextCursor.MoveOperation.Right, QTextCursor.MoveMode.KeepAnchor)
            s = QTextEdit.ExtraSelection()
            fmt = QTextCharFormat()
            fmt.setUnderlineStyle(QTextCharFormat.UnderlineStyle.WaveUnderline)
            fmt.setUnderlineColor(SEVERITY_COLOR[d.severity])
            fmt.setToolTip(str(d))
            s.format = fmt
            s.cursor = c
            sels.append(s)
        self.setExtraSelections(sels)
        self.gutter.update()

    def show_span(self, span: SourceSpan) -> None:
        """Select the code of ``span`` and scroll to it."""
        self.setTextCursor(self._span_cursor(span))
        self.ensureCursorVisible()


class CudaImportDialog(QDialog):
    """The editor. ``analysisUpdated`` is emitted after every (debounced) import."""

    analysisUpdated = Signal()
    #: (generation, ImportResult): a background compile finished (emitted from its thread)
    compiled = Signal(int, object)

    def __init__(self, document: Document, parent: QWidget | None = None):
        super().__init__(parent)
        self.document = document
        self.setWindowTitle("Import CUDA")
        self.setWindowFlag(Qt.WindowType.Window, True)
        self.result: ImportResult | None = None
        self.stats: list[InstructionStat] = []
        self.name = "Imported CUDA"
        self._following_cursor = False

        self.editor = CodeEditor()
        self.editor.setPlaceholderText("Paste CUDA code here")
        self.examples = QComboBox()
        self.examples.addItem("Examples…", None)
        for path in sorted(CUDA_EXAMPLES.glob("*.cu")):
            self.examples.addItem(path.stem.replace("_", " "), str(path))
        self.examples.activated.connect(self._load_example)
        self.block_edit = QLineEdit()
        self.block_edit.setPlaceholderText("auto, or e.g. 32,8")
        self.block_edit.setFixedWidth(150)
        self.block_edit.setToolTip("Threads per block: x[,y[,z]]. Empty: a <<<grid, block>>> launch or a "
                                   "'// block: x, y' comment in the code, else 32.")
        self.extern_edit = QLineEdit()
        self.extern_edit.setPlaceholderText("auto")
        self.extern_edit.setToolTip("Bytes of dynamic shared memory for 'extern __shared__' arrays. Empty: the "
                                    "launch's third argument or a '// extern-size: N' comment, else 48 KiB.")
        self.extern_edit.setFixedWidth(110)
        self.view_combo = QComboBox()
        self.view_combo.addItem("As compiled", "compiled")
        self.view_combo.addItem("As written", "written")
        self.view_combo.setToolTip("As compiled: the kernel is compiled with NVRTC and the results follow the machine "
                                   "code (fused vector accesses, atomic forms, removed loads). As written: each "
                                   "access of the source on its own.")
        self.arch_combo = QComboBox()
        for a in nvrtc.ARCHITECTURES:
            self.arch_combo.addItem(a if a in nvrtc.MEASURED_ARCHITECTURES else f"{a} (not measured)", a)
        self.arch_combo.setCurrentIndex(nvrtc.ARCHITECTURES.index(nvrtc.DEFAULT_ARCH))
        self.arch_combo.setToolTip("Architecture to compile for. The bank rules were measured on sm_90 (H100).")
        self.sass_button = QPushButton("SASS")
        self.sass_button.setCheckable(True)
        self.sass_button.setToolTip("Show the shared-memory machine instructions of each line")
        self.sass_view = QPlainTextEdit()
        self.sass_view.setReadOnly(True)
        self.sass_view.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.sass_view.setVisible(False)
        self.sass_view.setMaximumHeight(180)
        self.sass_button.toggled.connect(self.sass_view.setVisible)
        self._generation = 0
        self.compile_state = "off"  # off | compiling | compiled | failed | unavailable
        self.compiled.connect(self._compiled)

        top = QHBoxLayout()
        top.addWidget(self.examples)
        top.addStretch(1)
        top.addWidget(QLabel("Block:"))
        top.addWidget(self.block_edit)
        top.addWidget(QLabel("extern bytes:"))
        top.addWidget(self.extern_edit)
        top.addWidget(QLabel("View:"))
        top.addWidget(self.view_combo)
        top.addWidget(self.arch_combo)
        top.addWidget(self.sass_button)
        left = QWidget()
        lv = QVBoxLayout(left)
        lv.setContentsMargins(0, 0, 0, 0)
        lv.addWidget(self.editor)

        self.summary = QLabel()
        self.summary.setWordWrap(True)
        self.summary.setTextFormat(Qt.TextFormat.RichText)
        self.table = QTableWidget(0, 5)
        self.table.setHorizontalHeaderLabels(["line", "instruction", "wavefronts", "ideal", "N-way"])
        self.table.verticalHeader().setVisible(False)
        self.table.setWordWrap(False)
        self.table.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        hh = self.table.horizontalHeader()
        hh.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        for c in (0, 2, 3, 4):
            hh.setSectionResizeMode(c, QHeaderView.ResizeMode.ResizeToContents)
        self.table.setToolTip("Worst warp instruction of each access (over warps and loop iterations). "
                              "Click one to select its code.")
        self.problems = QListWidget()
        self.problems.setMaximumHeight(150)
        self.problems.setWordWrap(True)
        self.problems.itemClicked.connect(self._go_to_problem)
        self.import_button = QPushButton("Import into window")
        self.import_button.setDefault(True)
        self.import_button.setToolTip("Replace the window's pattern with this one (Edit > Undo brings the old one back)")
        self.import_button.clicked.connect(self.import_into_document)
        close = QPushButton("Close")
        close.clicked.connect(self.close)
        self.status = QLabel()
        self.status.setWordWrap(True)
        buttons = QHBoxLayout()
        buttons.addWidget(self.status, 1)
        buttons.addWidget(self.import_button)
        buttons.addWidget(close)

        right = QWidget()
        rv = QVBoxLayout(right)
        rv.setContentsMargins(0, 0, 0, 0)
        rv.addWidget(self.summary)
        rv.addWidget(self.table, 1)
        rv.addWidget(self.sass_view)
        legend = QLabel(_LEGEND)
        legend.setWordWrap(True)
        rv.addWidget(legend)
        self.problems_label = QLabel("Problems")
        rv.addWidget(self.problems_label)
        rv.addWidget(self.problems)

        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(left)
        split.addWidget(right)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 2)
        self.splitter = split
        self._sized = False
        outer = QVBoxLayout(self)
        outer.addLayout(top)
        outer.addWidget(split, 1)
        outer.addLayout(buttons)
        self.resize(1400, 800)

        self.timer = QTimer(self)
        self.timer.setSingleShot(True)
        self.timer.setInterval(DEBOUNCE_MS)
        self.timer.timeout.connect(self.refresh)
        self.editor.textChanged.connect(self._text_changed)
        self.block_edit.textChanged.connect(self._text_changed)
        self.extern_edit.textChanged.connect(self._text_changed)
        self.view_combo.currentIndexChanged.connect(lambda *_: self.refresh())
        self.arch_combo.currentIndexChanged.connect(lambda *_: self.refresh())
        self.table.itemSelectionChanged.connect(self._instruction_selected)
        self.editor.cursorPositionChanged.connect(self._cursor_moved)
        self.document.patternChanged.connect(self._document_changed)
        self.editor.setPlainText(STARTER)
        self.refresh()

    def showEvent(self, event) -> None:  # noqa: N802 - Qt's name
        super().showEvent(event)
        if not self._sized:  # code 3/5, results 2/5 of the width, whatever their size hints say
            self._sized = True
            w = max(self.splitter.width(), 600)
            self.splitter.setSizes([w * 3 // 5, w - w * 3 // 5])

    def _document_changed(self) -> None:
        """The window's hardware (banks, bank width, warp size) is what the import is analyzed on."""
        if self.result is not None and self.document.pattern.hardware != self.result.pattern.hardware:
            self.timer.start()

    # ---- import ------------------------------------------------------------------------------
    def _text_changed(self) -> None:
        self.status.setText("")
        self._generation += 1  # a compile of the text before this edit is out of date
        self.timer.start()

    def _options(self) -> tuple[ImportOptions, str | None]:
        opts = ImportOptions(name=self.name, hardware=self.document.pattern.hardware)
        problem = None
        if self.block_edit.text().strip():
            try:
                opts.block = parse_block(self.block_edit.text())
            except ValueError as e:
                problem = str(e)
        ext = self.extern_edit.text().strip().replace("_", "").replace(",", "")
        if ext:
            if ext.isdigit() and 1 <= int(ext) <= 1 << 30:
                opts.extern_bytes = int(ext)
            else:
                problem = f"extern bytes {ext!r}: write a number of bytes from 1 to 2**30"
        return opts, problem

    def refresh(self) -> None:
        """Import the text now (the timer calls this after a pause in typing)."""
        self.timer.stop()
        opts, problem = self._options()
        text = self.editor.toPlainText()
        self.result = import_cuda(text, opts)
        self._generation += 1
        self.compile_state = "off"
        if self.view_combo.currentData() == "compiled":
            if not nvrtc.available():
                self.compile_state = "unavailable"
            elif "__global__" not in text:  # a few lines pasted on their own: nothing to compile
                self.compile_state = "snippet"
            elif problem is None:
                self.compile_state = "compiling"
                gen, arch = self._generation, self.arch_combo.currentData()

                def work() -> None:
                    try:
                        res = import_compiled(text, opts, arch)
                    except Exception as e:  # never lose the editor to a compiler problem
                        res = e
                    try:
                        self.compiled.emit(gen, res)
                    except RuntimeError:  # the dialog was closed and deleted meanwhile
                        pass

                threading.Thread(target=work, daemon=True, name="nvrtc-compile").start()
        self._show(problem)

    def _compiled(self, generation: int, res) -> None:
        """A background compile finished: show it, unless the text changed since."""
        if generation != self._generation:
            return
        if isinstance(res, Exception):
            self.compile_state = "failed"
            self.compile_message = f"could not compile: {res}"
        else:
            self.result = res
            self.compile_state = res.compiled.status if res.compiled else "failed"
            self.compile_message = res.compiled.message if res.compiled else ""
        _opts, problem = self._options()
        self._show(problem)

    def wait_compiled(self, timeout_ms: int = 20000) -> bool:
        """Process events until the background compile is in (tests, and Import into window)."""
        t = QElapsedTimer()
        t.start()
        while self.compile_state == "compiling" and t.elapsed() < timeout_ms:
            QCoreApplication.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 50)
        return self.compile_state != "compiling"

    def _show(self, problem: str | None) -> None:
        try:
            an = analyze(self.result.pattern, detail=False)
            self.stats = instruction_stats(self.result, an)
            totals = an.totals()
        except BankExplorerError as e:  # a pattern the model rejects as a whole: say so, keep the editor usable
            self.stats, totals = [], None
            problem = problem or str(e)
        worst = max((s for s in self.stats if s.excess > 0), key=lambda s: (s.excess, s.degree), default=None)
        self.worst = worst
        self._fill_table()
        self._fill_problems(problem)
        self._fill_summary(totals)
        self.editor.set_marks(worst.line if worst else None, list(self.result.diagnostics), [])
        self.import_button.setEnabled(bool(self.result.pattern.instructions) and problem is None)
        self._fill_sass()
        self.analysisUpdated.emit()

    def _fill_sass(self) -> None:
        comp = self.result.compiled if self.result is not None else None
        if comp is None or comp.status != "compiled":
            self.sass_view.setPlainText({"compiling": "compiling…", "unavailable": nvrtc.INSTALL_HINT}.get(
                self.compile_state, "no compiled code (the view is as written)"))
            return
        lines = []
        for c in comp.changes:
            lines.append(f"line {c.line}: {c.compiled} per thread")
            lines += [f"    {t}" for t in c.sass]
        self.sass_view.setPlainText("\n".join(lines) or "no shared-memory instruction in the compiled code")

    def _fill_table(self) -> None:
        self.table.blockSignals(True)
        self.table.setRowCount(len(self.stats))
        mono = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
        for r, s in enumerate(self.stats):
            title = s.title.removeprefix(f"L{s.line} ")
            cells = [str(s.line), title]
            if s.error:
                cells += ["error", "", ""]
            else:
                cells += [str(s.wavefronts), str(s.ideal), f"{s.degree}x"]
            for c, text in enumerate(cells):
                it = QTableWidgetItem(text)
                if c != 1:
                    it.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                else:
                    it.setFont(mono)
                it.setToolTip(s.error or f"line {s.line}: {title}\n{s.rows} warp instruction(s), "
                                         f"{s.total_wavefronts:,} wavefronts in all (ideal {s.total_ideal:,})")
                if s.error:
                    it.setForeground(SEVERITY_COLOR["error"])
                elif c in (2, 4):
                    it.setForeground(SEVERITY_COLOR["error"] if s.wavefronts > s.ideal else GOOD)
                if self.worst is not None and s.index == self.worst.index:
                    it.setBackground(WORST_BG)
                self.table.setItem(r, c, it)
        self.table.blockSignals(False)

    def _fill_problems(self, problem: str | None) -> None:
        self.problems.clear()
        diags = list(self.result.diagnostics) if self.result else []
        if problem:
            self.problems.addItem(QListWidgetItem(f"options: {problem}"))
        for d in diags:
            it = QListWidgetItem(f"{d.line}:{d.column}  {d.severity}: {d.message}")
            it.setForeground(SEVERITY_COLOR[d.severity])
            it.setData(Qt.ItemDataRole.UserRole, (d.line, d.column))
            self.problems.addItem(it)
        n = sum(d.severity != "note" for d in diags) + bool(problem)
        self.problems_label.setText(f"Problems ({n})" if n else "Problems: none (notes only)" if diags else
                                    "Problems: none")

    def _fill_summary(self, totals) -> None:
        res = self.result
        if res is None:
            return
        p = res.pattern
        arrays = ", ".join(f"{a.dtype} {a.name}" + "".join(f"[{d}]" for d in a.dims)
                           + (f" (+{a.padding} padding)" if a.padding else "") for a in p.arrays) or "none"
        lines = [f"<b>Block</b> {'×'.join(map(str, p.block))} <span style='color:#777'>({res.block_origin})</span>"
                 f" &nbsp; <b>Arrays</b> {arrays}"]
        if not p.instructions:
            lines.append("No shared-memory access found yet.")
        elif totals is not None:
            eff = f"{totals.efficiency:.0%}"
            lines.append(f"<b>{totals.wavefronts:,}</b> wavefronts for {totals.executed:,} warp instructions "
                         f"(ideal {totals.ideal:,}, efficiency {eff})")
            lines += self._compiled_lines()
            w = self.worst
            if w is not None:
                lines.append(f"<span style='color:{WORST_MARK.name()}'><b>Worst conflict: line {w.line}</b>, "
                             f"{w.degree}-way ({w.excess:,} excess wavefronts)</span>")
            else:
                lines.append(f"<span style='color:{GOOD.name()}'><b>No bank conflict.</b></span>")
        self.summary.setText("<br>".join(lines))

    def _compiled_lines(self) -> list[str]:
        """Where the numbers come from: the compiled code (with the lines it changes) or the source."""
        grey = "<span style='color:#777'>{}</span>"
        st = self.compile_state
        if st == "off":
            return [grey.format("As written: each access of the source on its own.")]
        if st == "compiling":
            return [grey.format(f"As written; compiling for {self.arch_combo.currentData()}…")]
        if st == "snippet":
            return [grey.format("As written. For the compiled view, paste a whole kernel (a __global__ function).")]
        if st == "unavailable":
            return [grey.format("As written. For the compiled view: pip install 'bankexplorer[compile]'")]
        comp = self.result.compiled if self.result is not None else None
        if st != "compiled" or comp is None:
            return [grey.format(f"As written ({getattr(self, 'compile_message', '') or 'the text does not compile'})")]
        arch = comp.arch + ("" if comp.measured_arch else " (not measured: the bank rules are sm_90's)")
        changed = [c for c in comp.changes if c.differs]
        out = [f"<b>As compiled</b> for {arch}: " + (f"{len(changed)} line(s) differ from the source as written"
                                                    if changed else "every line executes as written")]
        for c in changed[:6]:
            out.append(f"&nbsp;&nbsp;line {c.line}: {c.written} → {c.compiled}: <b>{c.wavefronts_compiled:,}</b> "
                       f"wavefronts instead of {c.wavefronts_written:,}")
        if len(changed) > 6:
            out.append(f"&nbsp;&nbsp;… and {len(changed) - 6} more (SASS shows all)")
        return out

    # ---- linking code and results ------------------------------------------------------------
    def select_instruction(self, k: int) -> None:
        row = next((r for r, s in enumerate(self.stats) if s.index == k), None)
        if row is not None:
            self.table.selectRow(row)

    def _instruction_selected(self) -> None:
        if self.result is None or self._following_cursor:
            return
        rows = sorted({i.row() for i in self.table.selectedIndexes()})
        spans = [self.result.sources[self.stats[r].index] for r in rows if r < len(self.stats)]
        self.editor.set_marks(self.editor.worst_line, self.editor.diagnostics, spans)
        if spans:
            self._following_cursor = True
            try:
                self.editor.show_span(spans[0])
            finally:
                self._following_cursor = False

    def _cursor_moved(self) -> None:
        """The cursor moved in the code: select the instructions written on its line."""
        if self._following_cursor or self.result is None or self.timer.isActive():
            return
        line = self.editor.textCursor().blockNumber() + 1
        ks = set(self.result.instruction_at_line(line))
        rows = [r for r, s in enumerate(self.stats) if s.index in ks]
        self._following_cursor = True
        try:
            self.table.clearSelection()
            for r in rows:
                self.table.setRangeSelected(QTableWidgetSelectionRange(r, 0, r, self.table.columnCount() - 1), True)
            if rows:
                self.table.scrollToItem(self.table.item(rows[0], 0))
            spans = [self.result.sources[self.stats[r].index] for r in rows]
            self.editor.set_marks(self.editor.worst_line, self.editor.diagnostics, spans)
        finally:
            self._following_cursor = False

    def _go_to_problem(self, item: QListWidgetItem) -> None:
        pos = item.data(Qt.ItemDataRole.UserRole)
        if pos:
            self.editor.setTextCursor(self.editor.cursor_at(*pos))
            self.editor.ensureCursorVisible()
            self.editor.setFocus()

    def _load_example(self, index: int) -> None:
        path = self.examples.itemData(index)
        if not path:
            return
        from pathlib import Path

        self.name = Path(path).stem
        self.editor.setPlainText(Path(path).read_text(encoding="utf-8"))
        self.refresh()
        self.examples.setCurrentIndex(0)

    # ---- into the window ---------------------------------------------------------------------
    def import_into_document(self) -> bool:
        """Replace the document's pattern with the import: one undoable edit."""
        if self.timer.isActive() or self.result is None:
            self.refresh()
        self.wait_compiled()
        res = self.result
        if res is None or not res.pattern.instructions:
            self.status.setText("Nothing to import: no shared-memory access found.")
            return False
        pat = replace(res.pattern, figure=self.document.pattern.figure)
        n = len(pat.instructions)
        if not self.document.apply(pat, f"Import CUDA ({n} instruction{'s' if n != 1 else ''})"):
            where, msg = self.document.errors[0]
            self.status.setText(f"<span style='color:{WORST_MARK.name()}'>Not imported: {where}: {msg}</span>")
            return False
        rows = self.table.selectionModel().selectedRows() if self.table.selectionModel() else []
        k = self.stats[rows[0].row()].index if rows else (self.worst.index if self.worst else 0)
        self.document.select(instruction=k, iteration=0, warp=0)
        self.status.setText(f"Imported {n} instruction{'s' if n != 1 else ''} into the window "
                            f"(Edit > Undo brings the previous pattern back).")
        return True


def open_dialog(window: "MainWindow", path: str | None = None) -> CudaImportDialog:
    """Show the dialog (one per window); with ``path``, on that kernel's text (a ``.cu`` file
    opened from the command line, File > Open or a drop)."""
    dlg = getattr(window, "cuda_import", None)
    if dlg is None:
        dlg = window.cuda_import = CudaImportDialog(window.document, window)
    if path is not None:
        from pathlib import Path

        dlg.name = Path(path).stem
        dlg.editor.setPlainText(Path(path).read_text(encoding="utf-8", errors="replace"))
        dlg.refresh()
    dlg.show()
    dlg.raise_()
    dlg.activateWindow()
    return dlg


def install(window: "MainWindow") -> None:
    a = QAction("Import &CUDA…", window)
    a.setShortcut(QKeySequence("Ctrl+Shift+I"))
    a.setStatusTip("Paste a kernel's shared-memory code and see its bank conflicts; import it as a pattern")
    a.triggered.connect(lambda: open_dialog(window))
    window.menus["tools"].addAction(a)
    window.cuda_import_action = a
    window.cuda_import = None
