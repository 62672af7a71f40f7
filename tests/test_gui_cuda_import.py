"""Tools > Import CUDA: typing re-analyzes after a pause, clicking an instruction selects its code,
the worst line and the problems are marked in the code, and Import is one undoable edit."""

import pytest

pytest.importorskip("pytestqt")

from PySide6.QtCore import QSettings, Qt  # noqa: E402
from PySide6.QtGui import QTextCharFormat, QTextFormat  # noqa: E402

from bankexplorer.gui.app import MainWindow, new_pattern  # noqa: E402
from bankexplorer.gui.document import Document  # noqa: E402
from bankexplorer.gui.tools.cuda_import import WORST_BG, CudaImportDialog  # noqa: E402
from bankexplorer.resources import EXAMPLES  # noqa: E402

TRANSPOSE = (EXAMPLES / "cuda" / "06_transpose_32x32.cu").read_text()


@pytest.fixture
def dialog(qtbot):
    doc = Document(new_pattern())
    d = CudaImportDialog(doc)
    qtbot.addWidget(d)
    d.show()
    return d


def type_code(qtbot, d, text):
    """Replace the code by typing it (real key events), then wait for the debounced import."""
    d.editor.selectAll()
    with qtbot.waitSignal(d.analysisUpdated, timeout=3000):
        for k, line in enumerate(text.split("\n")):
            if k:
                qtbot.keyClick(d.editor, Qt.Key.Key_Return)
            qtbot.keyClicks(d.editor, line)
    return [(d.table.item(r, 0).text(), d.table.item(r, 1).text(), d.table.item(r, 2).text(),
             d.table.item(r, 3).text(), d.table.item(r, 4).text()) for r in range(d.table.rowCount())]


def line_backgrounds(editor):
    out = {}
    for s in editor.extraSelections():
        if s.format.property(QTextFormat.Property.FullWidthSelection):
            out[s.cursor.blockNumber() + 1] = s.format.background().color()
    return out


def test_typing_updates_the_analysis_after_a_pause(qtbot, dialog):
    rows = type_code(qtbot, dialog, "__shared__ float s[1024];\nfloat v = s[threadIdx.x * 32];")
    assert rows == [("2", "load s[threadIdx.x * 32]", "32", "1", "32x")]
    assert "Worst conflict: line 2" in dialog.summary.text() and "32-way" in dialog.summary.text()
    # two more keystrokes: stride 32 -> stride 33 is conflict-free
    dialog.editor.moveCursor(dialog.editor.textCursor().MoveOperation.End)
    for _ in range(2):  # to just after "32"
        qtbot.keyClick(dialog.editor, Qt.Key.Key_Left)
    with qtbot.waitSignal(dialog.analysisUpdated, timeout=3000):
        qtbot.keyClick(dialog.editor, Qt.Key.Key_Backspace)
        qtbot.keyClicks(dialog.editor, "3")
    assert dialog.table.item(0, 2).text() == "1" and dialog.table.item(0, 4).text() == "1x"
    assert "No bank conflict" in dialog.summary.text()
    assert 2 not in line_backgrounds(dialog.editor)  # no worst line any more


def test_debounce_waits_for_the_pause(qtbot, dialog):
    dialog.editor.setPlainText("__shared__ float s[64];\ns[threadIdx.x * 2] = 0;")
    assert dialog.timer.isActive()  # not imported on every keystroke ...
    assert dialog.table.item(0, 1).text() != "store s[threadIdx.x * 2]"
    qtbot.waitSignal(dialog.analysisUpdated, timeout=3000).wait()  # ... but after the pause
    assert dialog.table.item(0, 1).text() == "store s[threadIdx.x * 2]" and dialog.table.item(0, 2).text() == "2"


def test_worst_line_is_marked_in_the_code(qtbot, dialog):
    dialog.editor.setPlainText(TRANSPOSE)
    dialog.refresh()
    assert [dialog.table.item(r, 0).text() for r in range(2)] == ["14", "22"]
    assert dialog.editor.worst_line == 22
    assert line_backgrounds(dialog.editor) == {22: WORST_BG}
    assert dialog.table.item(1, 2).background().color() == WORST_BG


def test_clicking_an_instruction_selects_its_code(qtbot, dialog):
    dialog.editor.setPlainText(TRANSPOSE)
    dialog.refresh()
    rect = dialog.table.visualItemRect(dialog.table.item(1, 1))
    qtbot.mouseClick(dialog.table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    cur = dialog.editor.textCursor()
    assert cur.blockNumber() + 1 == 22
    assert cur.selectedText() == "tile[threadIdx.x][threadIdx.y + j]"
    assert 22 in line_backgrounds(dialog.editor)
    # and the other way: putting the cursor on line 14 selects the store
    c = dialog.editor.cursor_at(14, 5)
    dialog.editor.setTextCursor(c)
    assert [i.row() for i in dialog.table.selectionModel().selectedRows()] == [0]


def test_errors_are_listed_with_line_column_and_underlined(qtbot, dialog):
    rows = type_code(qtbot, dialog, "__shared__ float s[32];\nint x = threadIdx.x;\nfloat v = s[x;\nwhile (x) s[x] = 1;\n"
                                    "s[x] = 2;")
    problems = [dialog.problems.item(i).text() for i in range(dialog.problems.count())]
    assert any(p.startswith("3:14  error: syntax error: expected ']'") for p in problems), problems
    assert any(p.startswith("4:1  warning: a while loop") for p in problems), problems
    # the rest is imported (the while loop's body once)
    assert [r[:2] for r in rows] == [("3", "load s[x"), ("4", "store s[x]"), ("5", "store s[x]")]
    wavy = [(s.cursor.blockNumber() + 1, s.cursor.selectionStart() - s.cursor.block().position() + 1,
             s.format.underlineColor().name())
            for s in dialog.editor.extraSelections()
            if s.format.underlineStyle() == QTextCharFormat.UnderlineStyle.WaveUnderline]
    assert (4, 1, "#dc8200") in wavy and any(line == 3 and color == "#dc1e1e" for line, _c, color in wavy)
    # clicking a problem puts the cursor there
    item = next(dialog.problems.item(i) for i in range(dialog.problems.count())
                if dialog.problems.item(i).text().startswith("4:1"))
    qtbot.mouseClick(dialog.problems.viewport(), Qt.MouseButton.LeftButton,
                     pos=dialog.problems.visualItemRect(item).center())
    assert dialog.editor.textCursor().blockNumber() == 3


def test_block_box_overrides_and_bad_values_are_reported(qtbot, dialog):
    dialog.editor.setPlainText("__shared__ float s[8][32];\ns[threadIdx.y][threadIdx.x * 2 % 32] = 0;")
    with qtbot.waitSignal(dialog.analysisUpdated, timeout=3000):
        qtbot.keyClicks(dialog.block_edit, "32,8")
    assert "32×8×1" in dialog.summary.text() and "(given)" in dialog.summary.text()
    with qtbot.waitSignal(dialog.analysisUpdated, timeout=3000):
        qtbot.keyClicks(dialog.block_edit, "x99")
    assert dialog.problems.item(0).text().startswith("options: block '32,8x99'")
    assert not dialog.import_button.isEnabled()


def test_import_is_one_undoable_edit(qtbot, dialog):
    doc = dialog.document
    before = doc.pattern
    dialog.editor.setPlainText(TRANSPOSE)
    qtbot.mouseClick(dialog.import_button, Qt.MouseButton.LeftButton)
    assert doc.undo_stack.count() == 1 and doc.undo_stack.undoText() == "Import CUDA (2 instructions)"
    assert doc.pattern.block == (32, 8, 1) and [i.kind for i in doc.pattern.instructions] == ["store", "load"]
    assert doc.analysis.totals().wavefronts == 32 + 32 * 32
    assert doc.selection.instruction == 1  # the worst instruction is the one shown
    assert "Imported 2 instructions" in dialog.status.text()
    doc.undo_stack.undo()
    assert doc.pattern == before
    doc.undo_stack.redo()
    assert doc.pattern.instructions[1].index == ("threadIdx.x", "threadIdx.y + j")


def test_nothing_to_import(qtbot, dialog):
    type_code(qtbot, dialog, "int x = threadIdx.x;")
    assert not dialog.import_button.isEnabled()
    assert "No shared-memory access found" in dialog.summary.text()
    assert dialog.import_into_document() is False and dialog.document.undo_stack.count() == 0


def test_tools_menu_opens_the_editor_and_examples_load(qtbot, tmp_path):
    w = MainWindow(QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat))
    qtbot.addWidget(w)
    action = next(a for a in w.menus["tools"].actions() if a.text() == "Import &CUDA…")
    action.trigger()
    d = w.cuda_import
    assert isinstance(d, CudaImportDialog) and d.isVisible() and d.document is w.document
    idx = next(i for i in range(d.examples.count()) if d.examples.itemText(i).startswith("12 "))
    d.examples.activated.emit(idx)
    assert d.table.rowCount() == 1 and d.table.item(0, 2).text() == "4" and d.table.item(0, 4).text() == "1x"
    assert d.import_into_document() and w.document.pattern.name == "12_float4_loads"
    action.trigger()
    assert w.cuda_import is d  # one editor per window, reopened with its text
    w.document.undo_stack.setClean()
    d.close()


def test_the_window_hardware_is_used_and_followed(qtbot, dialog):
    from dataclasses import replace

    dialog.editor.setPlainText("__shared__ float s[64];\ns[threadIdx.x * 2] = 0;")
    dialog.refresh()
    assert dialog.table.item(0, 2).text() == "2"
    doc = dialog.document
    wide = replace(doc.pattern.hardware, banks=64)  # 64 banks x 4 B: stride 2 fits one wavefront
    with qtbot.waitSignal(dialog.analysisUpdated, timeout=3000):
        assert doc.apply(replace(doc.pattern, hardware=wide), "64 banks")
    assert dialog.result.pattern.hardware.banks == 64 and dialog.table.item(0, 2).text() == "1"
