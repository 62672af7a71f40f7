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

:class:`AccessMenu` is the access side: the standard ``ldmatrix``/``stmatrix`` fragments, 16-byte
vector copies and a CuTe TV copy over the array being edited, each added as one undoable edit.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Callable

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (QCheckBox, QComboBox, QDialog, QDialogButtonBox, QFormLayout, QLabel, QLineEdit,
                               QMenu, QWidget)

from ..model.errors import BankExplorerError
from ..model.layout import Transform
from ..model.libraries import access, cute, from_text, tma, triton
from ..model.libraries.cute import LayoutParseError
from ..model.pattern import Instruction

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
        self.summary.setTextFormat(Qt.PlainText)  # "Sw<3,4,3>" is not a tag
        self.summary.setWordWrap(True)
        self.summary.setTextInteractionFlags(Qt.TextSelectableByMouse)  # so it can be copied back
        self.form.addRow(self.summary)
        self.error = QLabel()
        self.error.setTextFormat(Qt.PlainText)
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

    def describe(self, t: Transform) -> str:
        """The line under the fields: what the layout is (and, per kind, what to do with it)."""
        return t.describe()

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
            self.summary.setText(self.describe(t))
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
        self.summary.setText(self.describe(t))
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
        self.text.setToolTip("shape:stride as CuTe's print() writes it, optionally composed with a swizzle:\n"
                             "Sw<B,M,S> o _0 o (_8,_64):(_64,_1)  swizzles element offsets;\n"
                             "Sw<B,M,S> o smem_ptr[16b](unset) o (_8,_64):(_64,_1)  swizzles byte addresses "
                             "(GMMA/TMA atoms)")
        self.text.textEdited.connect(lambda _t: self._edited(self.text))
        self.text.editingFinished.connect(self._jump_to_error)
        self.form.addRow("layout", self.text)

    def show_transform(self, t: Transform) -> None:
        self.text.setText(str(t.get("layout", "")))

    def describe(self, t: Transform) -> str:
        """An M-major layout (stride 1 on a mode before the last) says how it is read: 16-byte
        accesses run along that mode, and Add library access offers them."""
        text = t.describe()
        try:
            lay = cute.parse(str(t.get("layout", ""))).layout
        except LayoutParseError:
            return text
        unit = [k for k, (_s, d) in enumerate(lay.modes) if cute.flatten(d)[0] == 1 and cute.flatten(_s)[0] > 1]
        if lay.rank >= 2 and unit and unit[0] == lay.rank - 2:
            k = unit[0]
            text += (f"\nM-major: mode {k} has stride 1, so 16-byte accesses (ldmatrix.trans / stmatrix rows, "
                     f"float4) run along it; Add library access offers them that way")
        return text

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
            self.width.addItem(f"{w} bytes" if w else "0 (no swizzle)", w)
        self.width.setToolTip("swizzlingByteWidth: the row width of one swizzled box")
        self.width.currentIndexChanged.connect(lambda _i: self._edited(self.width))
        self.form.addRow("swizzlingByteWidth", self.width)
        self.transposed = QCheckBox("dimension 0 is contiguous")
        self.transposed.toggled.connect(lambda _b: self._edited(self.transposed))
        self.form.addRow("transposed", self.transposed)
        self.bits = QComboBox()
        self.bits.addItem("the array's type", None)
        for b in (8, 16, 32, 64):
            self.bits.addItem(f"{b} bits", b)
        self.bits.setToolTip("elementBitWidth as TTGIR prints it; it must match the array's element type")
        self.bits.currentIndexChanged.connect(lambda _i: self._edited(self.bits))
        self.form.addRow("elementBitWidth", self.bits)

    def show_transform(self, t: Transform) -> None:
        self.width.setCurrentIndex(max(0, self.width.findData(t.get("swizzlingByteWidth", 128))))
        self.transposed.setChecked(bool(t.get("transposed", False)))
        self.bits.setCurrentIndex(max(0, self.bits.findData(t.get("elementBitWidth"))))

    def read(self) -> Transform:
        return triton.nvmma(self.width.currentData(), self.transposed.isChecked(), self.bits.currentData())


class TmaEditor(LayoutEditor):
    kind = tma.KIND

    def build(self) -> None:
        self.mode = QComboBox()
        for m in tma.MODES:
            sw = tma.swizzle_of(m)
            self.mode.addItem(f"SWIZZLE_{m.upper()}" + (f"  = {sw}" if sw else ""), m)
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


# ---- the access side ------------------------------------------------------------------------------
class TvCopyDialog(QDialog):
    """Asks for a CuTe TV layout (as ``print(tiled_copy)`` shows ``LayoutTV``) and the vector
    width; :meth:`instruction` builds the copy over ``arr`` or says what is wrong, where."""

    def __init__(self, arr, parent=None):
        super().__init__(parent)
        self.arr = arr
        self.setWindowTitle(f"CuTe TV copy of {arr.name}")
        f = QFormLayout(self)
        self.text = QLineEdit("((_8,_16),_8):((_128,_1),_16)" if tuple(arr.dims) == (16, 64) else "")
        self.text.setPlaceholderText("((_8,_16),_8):((_128,_1),_16)   (thread, value) -> tile index")
        self.text.setToolTip("LayoutTV of the tiled copy: (threads, values) -> index into the tile, which is "
                             "indexed column-major (m = i % M, n = i / M) as CuTe does")
        self.text.setMinimumWidth(360)
        f.addRow("LayoutTV", self.text)
        self.vector = QComboBox()
        for v in (1, 2, 4, 8, 16):
            if v * arr.elem_size in (1, 2, 4, 8, 16):
                self.vector.addItem(f"{v} values ({v * arr.elem_size} B)", v)
        self.vector.setCurrentIndex(self.vector.count() - 1)
        f.addRow("vector", self.vector)
        self.error = QLabel()
        self.error.setTextFormat(Qt.PlainText)
        self.error.setWordWrap(True)
        self.error.setStyleSheet("color:#c01010;")
        f.addRow(self.error)
        buttons = QDialogButtonBox(QDialogButtonBox.Ok | QDialogButtonBox.Cancel)
        buttons.accepted.connect(self._accept)
        buttons.rejected.connect(self.reject)
        f.addRow(buttons)
        self.result_instruction: Instruction | None = None
        self.threads = 0

    def instruction(self) -> Instruction:
        tile = tuple(self.arr.dims) if self.arr.ndim <= 2 else None
        if tile is None:
            raise BankExplorerError(f"a TV copy indexes a 1-D or 2-D tile; {self.arr.name} has {self.arr.ndim} dims")
        return access.tv_copy(self.text.text(), tile, self.arr.name, self.vector.currentData(),
                              elem_size=self.arr.elem_size, arr=self.arr,
                              label=f"CuTe TV copy {self.text.text().strip()} of {self.arr.name}")

    def _accept(self) -> None:
        self.text.setStyleSheet("")
        try:
            self.result_instruction = self.instruction()
            self.threads = cute.product(cute.parse(self.text.text()).layout.modes[0][0])
        except LayoutParseError as e:
            self.error.setText(e.message)
            self.text.setStyleSheet(BAD)
            self.text.setCursorPosition(e.pos)
            return
        except BankExplorerError as e:
            self.error.setText(str(e))
            return
        self.accept()


class AccessMenu(QMenu):
    """Add an access to the array being edited, as the libraries issue it: ``ldmatrix`` /
    ``stmatrix`` ``.x1/.x2/.x4(.trans)`` fragments over the whole tile, 16-byte vector loads and
    stores (float4), or a CuTe TV copy. Each is one undoable edit that selects the new
    instruction; a layout the access cannot read (say, a column-major tile for ``ldmatrix``)
    is refused with the reason in :attr:`message`."""

    message = Signal(str)

    def __init__(self, doc, array_index: Callable[[], int] | None = None, parent=None):
        super().__init__("Add library access", parent)
        self.doc = doc
        self._array_index = array_index
        self.last_message = ""
        self._texts: dict[object, str] = {}  # action -> its text for a K-major (row-major) tile
        for kind in ("ldmatrix", "stmatrix"):
            sub = self.addMenu(kind)
            for trans in (False, True):
                for m in (1, 2, 4):
                    name = f"{kind}.x{m}{'.trans' if trans else ''}"
                    a = sub.addAction(name)
                    a.setObjectName(name)
                    a.triggered.connect(lambda _c=False, k=kind, m=m, t=trans: self.add_fragment(k, m, t))
                    self._texts[a] = name
        self.addSeparator()
        for kind in ("load", "store"):
            a = self.addAction(f"16-byte {kind}s (float4) of the whole array")
            a.setObjectName(f"{kind}.v16")
            a.triggered.connect(lambda _c=False, k=kind: self.add_vectors(k))
            self._texts[a] = a.text()
        self.aboutToShow.connect(self.refresh)
        a = self.addAction("CuTe TV copy…")
        a.setObjectName("tv-copy")
        a.triggered.connect(self.ask_tv_copy)

    def array(self):
        p = self.doc.pattern
        if not p.arrays:
            return None
        k = self._array_index() if self._array_index else -1
        if not 0 <= k < len(p.arrays):
            ins = p.instructions[self.doc.selection.instruction] if p.instructions else None
            names = [a.name for a in p.arrays]
            k = names.index(ins.array) if ins is not None and ins.array in names else 0
        return p.arrays[k]

    def refresh(self) -> str:
        """Name the entries for the array being edited: on an M-major tile (16-byte runs along
        the dimension before the last) the fragments and vectors are read along M, as CUTLASS
        reads such a tile with ``ldmatrix.trans``. Returns "M", "K" or "" (see ``access.major``)."""
        arr = self.array()
        major = ""
        if arr is not None and arr.ndim >= 2 and arr.elem_size <= 16:
            try:
                major = access.major(arr, max(1, 16 // arr.elem_size))
            except BankExplorerError:
                major = ""
        for a, text in self._texts.items():
            if major == "M":
                what = "16-byte rows along" if "matrix" in text else "along"
                a.setText(f"{text}  (M-major: {what} dimension {arr.ndim - 2})")
            else:
                a.setText(text)
        return major

    def _say(self, text: str) -> None:
        self.last_message = text
        self.message.emit(text)

    def add(self, build: Callable[[object], Instruction], threads: int | None = None) -> bool:
        arr = self.array()
        if arr is None:
            self._say("define a shared array first")
            return False
        try:
            ins = build(arr)
        except BankExplorerError as e:
            self._say(f"cannot add the access: {e}")
            return False
        p = self.doc.pattern
        if threads and threads > p.threads:
            p = replace(p, block=(threads, 1, 1))
        p = replace(p, instructions=p.instructions + (ins,))
        if not self.doc.apply(p, f"add {ins.label or ins.kind}"):
            self._say("cannot add the access: " + "; ".join(m for _w, m in self.doc.errors))
            return False
        self.doc.select(instruction=len(p.instructions) - 1)
        self._say(f"added {ins.label}")
        return True

    def add_fragment(self, kind: str, matrices: int, trans: bool) -> bool:
        return self.add(lambda a: access.fragment_sweep(a, matrices, kind=kind, trans=trans))

    def add_vectors(self, kind: str, width: int = 16) -> bool:
        return self.add(lambda a: access.vector_sweep(a, self.doc.pattern.threads, width, kind))

    def ask_tv_copy(self) -> None:
        arr = self.array()
        if arr is None:
            self._say("define a shared array first")
            return
        dlg = TvCopyDialog(arr, self.parentWidget())
        if dlg.exec() == QDialog.Accepted and dlg.result_instruction is not None:
            self.add_tv_copy(dlg.result_instruction, dlg.threads)

    def add_tv_copy(self, ins: Instruction, threads: int) -> bool:
        """Add a TV copy; the block grows to the copy's thread count if it has fewer threads."""
        return self.add(lambda _a: ins, threads)
