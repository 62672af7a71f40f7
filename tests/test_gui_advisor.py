"""The Advisor dock: ranks the open pattern, applies a candidate as one undo step, says when
nothing is conflict-free, and charts blocks per SM against padding with the CUDA occupancy rules."""

from __future__ import annotations

import os

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QSettings, Qt  # noqa: E402

from bankexplorer.gui.app import MainWindow  # noqa: E402
from bankexplorer.io import patternfile  # noqa: E402
from bankexplorer.model import Instruction, Pattern, SharedArray  # noqa: E402
from bankexplorer.resources import EXAMPLES  # noqa: E402


@pytest.fixture
def window(qtbot, tmp_path):
    w = MainWindow(QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat))
    w.resize(1600, 1000)
    w.show()
    yield w
    # closed here rather than by qtbot.addWidget, which closes before this runs: a dirty
    # document would ask "save changes?" in a modal box and the test would never end
    w.document.undo_stack.setClean()
    w.tools["advisor"].panel.shutdown()
    w.close()
    w.deleteLater()


def open_pattern(qtbot, w, pattern: Pattern):
    """Load ``pattern``, open the dock from the Tools menu and wait for its ranking."""
    w.document.set_pattern(pattern)
    action = next(a for a in w.menus["tools"].actions() if a.text() == "&Advisor…")
    with qtbot.waitSignal(w.tools["advisor"].panel.adviceReady, timeout=10000):
        if not w.tools["advisor"].dock.isVisible():
            action.trigger()
        else:
            w.tools["advisor"].panel.run()
    assert w.tools["advisor"].dock.isVisible() and w.tools["advisor"].panel.up_to_date
    return w.tools["advisor"].panel


def rows(panel) -> list[tuple[str, ...]]:
    t = panel.table
    return [tuple(t.item(r, c).text() for c in range(t.columnCount())) for r in range(t.rowCount())]


def transpose() -> Pattern:
    return patternfile.load(EXAMPLES / "06_transpose_32x32.json")


def test_dock_ranks_transpose_free_xor_first_then_padding_1(qtbot, window):
    panel = open_pattern(qtbot, window, transpose())
    table = rows(panel)
    assert table[0] == ("XOR col ^= row", "64", "64", "0", "8")
    pads = [r for r in table if r[0].startswith("padding")]
    assert pads[0] == ("padding 1: float tile[32][33]", "64", "64", "128", "8")
    assert ("current layout", "1,056", "64", "0", "8") in table
    assert panel.summary.text() == ("Best: XOR col ^= row reaches the ideal of 64 wavefronts (now 1,056) "
                                    "for no extra memory.")
    assert panel.footer.text().startswith("247 layouts tried, 0 rejected, in ")
    assert "registers are not counted" in panel.footer.toolTip()
    assert [window.menus["tools"].actions()[0].isCheckable(), window.tools["advisor"].dock.toggleViewAction().isChecked()] == [True, True]


def test_apply_is_one_undo_step_and_makes_the_analysis_ideal(qtbot, window):
    panel = open_pattern(qtbot, window, transpose())
    doc = window.document
    original = doc.pattern
    i = next(k for k, r in enumerate(rows(panel)) if r[0] == "padding 1: float tile[32][33]")
    panel.table.setCurrentCell(i, 0)
    assert panel.apply_button.isEnabled()
    with qtbot.waitSignal(panel.adviceReady, timeout=10000):  # re-ranked by itself after the edit
        qtbot.mouseClick(panel.apply_button, Qt.MouseButton.LeftButton)
    assert doc.pattern.arrays[0].padding == 1 and doc.pattern.arrays[0].transform.kind == "none"
    t = doc.analysis.totals()
    assert (t.kernel_wavefronts, t.kernel_ideal) == (64, 64)
    assert doc.undo_stack.count() == 1 and doc.undo_stack.undoText() == "Advisor: padding 1: float tile[32][33]"
    assert panel.up_to_date and panel.summary.text().startswith("The current layout already reaches the ideal")
    doc.undo_stack.undo()
    assert doc.pattern == original and doc.analysis.totals().kernel_wavefronts == 1056
    # undo went back to the pattern ranked first: no ranking needed, but the last one was for padding 1
    if not panel.up_to_date:
        qtbot.waitSignal(panel.adviceReady, timeout=10000).wait()
    assert panel.up_to_date and rows(panel)[0][0] == "XOR col ^= row"


def test_double_click_applies_the_zero_byte_xor(qtbot, window):
    panel = open_pattern(qtbot, window, transpose())
    rect = panel.table.visualItemRect(panel.table.item(0, 0))
    # a real double click is press, release, double-click press, release: the view needs the first
    qtbot.mouseClick(panel.table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert window.document.undo_stack.count() == 0  # one click only selects
    qtbot.mouseDClick(panel.table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    arr = window.document.pattern.arrays[0]
    assert (arr.transform.kind, arr.padding) == ("xor", 0)
    assert window.document.analysis.totals().kernel_wavefronts == 64
    assert window.document.undo_stack.count() == 1


def test_current_row_cannot_be_applied(qtbot, window):
    panel = open_pattern(qtbot, window, transpose())
    i = next(k for k, r in enumerate(rows(panel)) if r[0] == "current layout")
    panel.table.setCurrentCell(i, 0)
    assert not panel.apply_button.isEnabled()
    assert not panel.apply_row(i) and window.document.undo_stack.count() == 0


def test_no_conflict_free_candidate_is_said(qtbot, window):
    # every lane atomically updates one counter: no layout separates 32 lanes on one address
    p = Pattern(name="one bin", arrays=(SharedArray("h", "int", (32, 32)),), block=(32, 1, 1),
                instructions=(Instruction(kind="atomic", array="h", index=("0", "0")),))
    panel = open_pattern(qtbot, window, p)
    assert panel.summary.text() == ("No candidate is conflict-free, and none beats the current layout: "
                                    "32 wavefronts against an ideal of 1.")
    assert all(r[1] == "32" and r[2] == "1" for r in rows(panel))


def test_edit_reranks_by_itself(qtbot, window):
    panel = open_pattern(qtbot, window, transpose())
    doc = window.document
    from dataclasses import replace

    with qtbot.waitSignal(panel.adviceReady, timeout=10000):
        doc.apply(doc.pattern.with_array(0, replace(doc.pattern.arrays[0], padding=1)), "padding")
    assert panel.up_to_date and panel.advice.current.wavefronts == 64


def column_read_64() -> Pattern:
    """float t[64][64], 64 threads, each warp reading a column: 16 KB of arrays."""
    return Pattern(name="col64", arrays=(SharedArray("t", "float", (64, 64)),), block=(64, 1, 1),
                   instructions=(Instruction(kind="load", array="t", index=("lane", "0")),))


def test_occupancy_chart_h100_hand_computed(qtbot, window):
    panel = open_pattern(qtbot, window, column_read_64())
    # H100: 233,472 B per SM; a block is charged 64 x (64 + p) x 4 B + 1,024 B reserved, in 128 B
    # units: 17,408 + 256 p. Warps (64 / 2 = 32) and blocks (32) never bind.
    hand = {0: 13, 1: 13, 2: 13, 3: 12, 4: 12, 5: 12, 6: 12, 7: 12, 8: 12, 9: 11, 31: 9, 32: 9}
    pts = {pt.padding: pt.blocks for pt in panel.chart.points}
    assert sorted(pts) == list(range(33)) and {p: pts[p] for p in hand} == hand
    s = panel.chart.series()
    # one warp reads rows of 64 + p floats: conflict-free exactly when the row stride is odd
    assert [p for p, _ in s["conflict-free"]] == list(range(1, 33, 2))
    assert [p for p, _ in s["conflicts"]] == list(range(0, 33, 2)) and s["rejected"] == []
    assert s["conflict-free"][:5] == [(1, 13), (3, 12), (5, 12), (7, 12), (9, 11)]
    assert panel.chart.plot.getAxis("left").labelText == "blocks / SM"
    assert panel.chart.plot.getAxis("bottom").labelText == "padding of t (elements per row)"
    legend = panel.chart.legend.text()
    assert all(k in legend for k in ("conflict-free", "bank conflicts", "misaligned", "current padding"))
    pad1 = next(r for r in rows(panel) if r[0] == "padding 1: float t[64][65]")
    assert pad1[1:] == ("2", "2", "256", "13")  # one wavefront per warp


def test_gpu_presets_and_custom_change_blocks_without_a_new_search(qtbot, window):
    panel = open_pattern(qtbot, window, column_read_64())
    searched = panel.advice.seconds
    panel.set_gpu("a100")  # 167,936 // 17,408 = 9; padding 32: // 25,600 = 6
    assert panel.advice.gpu.key == "a100" and panel.advice.seconds == searched
    pts = {pt.padding: pt.blocks for pt in panel.chart.points}
    assert (pts[0], pts[32]) == (9, 6)
    panel.set_gpu("v100")  # no reservation, 256 B units: 98,304 // 16,384 = 6
    assert panel.chart.points[0].blocks == 6
    panel.set_gpu("custom", shared_per_sm=64 * 1024, shared_per_block=64 * 1024)  # from V100: 65,536 // 16,384
    assert panel.custom_box.isVisible() and panel.gpu.shared_per_sm == 65536 and panel.gpu.granularity == 256
    assert panel.chart.points[0].blocks == 4
    assert rows(panel)[0][4] == "4"
    panel.spins["shared_per_block"].setValue(100)  # more per block than per SM: refused, said
    assert "cannot exceed" in panel.custom_error.text() and panel.gpu.shared_per_block == 64 * 1024
    panel.set_gpu("h100")
    assert not panel.custom_box.isVisible() and panel.chart.points[0].blocks == 13


def test_invalid_pattern_is_a_message(qtbot, window):
    panel = open_pattern(qtbot, window, transpose())
    window.document.analysis = None  # what the document holds for a file that does not validate
    panel.run()
    assert "not valid" in panel.summary.text()


def test_slow_ranking_waits_for_run(qtbot, window, monkeypatch):
    from dataclasses import replace

    from bankexplorer.gui import advisor_panel

    panel = open_pattern(qtbot, window, transpose())
    monkeypatch.setattr(advisor_panel, "AUTO_RUN_LIMIT_S", 0.0)  # as if the last ranking were slow
    doc = window.document
    doc.apply(doc.pattern.with_array(0, replace(doc.pattern.arrays[0], padding=1)), "padding")
    assert not panel.apply_button.isEnabled()  # at once, before any ranking
    qtbot.wait(3 * advisor_panel.DEBOUNCE_MS)
    assert not panel.up_to_date and not panel.running
    assert panel.summary.text().startswith("The pattern changed; press Run")
    assert not panel.apply_button.isEnabled() and not panel.apply_row(0)  # a stale ranking is never applied
    with qtbot.waitSignal(panel.adviceReady, timeout=10000):
        qtbot.mouseClick(panel.run_button, Qt.MouseButton.LeftButton)
    assert panel.up_to_date and panel.advice.current.wavefronts == 64


def test_edit_during_a_ranking_is_ranked_next(qtbot, window):
    from dataclasses import replace

    panel = open_pattern(qtbot, window, transpose())
    doc = window.document
    panel.run()
    assert panel.running
    doc.apply(doc.pattern.with_array(0, replace(doc.pattern.arrays[0], padding=2)), "padding")
    qtbot.waitUntil(lambda: panel.up_to_date and not panel.running, timeout=10000)
    assert panel.advice.current.wavefronts == 96  # padding 2: 2-way conflicts on the column reads
    assert panel.advice.pattern is doc.pattern


def test_pattern_without_arrays_has_no_chart(qtbot, window):
    p = Pattern(name="explicit", block=(32, 1, 1),
                instructions=(Instruction(kind="load", width=4, addresses=tuple(4 * i for i in range(32))),))
    panel = open_pattern(qtbot, window, p)
    assert rows(panel) == [("current layout", "1", "1", "0", "32")]
    assert panel.chart.points == [] and panel.chart.caption.text().startswith("No padding to chart")


def test_dock_is_restored_open_next_time(qtbot, tmp_path):
    ini = str(tmp_path / "restore.ini")
    first = MainWindow(QSettings(ini, QSettings.Format.IniFormat))
    first.show()
    first.tools["advisor"].dock.show()
    first.save_settings()
    first.tools["advisor"].panel.shutdown()
    first.close()
    second = MainWindow(QSettings(ini, QSettings.Format.IniFormat))
    try:
        second.show()
        assert second.tools["advisor"].dock.toggleViewAction().isChecked()
    finally:
        second.tools["advisor"].panel.shutdown()
        second.close()


def test_better_but_not_ideal_names_the_best(qtbot, window):
    # a 32-way conflict on explicit addresses no layout moves, plus a column read a layout fixes
    explicit = Instruction(kind="load", width=4, addresses=tuple(128 * i for i in range(32)))
    column = Instruction(kind="load", array="s", index=("lane", "0"))
    p = Pattern(arrays=(SharedArray("s", "float", (32, 32)),), block=(32, 1, 1), instructions=(explicit, column))
    panel = open_pattern(qtbot, window, p)
    assert panel.summary.text() == ("No candidate is conflict-free; best is XOR col ^= row: 33 wavefronts "
                                    "against an ideal of 2 (now 64).")
    assert rows(panel)[0][:3] == ("XOR col ^= row", "33", "2")


def test_broken_instruction_is_said_not_ranked(qtbot, window):
    p = Pattern(arrays=(SharedArray("s", "float", (32, 32)),), block=(32, 1, 1),
                instructions=(Instruction(kind="load", array="s", index=("lane + 1", "0")),))
    panel = open_pattern(qtbot, window, p)  # a file may arrive broken; the window still opens it
    assert panel.summary.text().startswith("Cannot rank layouts: ")
    assert "correct the instruction first" in panel.summary.text()
    assert panel.table.rowCount() == 0 and not panel.apply_button.isEnabled()
