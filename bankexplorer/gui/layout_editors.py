"""Editors for the library layout kinds (CuTe layouts, Triton shared encodings, TMA swizzles).

Each editor is a self-contained QWidget: :meth:`LayoutEditor.set_transform` shows a Transform
without emitting anything, and :attr:`LayoutEditor.changed` carries the new Transform after
every user edit that parses. A string that does not parse is never emitted: the field turns
red and the label under it says what was expected at which column (and the cursor jumps there
when the user leaves the field), so the document never sees a half-typed layout.

Every editor also has a *paste* line that accepts whatever a library prints (CuTe's
``print(layout)``, TTGIR ``#ttg.swizzled_shared<{...}>`` / ``#ttg.nvmma_shared<{...}>``, a
``CU_TENSOR_MAP_SWIZZLE_*`` mode). Pasting one of another kind emits that kind's Transform, so
the host panel should switch its page to ``t.kind``.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QCheckBox, QComboBox, QFormLayout, QLabel, QLineEdit, QWidget

from ..model.libraries import cute, from_text, tma, triton
from ..model.libraries.cute import LayoutParseError
from ..model.layout import Transform

BAD = "background:#ffd6d6; border:1px solid #d02020;"
POW2 = (1, 2, 4, 8, 16, 32, 64, 128)


class LayoutEditor(QWidget):
    """Common part: a form, the paste line, the error label and the quiet ``set_transform``."""

    changed = Signal(object)  # Transform
    kind = ""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.form = QFormLayout(self)
        self.form.setContentsMargins(0, 0, 0, 0)
        self._quiet = False
        self._transform = Transform(self.kind)
        self.build()
        self.paste = QLineEdit()
        self.paste.setPlaceholderText("paste: CuTe layout, #ttg.*_shared<{...}>, CU_TENSOR_MAP_SWIZZLE_*")
        self.paste.setToolTip("Paste what CuTe, Triton or the TMA prints; it replaces this layout")
        self.paste.returnPressed.connect(self._pasted)
        self.form.addRow("paste", self.paste)
        self.summary = QLabel()
        self.summary.setWordWrap(True)
        self.summary.setTextInteractionFlags(Qt.TextSelectableByMouse)  # so it can be copied back
        self.form.addRow(self.summary)
        self.error = QLabel()
        self.error.setWordWrap(True)
        self.error.setStyleSheet("color:#c01010;")
        self.form.addRow(self.error)

    # ---- to implement -----------------------------------------------------------------------
    def build(self) -> None:
        raise NotImplementedError

    def show_transform(self, t: Transform) -> None:
        raise NotImplementedError

    def read(self) -> Transform:
        """The Transform the fields describe; raises LayoutParseError/ValueError if they do not."""
        raise NotImplementedError

    # ---- API ---------------------------------------------------------------------------------
    def transform(self) -> Transform:
        return self._transform

    def set_transform(self, t: Transform) -> None:
        """Show ``t`` (from the document); emits nothing."""
        self._quiet = True
        try:
            self._transform = t
            self.show_transform(t)
            self._set_error(None)
            self.summary.setText(t.describe())
        finally:
            self._quiet = False

    # ---- internals ---------------------------------------------------------------------------
    def _set_error(self, msg: str | None, field: QWidget | None = None) -> None:
        self.error.setText(msg or "")
        self.error.setVisible(bool(msg))
        for w in self.findChildren(QWidget):
            if w.property("layoutBad"):
                w.setStyleSheet("")
                w.setProperty("layoutBad", False)
        if msg and field is not None:
            field.setStyleSheet(BAD)
            field.setProperty("layoutBad", True)
            field.setToolTip(msg)

    def _edited(self, field: QWidget | None = None) -> None:
        if self._quiet:
            return
        try:
            t = self.read()
        except (LayoutParseError, ValueError) as e:
            self._set_error(getattr(e, "message", str(e)), field)
            return
        self._set_error(None)
        self.summary.setText(t.describe())
        if t != self._transform:
            self._transform = t
            self.changed.emit(t)

    def _pasted(self) -> None:
        try:
            t = from_text(self.paste.text())
        except LayoutParseError as e:
            self._set_error(e.message, self.paste)
            self.paste.setCursorPosition(e.pos)
            return
        self.paste.clear()
        self._set_error(None)
        if t.kind == self.kind:
            self.set_transform(t)
        self._transform = t
        self.changed.emit(t)


class CuteLayoutEditor(LayoutEditor):
    kind = cute.KIND

    def build(self) -> None:
        self.text = QLineEdit()
        self.text.setPlaceholderText("Sw<3,4,3> o _0 o (_8,_64):(_64,_1)")
        self.text.setToolTip("shape:stride as CuTe prints it, optionally Sw<B,M,S> o offset o shape:stride "
                             "(offsets in elements)")
        self.text.textEdited.connect(lambda _t: self._edited(self.text))
        self.text.editingFinished.connect(self._jump_to_error)
        self.form.addRow("layout", self.text)

    def show_transform(self, t: Transform) -> None:
        self.text.setText(str(t.get("layout", "")))

    def read(self) -> Transform:
        return cute.make(self.text.text())

    def _jump_to_error(self) -> None:
        try:
            cute.parse(self.text.text())
        except LayoutParseError as e:
            self.text.setCursorPosition(e.pos)


class TritonSwizzledEditor(LayoutEditor):
    kind = triton.SWIZZLED

    def build(self) -> None:
        self.combos: dict[str, QComboBox] = {}
        for name, tip in (("vec", "elements kept together (a vector)"), ("perPhase", "rows that share one XOR value"),
                          ("maxPhase", "number of distinct XOR values")):
            c = QComboBox()
            for v in POW2:
                c.addItem(str(v), v)
            c.setToolTip(tip)
            c.currentIndexChanged.connect(lambda _i, w=c: self._edited(w))
            self.combos[name] = c
            self.form.addRow(name, c)
        self.order = QLineEdit()
        self.order.setPlaceholderText("1, 0")
        self.order.setToolTip("dimensions, fastest first: 1, 0 = row-major; 0, 1 = column-major")
        self.order.textEdited.connect(lambda _t: self._edited(self.order))
        self.form.addRow("order", self.order)

    def show_transform(self, t: Transform) -> None:
        for name, c in self.combos.items():
            v = t.get(name, 1)
            i = c.findData(v)
            if i < 0:
                c.addItem(str(v), v)
                i = c.count() - 1
            c.setCurrentIndex(i)
        o = t.get("order")
        self.order.setText(", ".join(map(str, o)) if o is not None else "")

    def read(self) -> Transform:
        text = self.order.text().strip().strip("[]")
        order = None
        if text:
            try:
                order = tuple(int(x) for x in text.replace(" ", ",").split(",") if x.strip())
            except ValueError:
                raise ValueError(f"order must be dimension numbers separated by commas, got {self.order.text()!r}")
        return triton.swizzled(self.combos["vec"].currentData(), self.combos["perPhase"].currentData(),
                               self.combos["maxPhase"].currentData(), order)


class TritonNvmmaEditor(LayoutEditor):
    kind = triton.NVMMA

    def build(self) -> None:
        self.width = QComboBox()
        for w in triton.NVMMA_WIDTHS:
            self.width.addItem(f"{w} bytes", w)
        self.width.setToolTip("swizzlingByteWidth: the row width of one swizzled box")
        self.width.currentIndexChanged.connect(lambda _i: self._edited(self.width))
        self.form.addRow("swizzlingByteWidth", self.width)
        self.transposed = QCheckBox("dimension 0 is contiguous")
        self.transposed.toggled.connect(lambda _b: self._edited(self.transposed))
        self.form.addRow("transposed", self.transposed)
        self._bits = None

    def show_transform(self, t: Transform) -> None:
        self.width.setCurrentIndex(max(0, self.width.findData(t.get("swizzlingByteWidth", 128))))
        self.transposed.setChecked(bool(t.get("transposed", False)))
        self._bits = t.get("elementBitWidth")

    def read(self) -> Transform:
        return triton.nvmma(self.width.currentData(), self.transposed.isChecked(), self._bits)


class TmaEditor(LayoutEditor):
    kind = tma.KIND

    def build(self) -> None:
        self.mode = QComboBox()
        for m in tma.MODES:
            sw = tma.swizzle_of(m)
            self.mode.addItem(f"SWIZZLE_{m.upper()}" + (f"  (= {sw} on bytes)" if sw else ""), m)
        self.mode.currentIndexChanged.connect(lambda _i: self._edited(self.mode))
        self.form.addRow("mode", self.mode)

    def show_transform(self, t: Transform) -> None:
        self.mode.setCurrentIndex(max(0, self.mode.findData(t.get("mode", "128B"))))

    def read(self) -> Transform:
        return tma.make(self.mode.currentData())


EDITORS: dict[str, type[LayoutEditor]] = {
    cute.KIND: CuteLayoutEditor,
    triton.SWIZZLED: TritonSwizzledEditor,
    triton.NVMMA: TritonNvmmaEditor,
    tma.KIND: TmaEditor,
}


def editor_for(kind: str, parent=None) -> LayoutEditor:
    """A new editor for one of the library layout kinds (KeyError for other kinds)."""
    return EDITORS[kind](parent)
