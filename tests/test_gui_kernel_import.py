"""An imported kernel in the window, against the GPU: Import CUDA shows the H100's numbers per source
line for the 22 measured kernels and for a CUB kernel with its data attached; a line picked selects
its instructions everywhere; a padding edit is a what-if (said, numbers change), re-running it as
compiled takes the what-if away; saving and reopening keeps it all."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

pytest.importorskip("pytestqt")

from PySide6.QtCore import QSettings, Qt  # noqa: E402

from bankexplorer.compiler import nvrtc  # noqa: E402
from bankexplorer.gui.app import MainWindow, new_pattern  # noqa: E402
from bankexplorer.gui.document import Document  # noqa: E402
from bankexplorer.sass.line_totals import instruction_lines  # noqa: E402
from bankexplorer.gui.cuda_dialog import CudaImportDialog, open_dialog  # noqa: E402
from bankexplorer.io import patternfile  # noqa: E402
from bankexplorer.resources import EXAMPLES  # noqa: E402

pytestmark = pytest.mark.skipif(not nvrtc.available(), reason="needs the compile extra")

KERNELS = Path(__file__).resolve().parents[1] / "resources" / "hardware" / "kernels"
SHARED = json.loads((KERNELS / "persass.json").read_text())
EXTRA11 = json.loads((KERNELS / "extra11" / "persass.json").read_text())


@pytest.fixture(scope="module")
def dialog(qapp):
    d = CudaImportDialog(Document(new_pattern()))
    d.show()
    d.wait_compiled()
    yield d
    d.runner.cancel()
    d.close()
    d.deleteLater()


def shown(d) -> dict[int, tuple[int, int]]:
    """line -> (executed, wavefronts) as the per-line view shows them."""
    t = d.lines
    out = {}
    for i in range(t.topLevelItemCount()):
        it = t.topLevelItem(i)
        out[int(it.text(0))] = (int(it.text(2).replace(",", "")), int(it.text(4).replace(",", "")))
    return out


def measured(truth: dict, run) -> dict[int, tuple[int, int]]:
    """The GPU's shared-memory SASS counts added up per source line (lines as the compiled code
    gives them: the measured and emulated code are the same instructions at the same pcs)."""
    line_of = {r.pc: r.line for r in run.rows}
    assert [s["pc"] for s in truth["sass"] if "wavefronts" in s] == [r.pc for r in run.rows if r.wavefronts is not None]
    out: dict[int, tuple[int, int]] = {}
    for s in truth["sass"]:
        if "wavefronts" in s:
            e, w = out.get(line_of[s["pc"]], (0, 0))
            out[line_of[s["pc"]]] = (e + s["executed"], w + s["wavefronts"])
    return out


def show_kernel(d, path: Path, block) -> None:
    d.block_edit.setText(",".join(map(str, block)))
    d.set_text(path.read_text(), path=str(path))
    assert d.wait_compiled() and d.state == "done", d.outcome.message if d.outcome else d.state


@pytest.mark.parametrize("name", sorted(SHARED))
def test_each_measured_kernel_shows_the_h100s_numbers_per_line(dialog, name):
    truth = SHARED[name]
    show_kernel(dialog, KERNELS / f"{name}.cu", truth["block"])
    want = measured(truth, dialog.outcome.run)
    assert shown(dialog) == want
    # worst line first, and the summary's total is the GPU's
    lines = [dialog.lines.topLevelItem(i) for i in range(dialog.lines.topLevelItemCount())]
    excess = [int(it.text(6).replace(",", "")) for it in lines]
    assert excess == sorted(excess, reverse=True)
    total = sum(w for _e, w in want.values())
    assert f"<b>{total:,}</b> shared-memory wavefronts" in dialog.summary.text()


def test_a_cub_kernel_with_its_data_attached_shows_the_measured_numbers(dialog):
    name = "extra11/cub_radix_sort_keys_128x4"
    truth = EXTRA11[name]
    path = KERNELS / f"{name}.cu"
    show_kernel(dialog, path, truth["block"])
    fname = re.search(r"//\s*input:\s*in\s*=\s*(\S+)", path.read_text()).group(1)
    # the kernel's "// input:" line attached the data beside it: the sort's scatter depends on it
    assert dialog.params["in"].file == fname and fname in dialog.params["in"].state.text()
    assert "zero-filled" in dialog.params["out"].state.text()
    # nvcc on the GPU's machine laid this kernel's code out otherwise than NVRTC here (other pcs), so
    # the GPU's counts are compared by line through their totals: every shared-memory instruction
    # of the kernel is CUB's, on the line that calls Sort
    sass = [s for s in truth["sass"] if "wavefronts" in s]
    assert shown(dialog) == {10: (sum(s["executed"] for s in sass), sum(s["wavefronts"] for s in sass))}
    assert shown(dialog) == {10: (truth["shared_executed"], truth["shared_wavefronts"])} == {10: (1544, 2043)}
    top = dialog.lines.topLevelItem(0)
    assert top.text(7) == "data: in" and dialog.editor.flags.get(int(top.text(0))) == "D"
    # without the data the counts differ (zeros all go to one bucket)
    dialog.detach("in")
    assert dialog.wait_compiled() and shown(dialog) != {10: (1544, 2043)}


@pytest.fixture
def window(qtbot, tmp_path):
    w = MainWindow(QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    qtbot.addWidget(w)
    w.resize(1600, 1000)
    w.maybe_save = lambda: True  # closing never asks (a failed test must not wait on a question)
    w.show()
    yield w
    if w.tools["cuda_import"].dialog is not None:
        w.tools["cuda_import"].dialog.runner.cancel()
        w.tools["cuda_import"].dialog.close()
    w.document.undo_stack.setClean()


def imported(window, name: str, block):
    d = open_dialog(window, str(KERNELS / name))
    d.block_edit.setText(",".join(map(str, block)))
    assert d.wait_compiled() and d.state == "done"
    assert d.import_into_document()
    return d


def test_clicking_a_line_selects_its_instructions_everywhere(qtbot, window):
    d = imported(window, "matmul_tiled.cu", (16, 16, 1))
    doc = window.document
    lines = instruction_lines(doc.pattern)
    # in the dialog: line 13 (the k loop: LDS and LDS.128)
    item = d.lines.top_row(13)
    qtbot.mouseClick(d.lines.viewport(), Qt.MouseButton.LeftButton, pos=d.lines.visualItemRect(item).center())
    group = doc.selection.group
    assert group and {lines[k] for k in group} == {13} and len(group) == sum(1 for v in lines.values() if v == 13)
    assert doc.selection.instruction in group and d.editor.selected_line == 13
    # the instruction list marks them all, the views draw the chosen one
    marked = {i.row() for i in window.instructions.table.selectionModel().selectedRows()}
    assert marked == set(group)
    row = doc.selected_row
    assert row is not None and int(doc.analysis.source[row]) == doc.selection.instruction
    window.refresh_now()
    assert f"#{doc.selection.instruction}" in window.summary.toPlainText()
    # in the window's Source lines dock: line 9 (the store to As)
    panel = window.tools["imported_kernel"].panel
    assert window.tools["imported_kernel"].dock.isVisible()
    item = panel.tree.top_row(9)
    rect = panel.tree.visualItemRect(item)
    assert panel.tree.viewport().rect().contains(rect.center())  # the dock's columns fit its width
    qtbot.mouseClick(panel.tree.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert {lines[k] for k in doc.selection.group} == {9}
    # and the dialog follows the window
    assert d.lines.selectedItems()[0].text(0) == "9"


LOOP = """\
// block: 64
__global__ void column_loop(float *out, int n)
{
    __shared__ float s[32][32];
    int x = threadIdx.x & 31, y = threadIdx.x >> 5;
    s[y][x] = x;
    __syncthreads();
    float acc = 0.0f;
#pragma unroll 1
    for (int i = 0; i < n; ++i)
        acc += s[x][(y + i) & 31];
    if (y == 0)
        s[0][x] = acc;
    out[threadIdx.x] = acc;
}
"""


def test_iterations_and_warps_of_an_imported_kernel(window, tmp_path):
    """An imported kernel's instruction in a loop: the iteration box counts its executions by the
    selected warp; an instruction only some warps execute moves the warp to one that does."""
    (tmp_path / "loop.cu").write_text(LOOP)
    d = open_dialog(window, str(tmp_path / "loop.cu"))
    d.params["n"].edit.setText("40")
    assert d.wait_compiled() and d.import_into_document()
    doc = window.document
    lines = instruction_lines(doc.pattern)
    k = next(j for j, ln in lines.items() if ln == 11)
    doc.select(instruction=k, warp=1)
    assert doc.executions(k).tolist() == [40, 40]
    assert window.instructions.iteration.maximum() == 39 and window.instructions.warp.maximum() == 1
    window.instructions.iteration.setValue(39)
    assert doc.selection.iteration == 39 and doc.selected_row is not None
    assert int(doc.analysis.warp[doc.selected_row]) == 1 and int(doc.analysis.iteration[doc.selected_row]) == 39
    # the store only warp 0 executes: picking it leaves warp 1 for warp 0
    store = next(j for j, ln in lines.items() if ln == 13)
    doc.select(instruction=store)
    assert doc.executions(store).tolist() == [1, 0] and doc.selection.warp == 0 and doc.selected_row is not None


def test_a_padding_edit_is_a_what_if_and_re_run_makes_it_real(qtbot, window, tmp_path):
    imported(window, "transpose_naive.cu", (32, 8, 1))
    doc, tool = window.document, window.tools["imported_kernel"]
    compiled_total = doc.analysis.totals().wavefronts
    assert compiled_total == 264 and not tool.status.isVisible()
    window.editor.fields["arr.padding"].setValue(1)  # the side panel's padding, as a user does
    qtbot.wait(10)
    assert doc.pattern.kernel.what_if(doc.pattern.arrays) == ["tile"]
    assert doc.analysis.totals().wavefronts == 16  # the column read no longer conflicts
    # said in the status bar, the dock's banner and the summary
    assert tool.status.isVisible() and tool.status.text() == "what-if: tile"
    assert tool.panel.banner.isVisible() and "What-if" in tool.panel.banner_text.text()
    window.refresh_now()
    assert "What-if: tile" in window.summary.toPlainText()
    wf = {it.text(0): it.text(4) for it in (tool.panel.tree.topLevelItem(i)
                                            for i in range(tool.panel.tree.topLevelItemCount()))}
    assert wf == {"6": "8", "8": "8"}
    assert tool.action.isEnabled()
    # re-run as compiled: the padding in the source, compiled and executed again
    assert tool.rerun()
    assert tool.runner.wait()
    qtbot.wait(10)
    p = doc.pattern
    assert "tile[32][32 + 1]" in p.kernel.text and p.arrays[0].dims == (32, 33)
    assert p.kernel.what_if(p.arrays) == [] and not tool.status.isVisible() and not tool.panel.banner.isVisible()
    assert doc.analysis.totals().wavefronts == 16  # what the what-if said
    assert doc.undo_stack.undoText().startswith("Re-run as compiled")
    doc.undo_stack.undo()
    assert doc.pattern.kernel.what_if(doc.pattern.arrays) == ["tile"]
    doc.undo_stack.redo()
    # save and reopen: the same kernel, numbers and lines
    f = tmp_path / "t.json"
    assert window._save_to(f)
    back = patternfile.load(f)
    assert back == doc.pattern
    window.open_path(f, ask=False)
    assert window.document.analysis.totals().wavefronts == 16
    assert window.tools["imported_kernel"].dock.isVisible()
    tree = window.tools["imported_kernel"].panel.tree
    assert {tree.topLevelItem(i).text(0) for i in range(tree.topLevelItemCount())} == {"6", "8"}


def test_a_swizzle_what_if_cannot_be_re_run_and_says_why(window):
    from dataclasses import replace

    from bankexplorer.model.layout import Transform

    imported(window, "transpose_naive.cu", (32, 8, 1))
    doc, tool = window.document, window.tools["imported_kernel"]
    a = doc.pattern.arrays[0]
    xor = replace(a, transform=Transform("xor", (("expr", "row"), ("target", 1))))
    assert doc.apply(doc.pattern.with_array(0, xor), "swizzle")
    assert tool.status.isVisible()
    assert tool.rerun() is False
    assert "only a padding" in window.statusBar().currentMessage()


def test_a_broken_vector_access_is_said(window):
    """float4 rows padded by one element: the compiled LDS.128 would not be aligned."""
    imported(window, "float4_rows.cu", tuple(SHARED["float4_rows"]["block"]))
    doc, tool = window.document, window.tools["imported_kernel"]
    window.editor.fields["arr.padding"].setValue(1)
    assert "not aligned" in " ".join(doc.analysis.instruction_notes.values())
    assert "not aligned" in tool.panel.banner_text.text()
    # the instruction is marked as impossible, not counted as if it ran
    assert 0 in doc.analysis.instruction_errors and "misaligned" in doc.analysis.instruction_errors[0]
    assert window.instructions.table.item(0, 2).text() == "error"
    assert "not aligned" in window.note_status.toolTip()


def test_a_recorded_instruction_shows_its_access_read_only(qtbot, window):
    """What an executed instruction accessed is a fact of the run: the side panel shows it but does
    not offer to edit it (an index expression there would mean nothing); the label stays editable,
    and an instruction written by hand is editable again."""
    imported(window, "transpose_naive.cu", (32, 8, 1))
    ed, doc = window.editor, window.document
    assert doc.pattern.instructions[doc.selection.instruction].recorded is not None
    for key in ("ins.kind", "ins.width", "ins.array", "ins.active", "ins.repeat", "ins.loop"):
        assert not ed.fields[key].isEnabled(), key
    assert not ed.fields["ins.index0"].isVisible()
    assert ed.fields["ins.label"].isEnabled() and "recorded warp executions" in ed.ins_box.toolTip()
    ed.fields["ins.label"].setText("the column read")
    ed.fields["ins.label"].editingFinished.emit()
    assert doc.pattern.instructions[doc.selection.instruction].label == "the column read"
    window.open_path(EXAMPLES / "06_transpose_32x32.json", ask=False)
    assert ed.fields["ins.kind"].isEnabled() and ed.fields["ins.index0"].isVisible() and not ed.ins_box.toolTip()
