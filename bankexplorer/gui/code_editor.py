"""The code editor of Tools > Import CUDA: line numbers, and the marks a kernel's run puts on its
lines (the worst line, the selected one, compiler problems underlined with a dot in the gutter,
lines whose addresses depend on data (D) or on the warps' timing (T))."""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QRect, QSize, Qt
from PySide6.QtGui import QColor, QFontDatabase, QPainter, QTextCharFormat, QTextCursor, QTextFormat
from PySide6.QtWidgets import QPlainTextEdit, QTextEdit, QWidget

from .line_tree import DATA, TIMING, WORST_BG
from .palette import SCREEN
from .scroll_bar import flat_scroll_bars

WORST_MARK = QColor(*SCREEN.conflict)
SELECTED_LINE_BG = QColor(222, 235, 255)
SEVERITY_COLOR = {"error": QColor(*SCREEN.conflict), "warning": QColor(220, 130, 0), "note": QColor(120, 120, 130)}


@dataclass(frozen=True)
class Problem:
    """Something to mark in the code: a compile error, a line the run has a note on."""

    line: int
    column: int
    severity: str  # error | warning | note
    message: str

    def __str__(self) -> str:
        return f"{self.severity}: {self.message}"




class _Gutter(QWidget):
    def __init__(self, editor: "CodeEditor"):
        super().__init__(editor)
        self.editor = editor

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt's name
        return QSize(self.editor.gutter_width(), 0)

    def paintEvent(self, event) -> None:  # noqa: N802
        self.editor.paint_gutter(event)


class CodeEditor(QPlainTextEdit):
    """A plain-text editor with line numbers and marks: the worst line, the selected line,
    problems (underlined, a dot in the gutter) and lines whose addresses depend on data (D) or on
    timing (T)."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        flat_scroll_bars(self)
        font = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
        font.setPointSize(max(font.pointSize(), 10))
        self.setFont(font)
        self.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.setTabStopDistance(4 * self.fontMetrics().horizontalAdvance(" "))
        self.worst_line: int | None = None
        self.selected_line: int | None = None
        self.diagnostics: list[Problem] = []
        self.flags: dict[int, str] = {}  # line -> "D" (data) / "T" (timing)
        self.gutter = _Gutter(self)
        self.blockCountChanged.connect(self._update_margin)
        self.updateRequest.connect(self._scroll_gutter)
        self._update_margin()

    def gutter_width(self) -> int:
        digits = len(str(max(1, self.blockCount())))
        return 34 + self.fontMetrics().horizontalAdvance("9") * max(3, digits)

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
        diag_lines: dict[int, str] = {}
        for d in self.diagnostics:
            if d.severity != "note" and diag_lines.get(d.line) != "error":
                diag_lines[d.line] = d.severity
        block = self.firstVisibleBlock()
        top = round(self.blockBoundingGeometry(block).translated(self.contentOffset()).top())
        h = self.fontMetrics().height()
        w = self.gutter.width()
        small = self.font()
        small.setPointSizeF(max(small.pointSizeF() - 2, 6))
        while block.isValid() and top <= event.rect().bottom():
            line = block.blockNumber() + 1
            bottom = top + round(self.blockBoundingRect(block).height())
            if block.isVisible() and bottom >= event.rect().top():
                if line == self.worst_line:
                    p.fillRect(0, top, w, bottom - top, WORST_BG)
                    p.fillRect(0, top, 4, bottom - top, WORST_MARK)
                if line in diag_lines:
                    p.setBrush(SEVERITY_COLOR[diag_lines[line]])
                    p.setPen(Qt.PenStyle.NoPen)
                    r = max(3, h // 5)
                    p.drawEllipse(9 - r, top + h // 2 - r, 2 * r, 2 * r)
                flag = self.flags.get(line)
                if flag:
                    p.setFont(small)
                    p.setPen(TIMING if flag == "T" else DATA)
                    p.drawText(14, top, 12, h, int(Qt.AlignmentFlag.AlignCenter), flag)
                    p.setFont(self.font())
                p.setPen(WORST_MARK if line == self.worst_line else QColor(*SCREEN.faint))
                p.drawText(0, top, w - 6, h, int(Qt.AlignmentFlag.AlignRight), str(line))
            block = block.next()
            top = bottom
        p.end()

    def set_marks(self, worst_line: int | None, diagnostics: list[Problem], flags: dict[int, str] | None = None) -> None:
        self.worst_line = worst_line
        self.diagnostics = list(diagnostics)
        if flags is not None:
            self.flags = dict(flags)
        self._apply_marks()

    def select_line(self, line: int | None, scroll: bool = True) -> None:
        self.selected_line = line
        self._apply_marks()
        if line is not None and scroll:
            block = self.document().findBlockByNumber(line - 1)
            if block.isValid():
                c = QTextCursor(block)
                self.blockSignals(True)
                self.setTextCursor(c)
                self.blockSignals(False)
                self.centerCursor() if not self._visible(line) else self.ensureCursorVisible()

    def _visible(self, line: int) -> bool:
        block = self.document().findBlockByNumber(line - 1)
        r = self.blockBoundingGeometry(block).translated(self.contentOffset())
        return 0 <= r.top() and r.bottom() <= self.viewport().height()

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
        doc = self.document()
        block = doc.findBlockByNumber(max(0, min(line - 1, doc.blockCount() - 1)))
        c = QTextCursor(block)
        c.movePosition(QTextCursor.MoveOperation.Right, n=max(0, min(column - 1, block.length() - 1)))
        return c

    def _apply_marks(self) -> None:
        sels: list[QTextEdit.ExtraSelection] = []
        for line, color in ((self.worst_line, WORST_BG), (self.selected_line, SELECTED_LINE_BG)):
            if line:
                s = self._line_selection(line, color)
                if s is not None:
                    sels.append(s)
        for d in self.diagnostics:
            if d.severity == "note":
                continue
            block = self.document().findBlockByNumber(d.line - 1)
            if not block.isValid():
                continue
            c = QTextCursor(block)
            if d.column > 1:
                c = self.cursor_at(d.line, d.column)
                c.movePosition(QTextCursor.MoveOperation.EndOfWord, QTextCursor.MoveMode.KeepAnchor)
            else:  # the whole line, from its first non-blank character
                text = block.text()
                c.movePosition(QTextCursor.MoveOperation.Right, n=len(text) - len(text.lstrip()))
                c.movePosition(QTextCursor.MoveOperation.EndOfBlock, QTextCursor.MoveMode.KeepAnchor)
            if not c.hasSelection():
                continue
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


# ---- a pointer or scalar parameter ------------------------------------------------------------------
