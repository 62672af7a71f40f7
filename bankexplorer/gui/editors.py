"""The side panel: a field for everything in the model. Every change is one ``Document.apply``;
a rejected change turns its field red with the reason in the tooltip and the label below, and
the document (so every view) keeps its last valid state. No dialogs.
"""

from __future__ import annotations

from dataclasses import replace

from PySide6.QtCore import QEvent, QPoint, QRect, QSize, Qt, Signal
from PySide6.QtGui import QKeySequence, QValidator
from PySide6.QtWidgets import (
    QApplication, QCheckBox, QComboBox, QFormLayout, QGroupBox, QHBoxLayout, QLabel, QLayout, QLineEdit, QPushButton,
    QScrollArea, QSpinBox, QVBoxLayout, QWidget,
)

from ..model.hardware import ATOMIC_OPS, PRESETS, SPACES, WIDTHS
from ..model.layout import DTYPES, TRANSFORM_INFO, TRANSFORMS, Transform
from ..model import libraries
from ..model.pattern import KINDS, MAX_LOOP_ITERATIONS, Instruction, Loop, Pattern
from .document import Document
from .views.summary import shared_memory_warning
from .layout_editors import EDITORS as LAYOUT_EDITORS, LayoutEditor, editor_for
from .scroll_bar import flat_scroll_bars

BAD = "background:#ffd6d6; border:1px solid #d02020;"
#: the instruction's note (how it compiles, what it really reads): amber, not the red of an error
NOTE = "background:#fff4d6; border:1px solid #d8a020; border-radius:3px; padding:3px; color:#503800;"

#: item text of the "space" combo
SPACE_ITEMS = {"shared": "shared (LDS/STS)", "generic": "generic pointer (LD/ST)"}
#: item text of each atomic operation (the CUDA call a user writes)
OP_ITEMS = {
    "add": "add (atomicAdd)", "fadd": "float add", "min": "min (atomicMin)", "max": "max (atomicMax)",
    "inc": "inc (atomicInc)", "dec": "dec (atomicDec)", "and": "and (atomicAnd)", "or": "or (atomicOr)",
    "xor": "xor (atomicXor)", "exch": "exch (atomicExch)", "cas": "cas (atomicCAS)",
}
SPACE_ITEM_TIPS = {
    "shared": "LDS/STS: 8- and 16-byte loads of half-warps that read the same addresses merge into one wavefront",
    "generic": "LD/ST through a generic pointer: 8- and 16-byte loads never merge half-warps",
}
OP_ITEM_TIPS = {
    "add": "one ATOMS pass on a 32-bit integer array; on a float or 64-bit array: a compare-and-swap loop",
    "fadd": "no float add in hardware: a load plus a compare-and-swap loop, costs like a CAS per iteration",
    "cas": "compare-and-swap: two passes through the banks",
    "exch": "one ATOMS pass, also for 64-bit words",
}
for _op in ("min", "max", "inc", "dec", "and", "or", "xor"):
    OP_ITEM_TIPS[_op] = "one ATOMS pass on 32-bit words; 64-bit: a compare-and-swap loop"
SPACE_TIP = ("Loads and stores only. shared: through a __shared__ array (LDS/STS); 8- and 16-byte loads "
             "merge half-warps that read the same addresses into one wavefront. generic: through a "
             "generic pointer the compiler cannot prove is shared (LD/ST); its 8/16-byte loads never "
             "merge, so the same addresses can cost twice the wavefronts.")
OP_TIP = ("Atomics only. 32-bit add/min/max/inc/dec/and/or/xor/exch: one ATOMS pass. cas: two passes "
          "through the banks. add on a float array (a float add), and 64-bit add/min/max/...: no such "
          "instruction, compiled to a load plus a compare-and-swap loop that costs like a CAS per "
          "iteration and retries when lanes share an address.")


class FieldSpin(QSpinBox):
    """A side-panel spin box. A number typed past its range stays in the field and is reported
    (:attr:`outOfRange`) instead of Qt refusing the keystroke (99999 silently became 999) or
    clamping it; typing applies when editing finishes (Enter, focus out), arrows at once."""

    outOfRange = Signal(str)

    def validate(self, text: str, pos: int):
        state, text, pos = super().validate(text, pos)
        if state == QValidator.State.Invalid and self._number(text) is not None:
            state = QValidator.State.Intermediate  # out of range: shown, then reported
        return state, text, pos

    def _number(self, text: str) -> int | None:
        t = text.strip()
        if self.prefix() and t.startswith(self.prefix()):
            t = t[len(self.prefix()):]
        if self.suffix() and t.endswith(self.suffix()):
            t = t[: -len(self.suffix())]
        try:
            return int(t.strip())
        except ValueError:
            return None

    def fixup(self, text: str):
        """Called with text that is not a valid value, as editing finishes: say why it is refused
        (Qt then puts the last valid value back)."""
        v = self._number(text)
        if v is not None and not self.minimum() <= v <= self.maximum():
            self.outOfRange.emit(f"{v} is out of range: {self.minimum()} to {self.maximum()}; "
                                 f"kept {self.value()}")
        return super().fixup(text)


def _spin(lo: int, hi: int, step: int = 1) -> FieldSpin:
    s = FieldSpin()
    s.setRange(lo, hi)
    s.setSingleStep(step)
    s.setKeyboardTracking(False)
    return s


def _parse_value(text: str):
    t = text.strip()
    try:
        return int(t, 0)
    except ValueError:
        return t


class PageStack(QWidget):
    """QStackedWidget's API, but only as tall as the page shown: a QStackedWidget keeps room for
    its biggest page (the CuTe editor), which left a screen of blank space under "layout"."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self._lay = QVBoxLayout(self)
        self._lay.setContentsMargins(0, 0, 0, 0)
        self._pages: list[QWidget] = []
        self._current = -1

    def addWidget(self, w: QWidget) -> int:  # noqa: N802 - QStackedWidget's name
        self._pages.append(w)
        self._lay.addWidget(w)
        w.setVisible(len(self._pages) == 1)
        if self._current < 0:
            self._current = 0
        return len(self._pages) - 1

    def setCurrentIndex(self, i: int) -> None:  # noqa: N802
        if i == self._current or not 0 <= i < len(self._pages):
            return
        self._pages[self._current].setVisible(False)
        self._current = i
        self._pages[i].setVisible(True)

    def currentIndex(self) -> int:  # noqa: N802
        return self._current

    def currentWidget(self) -> QWidget | None:  # noqa: N802
        return self._pages[self._current] if self._current >= 0 else None

    def widget(self, i: int) -> QWidget:
        return self._pages[i]

    def replace(self, i: int, w: QWidget) -> None:
        """Page ``i`` is ``w`` now (shown if page ``i`` was); the old page is deleted."""
        old = self._pages[i]
        self._lay.replaceWidget(old, w)
        w.setVisible(i == self._current)
        self._pages[i] = w
        old.deleteLater()

    def count(self) -> int:
        return len(self._pages)


class FlowLayout(QLayout):
    """A row of buttons that wraps onto a second line when the panel is too narrow for it (the
    instruction buttons, plus whatever a tool adds to them), instead of squeezing their text."""

    def __init__(self, parent: QWidget | None = None, spacing: int = 4):
        super().__init__(parent)
        self._items = []
        self.setContentsMargins(0, 0, 0, 0)
        self.setSpacing(spacing)

    def addItem(self, item) -> None:  # noqa: N802 - Qt's names from here on
        self._items.append(item)

    def count(self) -> int:
        return len(self._items)

    def itemAt(self, i: int):
        return self._items[i] if 0 <= i < len(self._items) else None

    def takeAt(self, i: int):
        return self._items.pop(i) if 0 <= i < len(self._items) else None

    def expandingDirections(self) -> Qt.Orientation:
        return Qt.Orientation(0)

    def hasHeightForWidth(self) -> bool:
        return True

    def heightForWidth(self, width: int) -> int:
        return self._place(QRect(0, 0, width, 0), move=False)

    def setGeometry(self, rect: QRect) -> None:
        super().setGeometry(rect)
        self._place(rect, move=True)

    def sizeHint(self) -> QSize:
        w = sum(i.sizeHint().width() for i in self._items) + self.spacing() * max(len(self._items) - 1, 0)
        h = max((i.sizeHint().height() for i in self._items), default=0)
        return QSize(w, h)

    def minimumSize(self) -> QSize:
        w = max((i.minimumSize().width() for i in self._items), default=0)
        return QSize(w, self.heightForWidth(w))

    def _place(self, rect: QRect, move: bool) -> int:
        """Lay the items out in lines, each line's items stretched to fill it; returns the height."""
        lines: list[list] = [[]]
        used = 0
        for it in self._items:
            if it.isEmpty():
                continue
            w = it.sizeHint().width()
            if lines[-1] and used + self.spacing() + w > rect.width():
                lines.append([])
                used = 0
            used += (self.spacing() if lines[-1] else 0) + w
            lines[-1].append(it)
        y = rect.y()
        for line in lines:
            if not line:
                continue
            h = max(it.sizeHint().height() for it in line)
            if move:
                natural = sum(it.sizeHint().width() for it in line) + self.spacing() * (len(line) - 1)
                extra = max(rect.width() - natural, 0) // len(line)
                x = rect.x()
                for it in line:
                    w = min(it.sizeHint().width() + extra, rect.width())
                    it.setGeometry(QRect(QPoint(x, y), QSize(w, h)))
                    x += w + self.spacing()
            y += h + self.spacing()
        return max(y - rect.y() - self.spacing(), 0)


#: what :meth:`EditorPanel.eventFilter` looks at in its fields' events
_FILTERED_EVENTS = frozenset({QEvent.Type.Resize, QEvent.Type.ShortcutOverride, QEvent.Type.KeyPress,
                              QEvent.Type.Wheel})


class EditorPanel(QScrollArea):
    """Editors for hardware, block, the selected array and the selected instruction."""

    title = "Edit"

    def __init__(self, doc: Document, parent=None):
        super().__init__(parent)
        self.doc = doc
        self.setWidgetResizable(True)
        flat_scroll_bars(self)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setMinimumWidth(260)
        self._session = 1
        self._field_ids: dict[str, int] = {}
        self._bad: dict[QWidget, str] = {}
        self._syncing = False
        body = QWidget()
        lay = QVBoxLayout(body)
        lay.setContentsMargins(4, 4, 4, 4)
        self.fields: dict[str, QWidget] = {}
        lay.addWidget(self._hardware_box())
        lay.addWidget(self._array_box())
        lay.addWidget(self._instruction_box())
        self.error_label = QLabel()
        self.error_label.setWordWrap(True)
        self.error_label.setStyleSheet("color:#c01010;")
        lay.addWidget(self.error_label)
        lay.addStretch(1)
        self.setWidget(body)
        self._fit_narrow(body)
        self._guard_wheel(body)
        doc.patternChanged.connect(self.sync)
        doc.selectionChanged.connect(self.sync)
        doc.errorsChanged.connect(self._show_errors)
        self._shown_instruction = doc.selection.instruction
        doc.selectionChanged.connect(self._follow_instruction)
        doc.loaded.connect(self._forget_instruction)
        self.sync()

    def _forget_instruction(self) -> None:
        self._shown_instruction = self.doc.selection.instruction

    def _follow_instruction(self) -> None:
        """Picking another instruction (in the list, the timeline) scrolls its editor into view:
        below the hardware and array boxes it starts under the fold of a 1000-pixel window."""
        k = self.doc.selection.instruction
        if k == self._shown_instruction:
            return
        self._shown_instruction = k
        body = self.widget()
        if body.layout() is not None:
            body.layout().activate()  # the box's position after the latest sync
        top = self.ins_box.y()
        bar = self.verticalScrollBar()
        view = self.viewport().height()
        if top < bar.value() or top + min(self.ins_box.height(), view) > bar.value() + view:
            bar.setValue(min(top - 4, bar.maximum()))

    # ---- construction ------------------------------------------------------------------------
    def eventFilter(self, obj, ev) -> bool:  # noqa: N802 - Qt's name
        """The wheel over a combo or spin box that the user has not clicked into scrolls the
        panel, instead of silently changing the instruction's kind or the padding."""
        if ev.type() not in _FILTERED_EVENTS:  # most events of the fields (paints, moves, ...)
            return super().eventFilter(obj, ev)
        if obj is self.note_label and ev.type() == QEvent.Type.Resize:
            self._fit_note()
            return False
        if ev.type() in (QEvent.Type.ShortcutOverride, QEvent.Type.KeyPress) and self._is_undo_key(ev):
            if self._undo_goes_to_window(obj):
                if ev.type() == QEvent.Type.ShortcutOverride:
                    ev.ignore()  # not the field's: the window's Undo / Redo action takes the key
                    return True
            elif isinstance(obj, QLineEdit):  # typed, not applied: Ctrl+Z puts the document's value back
                if ev.type() == QEvent.Type.ShortcutOverride:
                    ev.accept()
                elif ev.matches(QKeySequence.StandardKey.Undo):
                    obj.setModified(False)
                    self._mark(obj, None)
                    self.error_label.setText("")
                    self.sync()
                return True
        if ev.type() == QEvent.Type.Wheel and isinstance(obj, (QComboBox, QSpinBox)) and not obj.hasFocus():
            QApplication.sendEvent(self.verticalScrollBar(), ev)
            return True
        return super().eventFilter(obj, ev)

    def _guard_wheel(self, body: QWidget) -> None:
        for w in body.findChildren(QComboBox) + body.findChildren(QSpinBox):
            w.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
            w.installEventFilter(self)
        for w in self.fields.values():
            if isinstance(w, QLineEdit):
                w.installEventFilter(self)

    def _wire_spin(self, key: str, w: QSpinBox) -> None:
        w.valueChanged.connect(lambda _v, k=key: self._edited(k))
        w.editingFinished.connect(self._end_session)
        if isinstance(w, FieldSpin):
            w.outOfRange.connect(lambda msg, k=key, w=w: self._mark(w, f"{self._label_of(k)}: {msg}"))

    def _wire_line(self, key: str, w: QLineEdit) -> None:
        """A text field applies when editing finishes (Enter, focus out), not per keystroke: a
        state passed while typing (``100000`` on the way to ``100000 x 100000``) is never applied."""
        w.editingFinished.connect(lambda k=key, w=w: self._commit_line(k, w))

    def _commit_line(self, key: str, w: QLineEdit) -> None:
        self._edited(key)
        if w not in self._bad:
            w.setModified(False)  # nothing typed is left to apply: Ctrl+Z now undoes the document
        self._end_session()

    def _label_of(self, key: str) -> str:
        w = self.fields[key]
        form = w.parentWidget().layout() if w.parentWidget() is not None else None
        lab = form.labelForField(w) if isinstance(form, QFormLayout) else None
        return lab.text() if isinstance(lab, QLabel) else key.split(".")[-1]

    @staticmethod
    def _is_undo_key(ev) -> bool:
        from .keys import redo_keys

        seq = QKeySequence(ev.keyCombination())
        return ev.matches(QKeySequence.StandardKey.Undo) or any(
            seq.matches(k) == QKeySequence.SequenceMatch.ExactMatch for k in redo_keys())

    def _undo_goes_to_window(self, obj) -> bool:
        """Ctrl+Z / Ctrl+Shift+Z / Ctrl+Y in a field: the document's undo, unless the field holds
        typed text not applied yet (Ctrl+Z then puts the document's value back in the field). A
        spin box's keys always reach the document."""
        if isinstance(obj, QSpinBox):
            return True
        return isinstance(obj, QLineEdit) and not obj.isModified()

    @staticmethod
    def _fit_narrow(body: QWidget) -> None:
        """Let the panel be ~300 px wide: combo boxes do not grow with their longest item, spin
        boxes not with their range, and a form row that still does not fit puts its field under
        its label."""
        for c in body.findChildren(QComboBox):
            c.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
            c.setMinimumContentsLength(6)
            c.setMinimumWidth(max(70, int(c.property("leastWidth") or 0)))  # (a preset's name stays whole)
        for sb in body.findChildren(QSpinBox):
            sb.setMinimumWidth(52)
        for form in body.findChildren(QFormLayout):
            form.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapLongRows)

    def _add(self, form: QFormLayout, key: str, label: str, w: QWidget, tip: str = "") -> QWidget:
        self.fields[key] = w
        if isinstance(w, QComboBox):  # long item texts must not widen the panel
            w.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
            w.setMinimumContentsLength(8)
        if tip:
            w.setToolTip(tip)
            w.setProperty("baseTip", tip)
        form.addRow(label, w)
        if isinstance(w, QSpinBox):
            self._wire_spin(key, w)
        elif isinstance(w, QLineEdit):
            self._wire_line(key, w)
        elif isinstance(w, QComboBox):
            w.currentIndexChanged.connect(lambda _i, k=key: self._edited(k))
        elif isinstance(w, QCheckBox):
            w.toggled.connect(lambda _b, k=key: self._edited(k))
        return w

    def _hardware_box(self) -> QGroupBox:
        box = QGroupBox("Hardware and block")
        f = QFormLayout(box)
        preset = QComboBox()
        for key, hw in PRESETS.items():
            preset.addItem(hw.name, key)
        self._add(f, "hw.preset", "preset", preset)
        # a preset's whole name (where the label column leaves too little, the row wraps under its label)
        fm = preset.fontMetrics()
        preset.setProperty("leastWidth", max(fm.horizontalAdvance(hw.name) for hw in PRESETS.values()) + 44)  # + arrow
        self._add(f, "hw.banks", "banks", _spin(1, 64))
        self._add(f, "hw.bank_width", "bank width (B)", _spin(1, 16))
        self._add(f, "hw.warp_size", "warp size", _spin(1, 64))
        row = QWidget()
        h = QHBoxLayout(row)
        h.setContentsMargins(0, 0, 0, 0)
        for d in "xyz":
            s = _spin(1, 1024)
            self.fields[f"block.{d}"] = s
            self._wire_spin(f"block.{d}", s)
            h.addWidget(s)
        f.addRow("block (x y z)", row)
        return box

    def _array_box(self) -> QGroupBox:
        box = QGroupBox("Shared array")
        f = QFormLayout(box)
        self.array_pick = QComboBox()
        self.array_pick.currentIndexChanged.connect(lambda _i: self.sync())
        f.addRow("array", self.array_pick)
        self._add(f, "arr.name", "name", QLineEdit())
        dt = QComboBox()
        dt.addItems(list(DTYPES))
        self._add(f, "arr.dtype", "element type", dt)
        self._add(f, "arr.dims", "dimensions", QLineEdit(), "e.g. 32 x 32 (1 to 3 dimensions)")
        self._add(f, "arr.padding", "padding", _spin(0, 4096),
                  "elements added at the end of each row (the last dimension); also: drag the dashed "
                  "edge in the tile view")
        self._add(f, "arr.base", "base (bytes)", _spin(0, 1 << 24, 16))
        # the arrays past what one block can have (an H100: 227 KiB): accepted, and said here
        self.shared_note = QLabel()
        self.shared_note.setWordWrap(True)
        self.shared_note.setStyleSheet(NOTE)
        self.shared_note.setVisible(False)
        f.addRow(self.shared_note)
        kind = QComboBox()
        for k in TRANSFORMS:
            kind.addItem(TRANSFORM_INFO[k].label, k)
        self._add(f, "arr.kind", "layout", kind,
                  "how an index becomes an address: plain row-major, an XOR or CuTe swizzle, a remap, "
                  "or a layout as CuTe / Triton / the TMA write it")
        self.t_stack = PageStack()
        self.t_pages: dict[str, int] = {}
        pages = {
            "none": [],
            "xor": [("target", "XOR into dimension", _spin(0, 2)), ("expr", "with", QLineEdit())],
            "cute": [("B", "B (bits)", _spin(0, 8)), ("M", "M (base)", _spin(0, 16)), ("S", "S (shift)", _spin(-16, 16)),
                     ("unit", "on offsets of", QComboBox())],
            "remap": [("expr", "i →", QLineEdit())],
        }
        #: CuTe / Triton / TMA: their own editors, with a paste line, each made the first time its
        #: kind is chosen (a blank page until then: most arrays never use them)
        self.layout_editors: dict[str, LayoutEditor] = {}
        for k in TRANSFORMS:
            if k in LAYOUT_EDITORS:
                self.t_pages[k] = self.t_stack.addWidget(QWidget())
                continue
            page = QWidget()
            pf = QFormLayout(page)
            pf.setContentsMargins(0, 0, 0, 0)
            for name, label, w in pages.get(k, [("params", "parameters", QLineEdit())]):
                if isinstance(w, QComboBox):
                    w.addItems(["element", "byte"])
                self._add(pf, f"t.{k}.{name}", label, w,
                          "name=value, ..." if name == "params" else "")
            self.t_pages[k] = self.t_stack.addWidget(page)
        f.addRow(self.t_stack)
        return box


    def _instruction_box(self) -> QGroupBox:
        box = QGroupBox("Instruction")
        self.ins_box = box
        f = QFormLayout(box)
        btns = QWidget()
        self.button_row = FlowLayout(btns)
        self.add_btn = QPushButton("Duplicate")
        self.add_btn.setToolTip("Insert a copy of this instruction after it")
        self.del_btn = QPushButton("Remove")
        self.del_btn.setToolTip("Remove this instruction from the pattern")
        self.add_btn.clicked.connect(self._duplicate)
        self.del_btn.clicked.connect(self._remove)
        self.button_row.addWidget(self.add_btn)
        self.button_row.addWidget(self.del_btn)
        f.addRow(btns)
        self.note_label = QLabel()
        self.note_label.setWordWrap(True)
        self.note_label.setStyleSheet(NOTE)
        self.note_label.setVisible(False)
        self.note_label.setToolTip("How this instruction compiles, or what its accesses really read")
        self.note_label.installEventFilter(self)  # its height follows its width (_fit_note)
        f.addRow(self.note_label)
        kind = QComboBox()
        kind.addItems(list(KINDS))
        self._add(f, "ins.kind", "kind", kind)
        space = QComboBox()
        for v in SPACES:
            space.addItem(SPACE_ITEMS.get(v, v), v)
        self._add(f, "ins.space", "space", space, SPACE_TIP)
        for i, v in enumerate(SPACES):
            space.setItemData(i, SPACE_ITEM_TIPS.get(v, ""), Qt.ItemDataRole.ToolTipRole)
        op = QComboBox()
        for i, v in enumerate(ATOMIC_OPS):
            op.addItem(OP_ITEMS.get(v, v), v)
            op.setItemData(i, OP_ITEM_TIPS.get(v, OP_ITEM_TIPS["add"]), Qt.ItemDataRole.ToolTipRole)
        self._add(f, "ins.op", "operation", op, OP_TIP)
        width = QComboBox()
        width.addItem("element size", None)
        for w in WIDTHS:
            width.addItem(f"{w} bytes", w)
        self._add(f, "ins.width", "width/lane", width, "bytes each lane reads or writes")
        mats = QComboBox()
        for m in (1, 2, 4):
            mats.addItem(f".x{m}", m)
        self._add(f, "ins.matrices", "matrices", mats)
        self._add(f, "ins.trans", "transposed", QCheckBox(".trans"))
        self._add(f, "ins.array", "array", QComboBox())
        for d in range(3):
            self._add(f, f"ins.index{d}", f"index [{d}]", QLineEdit(),
                      "C expression of threadIdx.x/y/z, lane, warp, tid, loop variables, constants")
        self._add(f, "ins.loop", "loop", QCheckBox("for var in range"),
                  "for (var = start; var < stop; var += step): one warp instruction per value")
        row = QWidget()
        h = QHBoxLayout(row)
        h.setContentsMargins(0, 0, 0, 0)
        self.fields["loop.var"] = QLineEdit()
        self.fields["loop.var"].setMaximumWidth(50)
        self.fields["loop.start"] = _spin(-MAX_LOOP_ITERATIONS * 64, MAX_LOOP_ITERATIONS * 64)
        self.fields["loop.stop"] = _spin(-MAX_LOOP_ITERATIONS * 64, MAX_LOOP_ITERATIONS * 64)
        self.fields["loop.step"] = _spin(-4096, 4096)
        for key in ("loop.var", "loop.start", "loop.stop", "loop.step"):
            w = self.fields[key]
            w.setToolTip(key.split(".")[1])
            w.setProperty("baseTip", key.split(".")[1])
            if isinstance(w, QLineEdit):
                self._wire_line(key, w)
            else:
                self._wire_spin(key, w)
            h.addWidget(w)
        f.addRow("var, range", row)
        self._add(f, "ins.active", "active if", QLineEdit(), "condition; empty = every thread")
        self._add(f, "ins.repeat", "repeat count", _spin(1, 2**31 - 1))
        self._add(f, "ins.label", "label", QLineEdit())
        return box

    # ---- model -> widgets --------------------------------------------------------------------
    def _array_index(self) -> int:
        p = self.doc.pattern
        k = self.array_pick.currentIndex()
        return k if 0 <= k < len(p.arrays) else 0

    def sync(self) -> None:
        """Show the document's state in the fields (a focused text field keeps what is typed)."""
        if self._syncing:
            return
        self._syncing = True
        try:
            self._sync()
        finally:
            self._syncing = False

    def _set(self, key: str, value) -> None:
        """Show ``value`` in the field (signals held while it changes); a field that already
        shows it is left alone (a sync touches every field, and an edit changes one or two)."""
        w = self.fields[key]
        if isinstance(w, QSpinBox):
            if w.value() != value:
                w.blockSignals(True)
                w.setValue(int(value))
                w.blockSignals(False)
        elif isinstance(w, QLineEdit):
            if not (w.hasFocus() and (w in self._bad or w.isModified())) and w.text() != str(value):
                w.blockSignals(True)
                w.setText(str(value))
                if not w.hasFocus():
                    w.setCursorPosition(0)  # a long label or expression shows its start
                w.blockSignals(False)
            elif w.hasFocus():
                return  # what is typed there stays marked until it is applied
        elif isinstance(w, QComboBox):
            if value is not None and w.currentIndex() >= 0 and w.currentData() == value:
                i = w.currentIndex()  # already shown (findData walks the items)
            else:
                i = 0 if value is None else w.findData(value)
                if i < 0:
                    i = w.findText(str(value))
            if i != w.currentIndex():
                w.blockSignals(True)
                w.setCurrentIndex(i)
                w.blockSignals(False)
        elif isinstance(w, QCheckBox):
            if w.isChecked() != bool(value):
                w.blockSignals(True)
                w.setChecked(bool(value))
                w.blockSignals(False)
        if w in self._bad:
            self._mark(w, None)

    def _sync(self) -> None:
        p = self.doc.pattern
        hw = p.hardware
        self._set("hw.preset", hw.preset)
        self._set("hw.banks", hw.banks)
        self._set("hw.bank_width", hw.bank_width)
        self._set("hw.warp_size", hw.warp_size)
        for d, v in zip("xyz", p.block):
            self._set(f"block.{d}", v)
        self.array_pick.blockSignals(True)
        names = [a.name for a in p.arrays]
        if [self.array_pick.itemText(i) for i in range(self.array_pick.count())] != names:
            cur = self.array_pick.currentIndex()
            self.array_pick.clear()
            self.array_pick.addItems(names)
            self.array_pick.setCurrentIndex(min(max(cur, 0), len(names) - 1))
        ins = p.instructions[self.doc.selection.instruction] if p.instructions else None
        if ins is not None and ins.array in names and not self.array_pick.hasFocus():
            self.array_pick.setCurrentIndex(names.index(ins.array))
        self.array_pick.blockSignals(False)
        level, why = shared_memory_warning(p)
        note = f"⚠ {why}" if level == "over" else ""
        if self.shared_note.text() != note:
            self.shared_note.setText(note)
        self.shared_note.setVisible(level == "over")
        has_arr = bool(p.arrays)
        for key in ("arr.name", "arr.dtype", "arr.dims", "arr.padding", "arr.base", "arr.kind"):
            self.fields[key].setEnabled(has_arr)
        if has_arr:
            a = p.arrays[self._array_index()]
            self._set("arr.name", a.name)
            self._set("arr.dtype", a.dtype)
            self._set("arr.dims", " x ".join(map(str, a.dims)))
            self._set("arr.padding", a.padding)
            self._set("arr.base", a.base)
            self._set("arr.kind", a.transform.kind)
            self.t_stack.setCurrentIndex(self.t_pages.get(a.transform.kind, 0))
            t = a.transform
            if t.kind == "xor":
                self._set("t.xor.target", t.get("target", a.ndim - 1))
                self._set("t.xor.expr", t.get("expr", "row"))
            elif t.kind == "cute":
                for k, dv in (("B", 3), ("M", 4), ("S", 3)):
                    self._set(f"t.cute.{k}", t.get(k, dv))
                self._set("t.cute.unit", t.get("unit", "element"))
            elif t.kind == "remap":
                self._set("t.remap.expr", t.get("expr", "i"))
            elif t.kind in LAYOUT_EDITORS:
                ed = self._layout_editor(t.kind)
                typing = ed.isAncestorOf(QApplication.focusWidget()) if QApplication.focusWidget() else False
                if not (typing and ed.transform() == t):
                    ed.set_transform(t)
            elif f"t.{t.kind}.params" in self.fields:
                self._set(f"t.{t.kind}.params", ", ".join(f"{k}={v}" for k, v in t.params))
        self.ins_box.setEnabled(ins is not None)
        self.del_btn.setEnabled(len(p.instructions) > 1)
        if ins is None:
            return
        self.ins_box.setTitle(f"Instruction #{self.doc.selection.instruction}")
        arr_combo: QComboBox = self.fields["ins.array"]
        if [arr_combo.itemText(i) for i in range(arr_combo.count())] != names:
            # refilled only when the arrays change: a refill resets the combo's model and makes
            # the whole panel lay itself out again, on every edit
            arr_combo.blockSignals(True)
            arr_combo.clear()
            arr_combo.addItems(names)
            arr_combo.blockSignals(False)
        self._set("ins.kind", ins.kind)
        self._set("ins.space", ins.space)
        self._set("ins.op", ins.op)
        self.fields["ins.space"].setEnabled(ins.kind in ("load", "store"))
        self.fields["ins.op"].setEnabled(ins.kind == "atomic")
        self._show_note(ins)
        self._set("ins.width", ins.width)
        self._set("ins.matrices", ins.matrices)
        self._set("ins.trans", ins.trans)
        self._set("ins.array", ins.array or "")
        ndim = p.array_map()[ins.array].ndim if ins.array in p.array_map() else len(ins.index)
        for d in range(3):
            w = self.fields[f"ins.index{d}"]
            w.setVisible(d < ndim)
            w.parentWidget().layout().labelForField(w).setVisible(d < ndim)
            self._set(f"ins.index{d}", ins.index[d] if d < len(ins.index) else "0")
        self.fields["ins.width"].setEnabled(not ins.is_matrix)
        self.fields["ins.matrices"].setEnabled(ins.is_matrix)
        self.fields["ins.trans"].setEnabled(ins.is_matrix)
        for d in range(3):
            self.fields[f"ins.index{d}"].setEnabled(not ins.explicit)
        lp = ins.loops[0] if ins.loops else None
        self._set("ins.loop", lp is not None)
        for key in ("loop.var", "loop.start", "loop.stop", "loop.step"):
            self.fields[key].setEnabled(lp is not None)
        lp = lp or Loop()
        self._set("loop.var", lp.var)
        self._set("loop.start", lp.start)
        self._set("loop.stop", lp.stop)
        self._set("loop.step", lp.step)
        self._set("ins.active", ins.active)
        self._set("ins.repeat", min(ins.repeat, 2**31 - 1))
        self._set("ins.label", ins.label)
        self._lock_recorded(ins)

    #: what a recorded instruction's accesses are made of: fixed by the run that recorded them
    RECORDED_FIXED = ("ins.kind", "ins.space", "ins.op", "ins.width", "ins.matrices", "ins.trans", "ins.array",
                      "ins.index0", "ins.index1", "ins.index2", "ins.loop", "loop.var", "loop.start", "loop.stop",
                      "loop.step", "ins.active", "ins.repeat")

    def _lock_recorded(self, ins: Instruction) -> None:
        """An executed kernel's instruction holds what its SASS did, lane by lane, in every warp and
        pass: its kind, width, array and lanes are facts of the run, not settings. They are shown
        read-only (the label stays editable); what can change is the array's layout, a what-if."""
        if ins.recorded is None:
            if self.ins_box.toolTip():  # the last one shown was recorded: what no rule above enables
                self.ins_box.setToolTip("")
                for key in ("ins.kind", "ins.array", "ins.loop", "ins.active", "ins.repeat"):
                    self.fields[key].setEnabled(True)
            return
        for key in self.RECORDED_FIXED:
            self.fields[key].setEnabled(False)
        for d in range(3):  # a recorded access has no index expression: each lane's element was recorded
            w = self.fields[f"ins.index{d}"]
            w.setVisible(False)
            w.parentWidget().layout().labelForField(w).setVisible(False)
        self.ins_box.setToolTip(f"An executed SASS instruction ({len(ins.recorded):,} recorded warp executions): "
                                "its accesses come from the kernel's run. Change the array's padding or swizzle "
                                "to see them in another layout (a what-if), or edit the kernel and import it again.")

    def _show_note(self, ins: Instruction) -> None:
        """The selected instruction's note (Analysis.note: a CAS loop, a vector access whose bytes
        are not the elements it names) under the buttons; hidden when there is none."""
        k = self.doc.selection.instruction
        an = self.doc.analysis
        if an is not None and k < len(an.pattern.instructions):  # the Document keeps the two in step
            text = an.note(k)
        else:  # no analysis (a broken file): what the instruction alone says
            text = ins.note(self.doc.pattern.array_map())
        self.note_label.setText(f"⚠ {text}" if text else "")
        self.note_label.setVisible(bool(text))
        self._fit_note()

    def _fit_note(self) -> None:
        """A word-wrapped label in a form row gets the height of its text at some other width
        (its first lines were cut off); give it the height it needs at the width it has."""
        lab = self.note_label
        if not lab.isVisibleTo(self):
            return
        # laid out: its own width (a resize brings us back here); else the panel's, less margins
        width = lab.width() if lab.width() > 50 else self.viewport().width() - 40
        h = lab.heightForWidth(max(width, 80))
        if h != lab.minimumHeight():
            lab.setMinimumHeight(h)

    # ---- widgets -> model --------------------------------------------------------------------
    def _end_session(self) -> None:
        self._session += 1

    def _merge_id(self, key: str) -> int:
        n = self._field_ids.setdefault(key, len(self._field_ids) + 1)
        return (self._session << 8) | n

    def _value(self, key: str):
        w = self.fields[key]
        if isinstance(w, QSpinBox):
            return w.value()
        if isinstance(w, QLineEdit):
            return w.text()
        if isinstance(w, QComboBox):
            d = w.currentData()
            return w.currentText() if d is None and key != "ins.width" else d
        if isinstance(w, QCheckBox):
            return w.isChecked()
        return None

    def _edited(self, key: str) -> None:
        if self._syncing:
            return
        try:
            new, text = self._build(key)
        except ValueError as e:  # a field that does not even parse (dimensions)
            self._mark(self.fields[key], str(e))
            return
        ok = self.doc.apply(new, text, self._merge_id(key))
        w = self.fields[key]
        if ok:
            self._mark(w, None)
            self.error_label.setText("")
        else:
            self._mark(w, "\n".join(f"{p}: {m}" if p else m for p, m in self.doc.errors))

    def _mark(self, w: QWidget, problem: str | None) -> None:
        if problem:
            self._bad[w] = problem
            w.setStyleSheet(BAD)
            w.setToolTip(problem)
            self.error_label.setText(problem)
        elif w in self._bad:
            del self._bad[w]
            w.setStyleSheet("")
            w.setToolTip(w.property("baseTip") or "")

    def _show_errors(self) -> None:
        if self.doc.errors:
            self.error_label.setText("\n".join(f"{p}: {m}" if p else m for p, m in self.doc.errors))
        else:
            self.error_label.setText("")

    def _build(self, key: str) -> tuple[Pattern, str]:
        p = self.doc.pattern
        v = self._value(key)
        group, _, name = key.partition(".")
        if group == "hw":
            hw = p.hardware
            if name == "preset":
                return replace(p, hardware=PRESETS[v]), f"hardware {PRESETS[v].name}"
            generic = PRESETS["generic"]
            hw = replace(hw, preset=generic.preset, name=generic.name, **{name: int(v)})
            return replace(p, hardware=hw), f"{name.replace('_', ' ')} {v}"
        if group == "block":
            b = list(p.block)
            b["xyz".index(name)] = int(v)
            return replace(p, block=tuple(b)), f"block {b[0]}x{b[1]}x{b[2]}"
        if group in ("arr", "t"):
            k = self._array_index()
            a = p.arrays[k]
            if group == "arr":
                if name == "dims":
                    parts = [x for x in v.replace("×", "x").replace(",", "x").replace("[", " ").replace("]", " x ").split("x") if x.strip()]
                    try:
                        dims = tuple(int(x) for x in parts)
                    except ValueError:
                        raise ValueError(f"dimensions must be numbers separated by x, got {v!r}")
                    if not dims:
                        raise ValueError("at least one dimension")
                    new = replace(a, dims=dims)
                elif name == "kind":
                    if v == a.transform.kind:
                        t = a.transform
                    elif v in LAYOUT_EDITORS:  # a valid starting point: the current order
                        t = libraries.default(v, a.dims)
                    else:
                        t = Transform(v)
                    new = replace(a, transform=t)
                elif name == "name":
                    new = replace(a, name=v.strip())
                else:
                    new = replace(a, **{name: v})
                return p.with_array(k, new), f"{a.name}: {name} {v}"
            kind, _, pname = name.partition(".")
            if pname == "params":
                params = {}
                for item in v.split(","):
                    if "=" in item:
                        pk, pv = item.split("=", 1)
                        params[pk.strip()] = _parse_value(pv)
                t = Transform.make(kind, **params)
            else:
                t = a.transform.with_params(**{pname: v})
            return p.with_array(k, replace(a, transform=t)), f"{a.name}: {pname} {v}"
        # instruction fields
        ks = self.doc.selection.instruction
        ins: Instruction = p.instructions[ks]
        if group == "loop":
            lp = ins.loops[0] if ins.loops else Loop()
            lp = replace(lp, **{name: v.strip() if name == "var" else int(v)})
            new = replace(ins, loops=(lp,) + tuple(ins.loops[1:]))
        elif name == "loop":
            new = replace(ins, loops=(Loop("k", 0, 2, 1),) + tuple(ins.loops[1:]) if v else ())
        elif name.startswith("index"):
            d = int(name[5:])
            idx = list(ins.index)
            while len(idx) <= d:
                idx.append("0")
            idx[d] = v
            new = replace(ins, index=tuple(idx))
        elif name == "array":
            nd = p.array_map()[v].ndim if v in p.array_map() else len(ins.index)
            idx = (list(ins.index) + ["0"] * nd)[:nd]
            new = replace(ins, array=v, index=tuple(idx))
        elif name == "repeat":
            new = replace(ins, repeat=int(v))
        elif name == "kind":  # space and op belong to loads/stores and atomics: reset where they do not apply
            new = replace(ins, kind=v, space=ins.space if v in ("load", "store") else "shared",
                          op=ins.op if v == "atomic" else "add")
        else:
            new = replace(ins, **{name: v})
        return p.with_instruction(ks, new), f"#{ks} {name} {v}"

    def _layout_editor(self, kind: str) -> LayoutEditor:
        """The editor of a library layout kind, made (into its page) when first needed."""
        ed = self.layout_editors.get(kind)
        if ed is None:
            ed = self.layout_editors[kind] = editor_for(kind)
            ed.changed.connect(self._layout_changed)
            self._fit_narrow(ed)
            self._guard_wheel(ed)
            self.t_stack.replace(self.t_pages[kind], ed)
        return ed

    def _layout_changed(self, t: Transform) -> None:
        """A library layout editor produced a Transform (typed, picked or pasted; a paste of
        another kind switches the array to that kind)."""
        if self._syncing or not self.doc.pattern.arrays:
            return
        p = self.doc.pattern
        k = self._array_index()
        a = p.arrays[k]
        ok = self.doc.apply(p.with_array(k, replace(a, transform=t)), f"{a.name}: layout {t.describe()}",
                            self._merge_id(f"layout.{t.kind}"))
        ed = self.layout_editors.get(t.kind) or self.sender()
        if ok:
            self.error_label.setText("")
            if isinstance(ed, LayoutEditor):
                ed._set_error(None)
        elif isinstance(ed, LayoutEditor):
            msg = "\n".join(f"{q}: {m}" if q else m for q, m in self.doc.errors)
            fw = QApplication.focusWidget()
            ed._set_error(msg, fw if fw is not None and ed.isAncestorOf(fw) else None)
            self.error_label.setText(msg)

    def _duplicate(self) -> None:
        p = self.doc.pattern
        k = self.doc.selection.instruction
        lst = list(p.instructions)
        lst.insert(k + 1, lst[k])
        if self.doc.apply(replace(p, instructions=tuple(lst)), f"duplicate instruction #{k}"):
            self.doc.select(instruction=k + 1)

    def _remove(self) -> None:
        p = self.doc.pattern
        k = self.doc.selection.instruction
        if len(p.instructions) <= 1:
            return
        lst = list(p.instructions)
        del lst[k]
        self.doc.apply(replace(p, instructions=tuple(lst)), f"remove instruction #{k}")
