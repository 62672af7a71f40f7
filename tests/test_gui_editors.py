"""The instruction editor's space and operation combos, the analysis notes in the editor, the
instruction table and the status bar, the button row's fit, and a sweep that sets every combo of
every instruction of every example through its widget."""

from __future__ import annotations

import html
import os

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QSettings, Qt  # noqa: E402
from PySide6.QtWidgets import QApplication, QCheckBox, QComboBox, QMessageBox  # noqa: E402

from bankexplorer import resources  # noqa: E402
from bankexplorer.gui.app import MainWindow, instruction_tooltip  # noqa: E402
from bankexplorer.gui.document import Document  # noqa: E402
from bankexplorer.gui.editors import EditorPanel  # noqa: E402
from bankexplorer.io import patternfile  # noqa: E402

EX = resources.EXAMPLES
ATOMICS = "16_atomics_cas_and_loops.json"
GENERIC = "17_generic_pointer_float2.json"


@pytest.fixture(autouse=True)
def no_modal_dialogs(monkeypatch):
    monkeypatch.setattr(QMessageBox, "question", staticmethod(lambda *a, **k: QMessageBox.StandardButton.Discard))
    monkeypatch.setattr(QMessageBox, "warning", staticmethod(lambda *a, **k: QMessageBox.StandardButton.Ok))


def _window(qtbot, tmp_path, example: str, instruction: int = 0) -> MainWindow:
    w = MainWindow(QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat))
    qtbot.addWidget(w)
    w.resize(1600, 1000)
    w.show()
    qtbot.waitExposed(w)
    assert w.open_path(EX / example, ask=False)
    w.document.select(instruction=instruction)
    w.refresh_now()
    QApplication.processEvents()
    return w


def _wavefronts(doc: Document, k: int) -> list[int]:
    an = doc.analysis
    return an.result.wavefronts[an.rows_of(k)].tolist()


def _pick(combo: QComboBox, value) -> None:
    """What choosing an item with the mouse does."""
    i = combo.findData(value)
    assert i >= 0, value
    combo.setCurrentIndex(i)
    QApplication.processEvents()


def test_operation_combo_cas_to_add_is_one_undoable_edit(qtbot, tmp_path):
    w = _window(qtbot, tmp_path, ATOMICS, 2)
    doc, ed = w.document, w.editor
    op = ed.fields["ins.op"]
    assert op.isEnabled() and op.currentData() == "cas"
    assert not ed.fields["ins.space"].isEnabled()  # atomics have no generic form
    assert _wavefronts(doc, 2) == [2]  # atomicCAS: two passes through the banks
    assert ed.note_label.isVisibleTo(ed) and "twice" in ed.note_label.text()
    n = doc.undo_stack.count()
    _pick(op, "add")
    assert doc.pattern.instructions[2].op == "add"
    assert _wavefronts(doc, 2) == [1]  # int atomicAdd on distinct words: one ATOMS pass
    assert doc.undo_stack.count() == n + 1 and doc.dirty
    assert not ed.note_label.isVisibleTo(ed)  # a native 32-bit add needs no note
    assert w.instructions.table.item(2, 1).icon().isNull()
    doc.undo_stack.undo()
    assert doc.pattern.instructions[2].op == "cas" and _wavefronts(doc, 2) == [2]
    assert op.currentData() == "cas" and not doc.dirty
    doc.undo_stack.redo()
    assert op.currentData() == "add"
    _pick(op, "max")  # another native 32-bit op: one pass
    assert _wavefronts(doc, 2) == [1]
    doc.undo_stack.setClean()


def test_operation_on_64_bit_and_float_arrays_becomes_a_cas_loop(qtbot, tmp_path):
    w = _window(qtbot, tmp_path, ATOMICS, 4)
    doc, ed = w.document, w.editor
    assert doc.pattern.instructions[4].op == "exch" and _wavefronts(doc, 4) == [2]  # 64-bit: per half-warp
    assert not ed.note_label.isVisibleTo(ed)  # a 64-bit exch is native
    _pick(ed.fields["ins.op"], "add")
    assert "compare-and-swap loop" in ed.note_label.text() and ed.note_label.isVisibleTo(ed)
    assert "64-bit" in ed.note_label.text()
    assert _wavefronts(doc, 4) == [4]  # a CAS per iteration: two passes per half-warp
    doc.undo_stack.undo()
    assert doc.pattern.instructions[4].op == "exch" and not ed.note_label.isVisibleTo(ed)


def test_space_combo_generic_to_shared(qtbot, tmp_path):
    w = _window(qtbot, tmp_path, GENERIC, 1)
    doc, ed = w.document, w.editor
    space = ed.fields["ins.space"]
    assert space.isEnabled() and space.currentData() == "generic"
    assert not ed.fields["ins.op"].isEnabled()  # a load has no atomic operation
    assert _wavefronts(doc, 1) == [2]  # LD.64 never merges the two half-warps
    _pick(space, "shared")
    assert doc.pattern.instructions[1].space == "shared"
    assert _wavefronts(doc, 1) == [1]  # LDS.64 merges them into one phase
    assert w.instructions.table.item(1, 2).text() == "1"
    doc.undo_stack.undo()
    assert doc.pattern.instructions[1].space == "generic" and _wavefronts(doc, 1) == [2]
    assert space.currentData() == "generic"
    assert space.toolTip() and "never" in space.toolTip() and "merge" in space.toolTip()
    assert "CAS" in ed.fields["ins.op"].toolTip() or "compare-and-swap" in ed.fields["ins.op"].toolTip()


def test_kind_change_drops_space_and_operation_that_no_longer_apply(qtbot, tmp_path):
    w = _window(qtbot, tmp_path, GENERIC, 1)
    doc, ed = w.document, w.editor
    kind = ed.fields["ins.kind"]
    kind.setCurrentIndex(kind.findText("atomic"))
    ins = doc.pattern.instructions[1]
    assert (ins.kind, ins.space, ins.op) == ("atomic", "shared", "add") and not doc.errors
    assert ed.fields["ins.op"].isEnabled() and not ed.fields["ins.space"].isEnabled()
    assert ed.fields["ins.space"].currentData() == "shared"
    _pick(ed.fields["ins.op"], "cas")
    kind.setCurrentIndex(kind.findText("store"))
    ins = doc.pattern.instructions[1]
    assert (ins.kind, ins.op) == ("store", "add") and not doc.errors
    doc.undo_stack.undo()
    doc.undo_stack.undo()
    doc.undo_stack.undo()
    ins = doc.pattern.instructions[1]
    assert (ins.kind, ins.space, ins.op) == ("load", "generic", "add")
    doc.undo_stack.setClean()


def test_notes_in_editor_table_and_status_bar(qtbot, tmp_path):
    w = _window(qtbot, tmp_path, ATOMICS, 3)
    doc, ed, table = w.document, w.editor, w.instructions.table
    note = doc.analysis.note(3)
    assert "compare-and-swap loop" in note and "fadd" in note  # atomicAdd on a float array
    assert ed.note_label.isVisibleTo(ed) and note in ed.note_label.text()
    tip = table.item(3, 1).toolTip()
    assert html.escape(doc.pattern.instructions[3].title()) in tip and html.escape(note) in tip
    assert not table.item(3, 1).icon().isNull()
    assert table.item(0, 1).icon().isNull() and doc.analysis.note(0) == ""
    assert table.item(0, 1).toolTip() == instruction_tooltip(doc.pattern.instructions[0].title())
    assert "&amp;counts[lane]" in table.item(0, 1).toolTip()  # the title's & is escaped
    assert w.note_status.text() == f"⚠ #3: {note}"
    doc.select(instruction=0)
    assert not ed.note_label.isVisibleTo(ed) and w.note_status.text() == ""
    # the note follows edits: the float array's add becomes an int array's add
    doc.select(instruction=3)
    ed.fields["ins.array"].setCurrentIndex(ed.fields["ins.array"].findText("counts"))
    assert doc.pattern.instructions[3].array == "counts"
    assert doc.analysis.note(3) == "" and not ed.note_label.isVisibleTo(ed)
    assert table.item(3, 1).icon().isNull()
    doc.undo_stack.undo()
    assert not table.item(3, 1).icon().isNull() and ed.note_label.isVisibleTo(ed)


def test_note_label_is_as_tall_as_its_wrapped_text(qtbot, tmp_path):
    """Shown after the panel was laid out without it (a word-wrapped label in a form row got
    the height of fewer lines than it wraps to, and its first and last lines were cut)."""
    w = _window(qtbot, tmp_path, ATOMICS, 0)
    qtbot.wait(50)
    w.document.select(instruction=5)
    lab = w.editor.note_label
    # the layout settles in a later turn of the event loop: wait for it, however slow the machine
    qtbot.waitUntil(lambda: lab.isVisibleTo(w.editor) and lab.height() >= lab.heightForWidth(lab.width()),
                    timeout=5000)
    assert lab.height() >= lab.heightForWidth(lab.width()) > 3 * lab.fontMetrics().height()


def test_table_decoration_survives_a_later_refill_of_the_rows(qtbot, tmp_path):
    """Should the list fill its rows after the document's signal (a deferred refresh), the
    icon and tooltip come back once the event loop runs."""
    from PySide6.QtGui import QIcon
    from PySide6.QtWidgets import QTableWidgetItem

    w = _window(qtbot, tmp_path, ATOMICS, 0)
    table = w.instructions.table
    table.setItem(3, 1, QTableWidgetItem(w.document.pattern.instructions[3].title()))  # a fresh item
    table.item(5, 1).setIcon(QIcon())
    qtbot.waitUntil(lambda: not table.item(3, 1).icon().isNull() and not table.item(5, 1).icon().isNull(),
                    timeout=2000)
    assert html.escape(w.document.analysis.note(3)) in table.item(3, 1).toolTip()


def test_vector_access_note_from_the_analysis(qtbot, tmp_path):
    """A float4 read of a float array whose CuTe swizzle moves single elements (Sw<1,0,1>) reads
    16 contiguous bytes that are not the 4 elements it names: the engine's note shows."""
    from dataclasses import replace

    w = _window(qtbot, tmp_path, "25_cute_float4_column_reads.json", 0)
    doc, ed = w.document, w.editor
    assert not ed.note_label.isVisibleTo(ed)
    a = doc.pattern.arrays[0]
    t = a.transform.with_params(layout="Sw<1,0,1> o _0 o (_32,_32):(_32,_1)")
    assert doc.apply(doc.pattern.with_array(0, replace(a, transform=t)), "swizzle single elements")
    note = doc.analysis.note(0)
    assert note.startswith("the 16-byte access at F[0][0] reads bytes 0..15, but this layout puts F[0][2] at byte 12")
    assert note in ed.note_label.text() and ed.note_label.isVisibleTo(ed)
    assert html.escape(note) in w.instructions.table.item(0, 1).toolTip()
    assert not w.instructions.table.item(0, 1).icon().isNull()
    assert w.instructions.table.item(1, 1).icon().isNull()  # the unswizzled array: no note
    doc.undo_stack.undo()
    assert not ed.note_label.isVisibleTo(ed) and w.instructions.table.item(0, 1).icon().isNull()


def test_picking_an_instruction_scrolls_its_editor_into_view(qtbot, tmp_path):
    w = _window(qtbot, tmp_path, ATOMICS, 0)
    ed = w.editor
    ed.verticalScrollBar().setValue(0)
    assert ed.verticalScrollBar().maximum() > 0  # the panel is taller than its dock at 1600 x 1000
    w.instructions.table.selectRow(3)  # what a click on row 3 does
    QApplication.processEvents()
    assert w.document.selection.instruction == 3
    top = ed.ins_box.mapTo(ed.viewport(), ed.ins_box.rect().topLeft()).y()
    assert 0 <= top and top + ed.note_label.y() + ed.note_label.height() <= ed.viewport().height()
    ed.verticalScrollBar().setValue(0)
    w.document.select(lane=5)  # the same instruction: the panel stays where the user put it
    assert ed.verticalScrollBar().value() == 0


def _wheel(widget, steps: int) -> None:
    from PySide6.QtCore import QPoint, QPointF
    from PySide6.QtGui import QWheelEvent

    pos = QPointF(widget.rect().center())
    ev = QWheelEvent(pos, QPointF(widget.mapToGlobal(pos.toPoint())), QPoint(), QPoint(0, 120 * steps),
                     Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier, Qt.ScrollPhase.NoScrollPhase, False)
    QApplication.sendEvent(widget, ev)
    QApplication.processEvents()


def test_wheel_over_an_unfocused_combo_scrolls_the_panel(qtbot, tmp_path):
    w = _window(qtbot, tmp_path, ATOMICS, 3)
    ed, doc = w.editor, w.document
    kind, bar = ed.fields["ins.kind"], ed.verticalScrollBar()
    bar.setValue(bar.maximum() // 2)
    before, depth = bar.value(), doc.undo_stack.index()
    _wheel(kind, -1)  # wheel down over "kind"
    assert kind.currentText() == "atomic" and doc.undo_stack.index() == depth
    assert bar.value() > before
    kind.setFocus()
    QApplication.processEvents()
    assert kind.hasFocus()
    _wheel(kind, -1)  # a clicked-into combo still takes the wheel
    assert kind.currentText() == "ldmatrix"  # the next kind: refused on a 1-D int array, and says why
    assert kind in ed._bad and doc.pattern.instructions[3].kind == "atomic"
    item_tip = ed.fields["ins.op"].itemData(ed.fields["ins.op"].findData("cas"), Qt.ItemDataRole.ToolTipRole)
    assert "two passes" in item_tip


def test_instruction_titles_elide_at_the_right(qtbot, tmp_path):
    w = _window(qtbot, tmp_path, "14_ldmatrix_x4_unswizzled.json", 0)
    table = w.instructions.table
    assert table.textElideMode() == Qt.TextElideMode.ElideRight
    for k, ins in enumerate(w.document.pattern.instructions):
        assert table.item(k, 1).toolTip().startswith(f"<p><b>{html.escape(ins.title())}</b></p>")


def test_button_row_fits_and_wraps_when_narrow(qtbot, tmp_path):
    w = _window(qtbot, tmp_path, ATOMICS, 0)
    row = w.editor.add_btn.parentWidget()
    buttons = [row.layout().itemAt(i).widget() for i in range(row.layout().count())]
    assert len(buttons) == 3 and buttons[2] is w.tools["library_access"].button  # the tool's "Add access"

    def check() -> set[int]:
        QApplication.processEvents()
        for b in buttons:
            g = b.geometry()
            assert g.width() >= b.sizeHint().width(), b.text()  # no squeezed text
            assert g.left() >= 0 and g.right() <= row.width() and g.bottom() <= row.height(), b.text()
        return {b.geometry().top() for b in buttons}

    assert len(check()) == 1  # one line at the default 1600 x 1000
    w.resizeDocks([w.docks["editor"]], [200], Qt.Orientation.Horizontal)
    w.editor.widget().resize(200, w.editor.widget().height())
    w.editor.widget().adjustSize()
    QApplication.processEvents()
    if row.width() < sum(b.sizeHint().width() for b in buttons):
        assert len(check()) == 2  # wraps onto a second line instead of squeezing


def _field_values(w) -> list:
    if isinstance(w, QComboBox):
        return [(i, w.itemData(i), w.itemText(i)) for i in range(w.count())]
    return [(v, v, str(v)) for v in (True, False)]


@pytest.mark.parametrize("example", sorted(p.name for p in EX.glob("*.json")))
def test_every_instruction_field_of_every_example(qtbot, example):
    """Set every combo and check box of every instruction to each of its values through the
    widget: the document stays valid, and either takes the value or the field says why not."""
    doc = Document(patternfile.load(EX / example))
    ed = EditorPanel(doc)
    qtbot.addWidget(ed)
    keys = ["ins.kind", "ins.space", "ins.op", "ins.width", "ins.matrices", "ins.trans", "ins.array", "ins.loop"]
    for k in range(len(doc.pattern.instructions)):
        doc.select(instruction=k)
        for key in keys:
            field = ed.fields[key]
            for value, data, text in _field_values(field):
                before = doc.pattern
                depth = doc.undo_stack.index()
                was = field.isChecked() if isinstance(field, QCheckBox) else field.currentIndex()
                if isinstance(field, QCheckBox):
                    field.setChecked(value)
                else:
                    field.setCurrentIndex(value)
                assert doc.pattern.validate() == [], (example, k, key, text)
                assert doc.analysis is not None
                if doc.pattern is before:  # not applied: already that value, or refused with a reason
                    assert doc.undo_stack.index() == depth
                    if field in ed._bad:
                        assert ed._bad[field] and ed.error_label.text() and doc.errors
                    else:
                        assert was == value, (example, k, key, text)
                else:
                    ins = doc.pattern.instructions[k]
                    got = {"ins.kind": ins.kind, "ins.space": ins.space, "ins.op": ins.op, "ins.width": ins.width,
                           "ins.matrices": ins.matrices, "ins.trans": ins.trans, "ins.array": ins.array,
                           "ins.loop": bool(ins.loops)}[key]
                    want = text if key in ("ins.kind", "ins.array") else data
                    assert got == want, (example, k, key, text)
                    doc.undo_stack.undo()
                    assert doc.pattern == before
                ed.sync()
