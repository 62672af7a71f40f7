"""Tools > Import CUDA, as compiled: the kernel compiles in a background thread, the table switches
to what the compiled code executes, typing never waits for the compiler, and Import into window
takes the compiled pattern."""

import time

import pytest

pytest.importorskip("pytestqt")

from bankexplorer.compiler import nvrtc  # noqa: E402
from bankexplorer.gui.app import new_pattern  # noqa: E402
from bankexplorer.gui.document import Document  # noqa: E402
from bankexplorer.gui.tools.cuda_import import CudaImportDialog  # noqa: E402
from bankexplorer.resources import EXAMPLES  # noqa: E402

LOOP_COLUMNS = (EXAMPLES.parent / "hardware" / "kernels" / "loop_columns.cu").read_text()
pytestmark = pytest.mark.skipif(not nvrtc.available(), reason="needs the compile extra")


@pytest.fixture
def dialog(qtbot):
    d = CudaImportDialog(Document(new_pattern()))
    qtbot.addWidget(d)
    d.show()
    assert d.wait_compiled()
    return d


def rows(d):
    return [tuple(d.table.item(r, c).text() for c in range(5)) for r in range(d.table.rowCount())]


def test_the_table_switches_to_the_compiled_code(qtbot, dialog):
    t0 = time.perf_counter()
    dialog.editor.setPlainText(LOOP_COLUMNS)
    dialog.refresh()
    returned = time.perf_counter() - t0
    # refresh() came back with the as-written numbers while the compiler runs
    assert dialog.compile_state == "compiling"
    assert rows(dialog) == [("7", "load s[threadIdx.x * N + k]", "32", "1", "32x")]
    assert "compiling for sm_90" in dialog.summary.text()
    with qtbot.waitSignal(dialog.analysisUpdated, timeout=20000):
        pass
    assert dialog.compile_state == "compiled"
    assert rows(dialog) == [("7", "load s[threadIdx.x * N + k] [LDS.128]", "32", "4", "8x")]
    text = dialog.summary.text()
    assert "<b>32</b> wavefronts for 1 warp instructions" in text
    assert "line 7: 4 x LDS → 1 x LDS.128: <b>32</b> wavefronts instead of 128" in text
    dialog.sass_button.setChecked(True)
    assert dialog.sass_view.isVisibleTo(dialog) and "LDS.128" in dialog.sass_view.toPlainText()
    assert returned < 0.5  # the keystroke path does not wait for NVRTC


def test_as_written_on_request_and_snippets_stay_as_written(qtbot, dialog):
    dialog.editor.setPlainText(LOOP_COLUMNS)
    dialog.view_combo.setCurrentIndex(dialog.view_combo.findData("written"))
    assert dialog.compile_state == "off" and rows(dialog)[0][2:] == ("32", "1", "32x")
    assert "As written" in dialog.summary.text()
    assert dialog.result.compiled is None
    dialog.view_combo.setCurrentIndex(dialog.view_combo.findData("compiled"))
    dialog.editor.setPlainText("__shared__ float s[1024];\nfloat v = s[threadIdx.x * 32];")
    dialog.refresh()
    assert dialog.compile_state == "snippet" and "paste a whole kernel" in dialog.summary.text()


def test_a_stale_compile_is_dropped_and_errors_are_marked(qtbot, dialog):
    dialog.editor.setPlainText(LOOP_COLUMNS)
    dialog.refresh()
    dialog.editor.setPlainText(LOOP_COLUMNS.replace("acc += s[threadIdx.x * N + k];",
                                                    "acc += s[threadIdx.x * N + k] + nope;"))
    dialog.refresh()
    assert dialog.wait_compiled()
    assert dialog.compile_state == "failed"
    probs = [dialog.problems.item(i).text() for i in range(dialog.problems.count())]
    assert any(p.startswith("7:") and "nope" in p for p in probs), probs
    assert "does not compile" in dialog.summary.text()


def test_import_takes_the_compiled_pattern(qtbot, dialog):
    dialog.editor.setPlainText(LOOP_COLUMNS)
    dialog.refresh()
    assert dialog.import_into_document()
    (ins,) = dialog.document.pattern.instructions
    assert ins.width == 16 and dialog.document.analysis.totals().wavefronts == 32
