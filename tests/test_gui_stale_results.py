"""A result belongs to one text (issue 42): when another kernel's text comes into Import CUDA, the
last kernel's per-line rows, worst-line mark, compile-error marks and notes go at once, not when
the new run ends; after an edit of the same kernel the rows left from the last run are labelled
as the text before the edit. A compile error's header says what the error is."""

import pytest

pytest.importorskip("pytestqt")

from PySide6.QtGui import QTextCharFormat  # noqa: E402

from bankexplorer.compiler import nvrtc  # noqa: E402
from bankexplorer.gui.app import new_pattern  # noqa: E402
from bankexplorer.gui.cuda_dialog import STARTER, CudaImportDialog  # noqa: E402
from bankexplorer.gui.document import Document  # noqa: E402
from bankexplorer.resources import EXAMPLES  # noqa: E402

needs_compiler = pytest.mark.skipif(not nvrtc.available(), reason="needs the compile extra")
STRIDE = EXAMPLES / "cuda" / "04_stride32_float.cu"


@pytest.fixture
def dialog(qtbot):
    d = CudaImportDialog(Document(new_pattern()))
    qtbot.addWidget(d)
    d.show()
    assert d.wait_compiled() and d.state == "done"
    return d


def wavy_lines(editor) -> list[int]:
    return [s.cursor.blockNumber() + 1 for s in editor.extraSelections()
            if s.format.underlineStyle() == QTextCharFormat.UnderlineStyle.WaveUnderline]


@needs_compiler
def test_another_kernel_clears_the_last_ones_rows_and_marks_while_it_runs(dialog):
    assert dialog.lines.topLevelItemCount() == 2 and dialog.editor.worst_line == 13  # the starter's column read
    dialog.set_text(STRIDE.read_text(), path=str(STRIDE))
    assert dialog.state == "running"
    assert dialog.lines.topLevelItemCount() == 0 and dialog.editor.worst_line is None
    assert dialog.notes.count() == 0
    assert dialog.wait_compiled() and dialog.state == "done"
    assert dialog.lines.topLevelItemCount() > 0 and dialog.outcome.launch.text == STRIDE.read_text()


@needs_compiler
def test_compile_error_marks_do_not_stay_on_the_next_file(dialog):
    dialog.editor.setPlainText(STARTER.replace("int x = threadIdx.x", "int x = nope"))
    assert dialog.wait_compiled() and dialog.state == "failed"
    assert wavy_lines(dialog.editor) == [8]
    # the header says what is wrong, not "the kernel does not compile:" and nothing after it
    head = dialog.summary.text()
    assert "line 8" in head and "nope" in head and not head.rstrip("</span>").endswith(":"), head
    dialog.set_text(STRIDE.read_text(), path=str(STRIDE))
    assert dialog.state == "running" and wavy_lines(dialog.editor) == [] and not dialog.editor.diagnostics


@needs_compiler
def test_an_edit_labels_the_rows_left_from_the_last_run(dialog):
    dialog.editor.setPlainText(STARTER.replace("j += 8", "j += 4"))
    dialog.refresh()
    assert dialog.state == "running" and dialog.lines.topLevelItemCount() == 2
    assert not dialog.lines.isEnabled() and "for the text before your edit" in dialog.summary.text()
    assert dialog.wait_compiled() and "before your edit" not in dialog.summary.text()
