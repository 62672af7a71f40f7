"""The window editors of the library layout kinds: quiet set_transform, one Transform per edit,
nothing emitted for a string that does not parse (with the column in the message), paste."""

import pytest
from PySide6.QtGui import QAction

from bankexplorer.gui.document import Document
from bankexplorer.gui.layout_editors import EDITORS, AccessMenu, TvCopyDialog, editor_for
from bankexplorer.model import Pattern, SharedArray
from bankexplorer.model.pattern import Instruction
from bankexplorer.model.libraries import KINDS, cute, default, tma, triton


@pytest.fixture
def emitted():
    return []


def make(qtbot, kind, emitted):
    e = editor_for(kind)
    qtbot.addWidget(e)
    e.changed.connect(emitted.append)
    return e


def test_every_library_kind_has_an_editor_and_a_valid_default():
    assert set(EDITORS) == set(KINDS)
    for kind in KINDS:
        a = SharedArray("s", "half", (16, 64), transform=default(kind, (16, 64)))
        assert a.validate() == [], kind


def test_cute_editor(qtbot, emitted):
    e = make(qtbot, cute.KIND, emitted)
    e.set_transform(cute.make("(_8,_64):(_64,_1)"))
    assert emitted == [] and e.text.text() == "(_8,_64):(_64,_1)"
    e.text.setText("Sw<3,3,3> o _0 o (_8,_64):(_64,_1)")
    e.text.textEdited.emit(e.text.text())
    assert emitted == [cute.make("Sw<3,3,3> o _0 o (_8,_64):(_64,_1)")]
    assert "CuTe Sw<3,3,3> o _0 o (_8,_64):(_64,_1)" in e.summary.text()
    e.text.setText("Sw<3,3,3> o _0 o (_8,_64):(_64 _1)")
    e.text.textEdited.emit(e.text.text())
    assert len(emitted) == 1  # nothing for a string that does not parse
    assert "found '_' at column 32" in e.error.text() and "d02020" in e.text.styleSheet()
    e.text.editingFinished.emit()
    assert e.text.cursorPosition() == 31
    e.text.setText("(_8,_64):(_64,_1)")
    e.text.textEdited.emit(e.text.text())
    assert emitted[-1] == cute.make("(_8,_64):(_64,_1)") and e.error.text() == "" and e.text.styleSheet() == ""


def test_triton_swizzled_editor(qtbot, emitted):
    e = make(qtbot, triton.SWIZZLED, emitted)
    e.set_transform(triton.swizzled(8, 1, 8, (1, 0)))
    assert emitted == [] and e.combos["vec"].currentData() == 8 and e.order.text() == "1, 0"
    e.combos["maxPhase"].setCurrentIndex(e.combos["maxPhase"].findData(4))
    assert emitted == [triton.swizzled(8, 1, 4, (1, 0))]
    e.order.setText("0 1")
    e.order.textEdited.emit("0 1")
    assert emitted[-1] == triton.swizzled(8, 1, 4, (0, 1))
    e.order.setText("a, b")
    e.order.textEdited.emit("a, b")
    assert len(emitted) == 2 and "order must be dimension numbers" in e.error.text()


def test_nvmma_and_tma_editors(qtbot, emitted):
    n = make(qtbot, triton.NVMMA, emitted)
    n.set_transform(triton.nvmma(128, False, 16))
    n.width.setCurrentIndex(n.width.findData(64))
    n.transposed.setChecked(True)
    assert emitted == [triton.nvmma(64, False, 16), triton.nvmma(64, True, 16)]
    assert n.bits.currentData() == 16
    n.bits.setCurrentIndex(n.bits.findData(None))
    assert emitted[-1] == triton.nvmma(64, True)  # elementBitWidth left to the array's type
    emitted.clear()
    t = make(qtbot, tma.KIND, emitted)
    t.set_transform(tma.make("128B"))
    assert "Sw<3,4,3>" in t.mode.currentText() and emitted == []
    t.mode.setCurrentIndex(t.mode.findData("32B"))
    assert emitted[-1] == tma.make("32B")


def test_paste_switches_kind_or_reports_the_column(qtbot, emitted):
    e = make(qtbot, tma.KIND, emitted)
    e.set_transform(tma.make("128B"))
    e.paste.setText("#ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>")
    e.paste.returnPressed.emit()
    assert emitted == [triton.swizzled(8, 1, 8, (1, 0))] and e.paste.text() == ""
    e.paste.setText("#ttg.swizzled_shared<{vec = 8, perPhase 1}>")
    e.paste.returnPressed.emit()
    assert len(emitted) == 1 and "at column 41" in e.error.text() and e.paste.cursorPosition() == 40
    e.paste.setText("CU_TENSOR_MAP_SWIZZLE_64B")
    e.paste.returnPressed.emit()
    assert emitted[-1] == tma.make("64B") and e.mode.currentData() == "64B"


# ---- the access side: one click adds the library's copy as an undoable edit -------------------------
def _doc(layout: str, dims=(16, 64), dtype="half") -> Document:
    a = SharedArray("A", dtype, dims, transform=cute.make(layout))
    return Document(Pattern(arrays=(a,), instructions=(access_placeholder(a),)))


def access_placeholder(a):
    return Instruction(kind="load", array="A", index=("0",) * a.ndim)


def _trigger(menu: AccessMenu, name: str) -> None:
    (act,) = [a for a in menu.findChildren(QAction) if a.objectName() == name]
    act.trigger()


def test_access_menu_adds_ldmatrix_fragments_undoably(qtbot):
    doc = _doc("Sw<3,3,3> o _0 o (_16,_64):(_64,_1)")
    menu = AccessMenu(doc)
    _trigger(menu, "ldmatrix.x4.trans")
    p = doc.pattern
    ins = p.instructions[-1]
    assert (ins.kind, ins.matrices, ins.trans) == ("ldmatrix", 4, True)
    assert ins.index == ("lane % 16", "k + (lane / 16) * 8") and [lp.values() for lp in ins.loops] == [range(0, 64, 16)]
    assert doc.selection.instruction == 1
    rows = doc.analysis.rows_of(1)
    assert doc.analysis.result.wavefronts[rows].tolist() == [4, 4, 4, 4]  # swizzled: conflict-free
    doc.undo_stack.undo()
    assert len(doc.pattern.instructions) == 1
    # the unswizzled tile: every 8 rows of one 16-byte column chunk share 4 banks, 8-way
    plain = _doc("(_16,_64):(_64,_1)")
    AccessMenu(plain).add_fragment("stmatrix", 4, False)
    assert plain.pattern.instructions[-1].kind == "stmatrix"
    assert plain.analysis.result.wavefronts[plain.analysis.rows_of(1)].tolist() == [32, 32, 32, 32]


def test_access_menu_float4_and_refusals(qtbot):
    doc = _doc("(_16,_64):(_64,_1)")
    menu = AccessMenu(doc)
    _trigger(menu, "load.v16")
    ins = doc.pattern.instructions[-1]
    assert ins.width == 16 and ins.index == ("(v + tid) / 8", "((v + tid) % 8) * 8")
    assert doc.analysis.result.wavefronts[doc.analysis.rows_of(1)].tolist() == [4, 4, 4, 4]
    bad = _doc("Sw<1,1,1> o _0 o (_16,_64):(_64,_1)")  # swaps 2-element pairs: no 16-byte run anywhere
    menu = AccessMenu(bad)
    _trigger(menu, "ldmatrix.x4")
    assert len(bad.pattern.instructions) == 1 and bad.undo_stack.count() == 0
    assert "A[0][0..7] is not 16 consecutive, aligned bytes" in menu.last_message
    assert "nor along the one before it" in menu.last_message


def test_tv_copy_dialog(qtbot):
    a = SharedArray("A", "half", (16, 64), transform=cute.make("(_16,_64):(_64,_1)"))
    dlg = TvCopyDialog(a)
    qtbot.addWidget(dlg)
    dlg.text.setText("((_16,_8),_8):((_1,_128),_16")
    dlg._accept()
    assert dlg.result_instruction is None and "found the end of the text at column 29" in dlg.error.text() and dlg.text.cursorPosition() == 28
    dlg.text.setText("((_16,_8),_8):((_1,_128),_16)")
    dlg._accept()
    assert dlg.result() == TvCopyDialog.Accepted and dlg.threads == 128
    doc = Document(Pattern(arrays=(a,), instructions=(access_placeholder(a),)))
    assert AccessMenu(doc).add_tv_copy(dlg.result_instruction, dlg.threads)
    assert doc.pattern.block == (128, 1, 1)
    assert doc.analysis.result.wavefronts[doc.analysis.rows_of(1)].tolist() == [32, 32, 32, 32]


def test_window_offers_the_access_menu_and_button(qtbot, tmp_path):
    from PySide6.QtCore import QSettings

    from bankexplorer.gui.app import MainWindow
    from bankexplorer.io import patternfile as pf
    from bankexplorer.resources import EXAMPLES

    w = MainWindow(QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat))
    qtbot.addWidget(w)
    w.document.set_pattern(pf.load(EXAMPLES / "23_tma_128b_ldmatrix.json"))
    (menu,) = [a.menu() for a in w.menus["tools"].actions() if a.text() == "Add &library access"]
    assert menu is w.tools["library_access"].menu and w.tools["library_access"].button.menu() is menu
    n = len(w.document.pattern.instructions)
    _trigger(menu, "stmatrix.x2.trans")
    ins = w.document.pattern.instructions[-1]
    assert (ins.kind, ins.matrices, ins.trans, ins.array) == ("stmatrix", 2, True, "A")
    assert w.document.selection.instruction == n
    assert set(w.document.analysis.result.wavefronts[w.document.analysis.rows_of(n)].tolist()) == {2}
    assert "added stmatrix.x2.trans: 16x8 fragments of A" in w.statusBar().currentMessage()
    w.document.undo_stack.undo()
    assert len(w.document.pattern.instructions) == n
    w.document.undo_stack.setClean()


def test_access_menu_offers_the_mmajor_ldmatrix_trans_and_stmatrix(qtbot):
    """Issue 19: an M-major tile (CuTe (_M,_K):(_1,_M)) is read along M, as CUTLASS does with
    ldmatrix.trans, instead of being refused; the menu says so on every entry."""
    doc = _doc("Sw<3,3,3> o _0 o (_128,_8):(_1,_128)", dims=(128, 8))
    menu = AccessMenu(doc)
    assert menu.refresh() == "M"
    (act,) = [a for a in menu.findChildren(QAction) if a.objectName() == "ldmatrix.x4.trans"]
    assert act.text() == "ldmatrix.x4.trans  (M-major: 16-byte rows along dimension 0)"
    (vec,) = [a for a in menu.findChildren(QAction) if a.objectName() == "load.v16"]
    assert vec.text() == "16-byte loads (float4) of the whole array  (M-major: along dimension 0)"
    _trigger(menu, "ldmatrix.x4.trans")
    ins = doc.pattern.instructions[-1]
    assert (ins.kind, ins.matrices, ins.trans) == ("ldmatrix", 4, True)
    assert ins.index == ("m + (lane / 8) * 8", "lane % 8") and [lp.values() for lp in ins.loops] == [range(0, 128, 32)]
    assert doc.analysis.result.wavefronts[doc.analysis.rows_of(1)].tolist() == [8, 8, 8, 8]  # 2-way, as measured
    assert "run along dimension 0 of A" in doc.analysis.note(1)
    assert menu.last_message == "added ldmatrix.x4.trans: 32x8 M-major fragments of A (16-byte rows along dimension 0)"
    doc.undo_stack.undo()
    assert len(doc.pattern.instructions) == 1
    fixed = _doc("Sw<3,3,4> o _0 o (_128,_8):(_1,_128)", dims=(128, 8))
    m2 = AccessMenu(fixed)
    _trigger(m2, "stmatrix.x4")
    assert fixed.pattern.instructions[-1].kind == "stmatrix"
    assert fixed.analysis.result.wavefronts[fixed.analysis.rows_of(1)].tolist() == [4, 4, 4, 4]
    # a K-major tile keeps the plain names
    k = AccessMenu(_doc("Sw<3,3,3> o _0 o (_16,_64):(_64,_1)"))
    assert k.refresh() == "K" and act.text().startswith("ldmatrix.x4.trans")
    assert [a.text() for a in k.findChildren(QAction) if a.objectName() == "ldmatrix.x4.trans"] == ["ldmatrix.x4.trans"]


def test_cute_editor_says_when_a_layout_is_mmajor(qtbot, emitted):
    e = make(qtbot, cute.KIND, emitted)
    e.set_transform(cute.make("Sw<3,3,4> o _0 o (_128,_8):(_1,_128)"))
    assert "M-major: mode 0 has stride 1" in e.summary.text() and "Add library access" in e.summary.text()
    e.text.setText("Sw<3,3,3> o _0 o (_8,_128):(_128,_1)")
    e.text.textEdited.emit(e.text.text())
    assert "M-major" not in e.summary.text()


def test_the_tile_view_outlines_mmajor_rows_down_the_columns(qtbot, tmp_path):
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication

    from bankexplorer.gui.app import MainWindow
    from bankexplorer.resources import EXAMPLES

    w = MainWindow(QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    qtbot.addWidget(w)
    assert w.open_path(EXAMPLES / "28_cute_mmajor_ldmatrix_trans.json", ask=False)
    w.document.select(instruction=0)
    w.refresh_now()
    QApplication.processEvents()
    t = w.tile
    assert t._lane_cells[1] == [(r, 1) for r in range(8)]  # lane 1 reads A[0..7][1]
    assert t._lane_cells[9] == [(r, 1) for r in range(8, 16)]  # lane 9 = matrix 1, row 1
    assert t.outline.symbol == -8 and t.conflict.symbol == -8  # one tall box per lane
    x, y = t.conflict.getData()
    assert sorted(zip(x.tolist(), y.tolist()))[0] == (0.5, 4.0)  # lane 0's box: column 0, rows 0-7


def test_a_library_layout_editor_is_made_when_its_kind_is_first_chosen(qtbot, tmp_path):
    """The panel starts without the CuTe / Triton / TMA editors (a blank page each); choosing a
    kind makes its editor in place, shown, with the panel's wheel guard on its fields."""
    from PySide6.QtCore import QSettings, Qt
    from PySide6.QtWidgets import QComboBox

    from bankexplorer.gui.app import MainWindow
    from bankexplorer.model.libraries import triton

    w = MainWindow(QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    qtbot.addWidget(w)
    try:
        ed = w.editor
        assert ed.layout_editors == {}
        kind = ed.fields["arr.kind"]
        at = kind.findData(triton.SWIZZLED)
        kind.setCurrentIndex(at if at >= 0 else kind.findText(triton.SWIZZLED))
        assert w.document.pattern.arrays[0].transform.kind == triton.SWIZZLED
        made = ed.layout_editors[triton.SWIZZLED]
        assert ed.t_stack.currentWidget() is made and made.isVisibleTo(ed)
        assert made.transform() == w.document.pattern.arrays[0].transform
        combos = made.findChildren(QComboBox)
        assert combos and all(c.focusPolicy() == Qt.FocusPolicy.StrongFocus for c in combos)
        assert set(ed.layout_editors) == {triton.SWIZZLED}  # the others still wait
    finally:  # no unsaved-changes prompt when the window goes
        w.document.undo_stack.setClean()
