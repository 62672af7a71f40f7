"""Tools > Import CUDA: the kernel compiles and runs in the background (typing never waits, a stale
result is dropped), the per-line view shows executed / threads / wavefronts / ideal worst first,
parameters take data and values, problems are marked in the code, a snippet is read as written,
and without the compiler the window says how to get it."""

import re
import time

import numpy as np
import pytest

pytest.importorskip("pytestqt")

from PySide6.QtCore import QSettings, Qt  # noqa: E402
from PySide6.QtGui import QTextCharFormat, QTextFormat  # noqa: E402

from bankexplorer.compiler import nvrtc  # noqa: E402
from bankexplorer.gui.app import MainWindow, new_pattern  # noqa: E402
from bankexplorer.gui.document import Document  # noqa: E402
from bankexplorer.gui.line_tree import WORST_BG  # noqa: E402
from bankexplorer.gui import cuda_dialog as cuda_import  # noqa: E402
from bankexplorer.gui.cuda_dialog import CudaImportDialog, kernel_name  # noqa: E402
from bankexplorer.resources import EXAMPLES  # noqa: E402

KERNELS = EXAMPLES.parent / "hardware" / "kernels"
LOOP_COLUMNS = (KERNELS / "loop_columns.cu").read_text()
needs_compiler = pytest.mark.skipif(not nvrtc.available(), reason="needs the compile extra")

LOOP_N = """\
// block: 32
__global__ void k(float *out, const int *idx, int n)
{
    __shared__ float s[32 * 32];
    s[threadIdx.x] = 0.0f;
    __syncthreads();
    float acc = 0.0f;
    for (int i = 0; i < n; ++i)
        acc += s[threadIdx.x * 32 + (i & 31)];
    acc += s[idx[threadIdx.x] & 1023];
    out[threadIdx.x] = acc;
}
"""


@pytest.fixture
def dialog(qtbot):
    d = CudaImportDialog(Document(new_pattern()))
    qtbot.addWidget(d)
    d.show()
    assert d.wait_compiled()
    return d


def rows(d):
    """The per-line view's lines: (line, executed, threads, wavefronts, ideal, excess, depends on)."""
    t = d.lines
    return [tuple(t.topLevelItem(i).text(c) for c in (0, 2, 3, 4, 5, 6, 7)) for i in range(t.topLevelItemCount())]


def line_backgrounds(editor):
    return {s.cursor.blockNumber() + 1: s.format.background().color() for s in editor.extraSelections()
            if s.format.property(QTextFormat.Property.FullWidthSelection)}


def test_kernel_names():
    assert kernel_name("__global__ void __launch_bounds__(256) k2(int *p) {}") == "k2"
    assert kernel_name("// __global__ void no(int)\n__global__ void yes(int) {}") == "yes"
    assert kernel_name("__shared__ float s[4];") is None


@needs_compiler
def test_the_starter_kernel_runs_in_the_background(dialog):
    """The dialog opens on a transpose that runs by itself: the column read is the worst line."""
    assert dialog.state == "done"
    assert rows(dialog) == [("13", "32", "1,024", "1,024", "32", "992", ""),
                            ("10", "32", "1,024", "32", "32", "0", "")]
    assert dialog.editor.worst_line == 13 and line_backgrounds(dialog.editor)[13] == WORST_BG
    top = dialog.lines.topLevelItem(0)
    assert top.text(1) == "out[(y + j) * TILE + x] = tile[x][y + j];"
    assert [top.child(j).text(1).split()[0] for j in range(top.childCount())] == ["LDS"] * 4
    assert "<b>1,056</b> shared-memory wavefronts for 64 warp instructions" in dialog.summary.text()
    assert "Worst: line 13" in dialog.summary.text()
    assert list(dialog.params) == ["out", "in"] and all(r.pointer for r in dialog.params.values())
    assert "zero-filled" in dialog.params["in"].state.text()


@needs_compiler
def test_typing_never_waits_and_stale_results_are_dropped(qtbot, dialog):
    t0 = time.perf_counter()
    dialog.editor.setPlainText(LOOP_COLUMNS)
    dialog.refresh()
    assert time.perf_counter() - t0 < 0.5 and dialog.state == "running"  # NVRTC runs on its own
    dialog.editor.setPlainText(LOOP_COLUMNS.replace("k < 4", "k < 8"))  # before the first run is back
    assert dialog.timer.isActive()  # debounced, not run per keystroke
    assert dialog.wait_compiled()
    assert dialog.state == "done" and dialog.outcome.launch.text.count("k < 8") == 1
    assert rows(dialog) == [("7", "2", "64", "64", "8", "56", "")]  # 2 x LDS.128, 8-way each


#: an endless loop that reads and writes shared memory (a half-typed ``for`` does this): at the
#: emulator's budget it ran for minutes
ENDLESS = """\
// block: 32
__global__ void endless(int *out) {
    __shared__ volatile int s[64];
    s[threadIdx.x] = 0;
    for (int i = 0; i < 8;) s[threadIdx.x] += s[threadIdx.x + 32] + 1;
    out[threadIdx.x] = s[threadIdx.x];
}
"""


def _run_for(qtbot, dialog, seconds: float) -> None:
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        qtbot.wait(20)


@needs_compiler
def test_an_endless_kernel_shows_its_progress_and_the_next_text_does_not_wait_for_it(qtbot, dialog):
    dialog.editor.setPlainText(ENDLESS)
    dialog.refresh()
    _run_for(qtbot, dialog, 2.5)  # compiled, and looping
    assert dialog.state == "running" and dialog.stop_button.isVisible()
    assert re.search(r"Executing one block \(block 32×1×1, index 0,0,0\): [\d,]+ warp instructions so far",
                     dialog.summary.text()), dialog.summary.text()
    t0 = time.perf_counter()
    dialog.editor.setPlainText(LOOP_COLUMNS)  # the user fixes the loop
    assert dialog.wait_compiled(20000) and dialog.state == "done"
    assert time.perf_counter() - t0 < 5  # the endless run was stopped, not waited for
    assert dialog.outcome.launch.text == LOOP_COLUMNS and not dialog.stop_button.isVisible()


@needs_compiler
def test_stop_ends_a_running_kernel_and_says_where(qtbot, dialog):
    dialog.editor.setPlainText(ENDLESS)
    dialog.refresh()
    _run_for(qtbot, dialog, 2.5)
    assert dialog.state == "running"
    t0 = time.perf_counter()
    qtbot.mouseClick(dialog.stop_button, Qt.MouseButton.LeftButton)
    assert dialog.wait_compiled(5000) and time.perf_counter() - t0 < 2
    assert dialog.state == "failed" and dialog.outcome.stopped
    assert re.search(r"Not executed:</b> stopped on request after [\d,]+ warp instructions, at line 5", dialog.summary.text())
    assert not dialog.import_button.isEnabled() and not dialog.stop_button.isVisible()
    wavy = [s.cursor.blockNumber() + 1 for s in dialog.editor.extraSelections()
            if s.format.underlineStyle() == QTextCharFormat.UnderlineStyle.WaveUnderline]
    assert wavy == [5]  # the loop it was in


def _until(qtbot, cond, seconds: float) -> bool:
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        if cond():
            return True
        qtbot.wait(20)
    return cond()


@needs_compiler
def test_a_long_run_waits_says_how_long_and_goes_on_or_stops(qtbot, dialog):
    dialog.runner.ask_after = 1.0  # the window's is kernel_runner.ASK_AFTER
    dialog.editor.setPlainText(ENDLESS)
    dialog.refresh()
    assert _until(qtbot, lambda: dialog.runner.paused is not None, 30), dialog.summary.text()
    qtbot.wait(300)  # the progress timer shows it
    assert dialog.state == "running" and dialog.go_on_button.isVisible() and dialog.stop_button.isVisible()
    text = dialog.summary.text()
    m = re.search(r"Still executing one block \(block 32×1×1, index 0,0,0\) after (\d+) s \(([\d,]+) warp "
                  r"instructions\), at line 5: an endless or very long loop\?", text)
    assert m, text
    assert 1 <= int(m.group(1)) <= 2
    waited = dialog.runner.progress[1]
    qtbot.wait(400)
    assert dialog.runner.progress[1] == waited and dialog.runner.paused == 5  # it waits, executing nothing
    assert 1.0 <= dialog.runner.seconds < 1.5  # the wait is not counted as executing

    qtbot.mouseClick(dialog.go_on_button, Qt.MouseButton.LeftButton)
    assert not dialog.go_on_button.isVisible()
    assert _until(qtbot, lambda: dialog.runner.progress is not None and dialog.runner.progress[1] > waited, 5)
    # as long again, then it asks once more
    assert _until(qtbot, lambda: dialog.runner.paused is not None, 30)
    assert 2.0 <= dialog.runner.seconds < 2.5 and dialog.runner.progress[1] > waited

    t0 = time.perf_counter()
    qtbot.mouseClick(dialog.stop_button, Qt.MouseButton.LeftButton)
    assert dialog.wait_compiled(5000) and time.perf_counter() - t0 < 2
    assert dialog.state == "failed" and dialog.outcome.stopped
    assert re.search(r"stopped on request after [\d,]+ warp instructions, at line 5", dialog.summary.text())
    assert not dialog.go_on_button.isVisible() and not dialog.stop_button.isVisible()


@needs_compiler
def test_what_printf_printed_is_in_the_notes(qtbot, dialog):
    dialog.editor.setPlainText("#include <cstdio>\n// block: 64\n__global__ void p(int *out) {\n"
                               "  __shared__ int s[64];\n  s[threadIdx.x] = threadIdx.x * 3;\n  __syncthreads();\n"
                               "  if (threadIdx.x % 32 == 5) printf(\"lane %d of warp %d: %d\\n\", threadIdx.x % 32, "
                               "threadIdx.x / 32, s[63 - threadIdx.x]);\n  out[threadIdx.x] = s[threadIdx.x];\n}\n")
    assert dialog.wait_compiled() and dialog.state == "done", dialog.summary.text()
    notes = [dialog.notes.item(i).text() for i in range(dialog.notes.count())]
    assert "7: printf: lane 5 of warp 0: 174" in notes and "7: printf: lane 5 of warp 1: 78" in notes


@needs_compiler
def test_compile_errors_are_marked_in_the_code(qtbot, dialog):
    dialog.editor.setPlainText(LOOP_COLUMNS.replace("acc += s[threadIdx.x * N + k];",
                                                    "acc += s[threadIdx.x * N + k] + nope;"))
    assert dialog.wait_compiled() and dialog.state == "failed"
    notes = [dialog.notes.item(i).text() for i in range(dialog.notes.count())]
    assert any(n.startswith("7: error") and "nope" in n for n in notes), notes
    wavy = [s.cursor.blockNumber() + 1 for s in dialog.editor.extraSelections()
            if s.format.underlineStyle() == QTextCharFormat.UnderlineStyle.WaveUnderline]
    assert wavy == [7]
    assert "Not executed" in dialog.summary.text() and not dialog.import_button.isEnabled()
    assert dialog.import_into_document() is False and dialog.document.undo_stack.count() == 0


@needs_compiler
def test_scalars_data_block_and_block_index_are_launch_values(qtbot, dialog, tmp_path):
    dialog.editor.setPlainText(LOOP_N)
    assert dialog.wait_compiled()
    assert [(n, r.pointer) for n, r in dialog.params.items()] == [("out", True), ("idx", True), ("n", False)]
    assert "zero-filled" in dialog.params["idx"].state.text()
    by_line = {r[0]: r for r in rows(dialog)}
    assert by_line["9"][1] == "64"  # n = 64 (the default) iterations, one warp
    assert by_line["10"][6] == "data: idx"  # its address depends on idx's data
    assert dialog.editor.flags == {10: "D"}
    dialog.params["n"].edit.setText("5")
    assert dialog.wait_compiled()
    assert {r[0]: r for r in rows(dialog)}["9"][1] == "5"
    # data: idx[t] = t * 32 puts all 32 lanes in bank 0 (32-way); zeros were a broadcast
    assert {r[0]: r for r in rows(dialog)}["10"][3] == "1"
    f = tmp_path / "idx.npy"
    np.save(f, (np.arange(32) * 32).astype(np.int32))
    dialog.attach("idx", str(f))
    assert dialog.wait_compiled()
    assert "idx.npy" in dialog.params["idx"].state.text()
    assert {r[0]: r for r in rows(dialog)}["10"][3] == "32"
    with pytest.raises(ValueError, match="not a .npy"):
        bad = tmp_path / "bad.npy"
        bad.write_bytes(b"not numpy")
        dialog.attach("idx", str(bad))
    dialog.detach("idx")
    assert dialog.wait_compiled() and {r[0]: r for r in rows(dialog)}["10"][3] == "1"
    # block and block index
    dialog.block_edit.setText("32,2")
    assert dialog.wait_compiled() and {r[0]: r for r in rows(dialog)}["9"][1] == "10"  # 2 warps x 5
    dialog.block_edit.setText("64")  # threadIdx.x * 32 runs past s: the run says where
    assert dialog.wait_compiled() and dialog.state == "failed"
    notes = [dialog.notes.item(i).text() for i in range(dialog.notes.count())]
    assert any(n.startswith("9: cannot execute") and "outside" in n for n in notes), notes
    dialog.block_edit.setText("")
    dialog.index_edit.setText("x")
    dialog.refresh()
    assert dialog.state == "invalid" and "block index" in dialog.summary.text()
    dialog.index_edit.setText("2")
    assert dialog.wait_compiled() and dialog.outcome.run.block_index == (2, 0, 0)
    assert "index 2,0,0 of a grid" not in dialog.summary.text() and "index 2,0,0" in dialog.summary.text()


@needs_compiler
def test_import_is_one_undoable_edit_with_the_kernel(qtbot, dialog):
    doc = dialog.document
    before = doc.pattern
    assert dialog.import_into_document()
    assert doc.undo_stack.count() == 1 and doc.undo_stack.undoText() == "Import CUDA kernel transpose"
    p = doc.pattern
    assert p.kernel is not None and p.kernel.text == dialog.editor.toPlainText() and p.block == (32, 8, 1)
    assert doc.analysis.totals().wavefronts == 1056
    assert [p.instructions[k].label for k in doc.selection.group] == [
        "L13 LDS R9, [R4]", "L13 LDS R11, [R4+0x20]", "L13 LDS R13, [R4+0x40]", "L13 LDS R15, [R4+0x60]"]
    doc.undo_stack.undo()
    assert doc.pattern == before


def test_without_the_compiler_the_window_says_how_to_get_it(qtbot, monkeypatch):
    monkeypatch.setattr(nvrtc, "available", lambda: False)
    d = CudaImportDialog(Document(new_pattern()))
    qtbot.addWidget(d)
    d.show()
    assert d.state == "unavailable"
    assert d.hint.isVisibleTo(d) and d.hint.text() == nvrtc.INSTALL_HINT
    assert "\n" not in d.hint.text()
    assert not d.import_button.isEnabled()


def test_a_snippet_is_read_as_written(qtbot):
    d = CudaImportDialog(Document(new_pattern()))
    qtbot.addWidget(d)
    d.show()
    with qtbot.waitSignal(d.analysisUpdated, timeout=5000):
        d.editor.selectAll()
        qtbot.keyClicks(d.editor, "__shared__ float s[1024]; float v = s[threadIdx.x * 32];")
    assert d.state == "snippet" and "read as written" in d.summary.text()
    assert rows(d) == [("1", "1", "32", "32", "1", "31", "")]
    assert d.import_into_document()
    assert d.document.analysis.totals().wavefronts == 32


def test_tools_menu_opens_the_dialog_once_per_window(qtbot, tmp_path):
    w = MainWindow(QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat))
    qtbot.addWidget(w)
    action = next(a for a in w.menus["tools"].actions() if a.text() == "Import &CUDA…")
    action.trigger()
    d = w.tools["cuda_import"].dialog
    assert isinstance(d, CudaImportDialog) and d.isVisible() and d.document is w.document
    action.trigger()
    assert w.tools["cuda_import"].dialog is d
    d.wait_compiled()
    d.close()
    assert cuda_import.DEBOUNCE_MS <= 500
