"""The window editors of the library layout kinds: quiet set_transform, one Transform per edit,
nothing emitted for a string that does not parse (with the column in the message), paste."""

import pytest

from bankexplorer.gui.layout_editors import EDITORS, editor_for
from bankexplorer.model import SharedArray
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
    t = make(qtbot, tma.KIND, emitted)
    t.set_transform(tma.make("128B"))
    assert "Sw<3,4,3>" in t.mode.currentText() and len(emitted) == 2
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
