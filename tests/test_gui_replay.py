"""The replay in the window, driven by its keys and tool bar: what each view marks per step."""

from __future__ import annotations

import os

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QRectF, QSettings, Qt  # noqa: E402
from PySide6.QtWidgets import QApplication, QMessageBox  # noqa: E402

from bankexplorer import resources  # noqa: E402
from bankexplorer.gui.app import MainWindow  # noqa: E402

EX = resources.EXAMPLES


@pytest.fixture(autouse=True)
def no_modal_dialogs(monkeypatch):
    monkeypatch.setattr(QMessageBox, "question", staticmethod(lambda *a, **k: QMessageBox.StandardButton.Discard))
    monkeypatch.setattr(QMessageBox, "warning", staticmethod(lambda *a, **k: QMessageBox.StandardButton.Ok))


def _open(qtbot, tmp_path, example):
    w = MainWindow(QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    qtbot.addWidget(w)
    w.resize(1500, 950)
    w.show()
    qtbot.waitExposed(w)
    assert w.open_path(EX / example, ask=False)
    w.refresh_now()
    QApplication.processEvents()
    w.refresh_now()
    w.tile.setFocus()
    return w


def key(qtbot, w, k):
    qtbot.keyClick(w.tile, k)
    QApplication.processEvents()


def marks(w):
    return {type(v).__name__: (v.replay_marks.now_lanes, v.replay_marks.waiting_lanes) for v in w.views}


def test_step_through_a_32_way_load_one_lane_per_wavefront(qtbot, tmp_path):
    w = _open(qtbot, tmp_path, "04_stride32_float.json")  # s[lane * 32]: every lane in bank 0
    ctl = w.tools["replay_bar"].ctl
    key(qtbot, w, Qt.Key.Key_Period)  # step 0: the whole request, nothing washed out
    assert ctl.index == 0 and ctl.step.kind == "request"
    assert all(v.replay_marks is None or not v.replay_marks.isVisible() for v in w.views)
    for k in range(32):
        key(qtbot, w, Qt.Key.Key_Period)
        assert ctl.step.kind == "wavefront" and ctl.step.wave == k
        for name, (now, waiting) in marks(w).items():
            assert now == [k], (name, k)  # wavefront k serves exactly lane k
            assert waiting == list(range(k + 1, 32)), (name, k)
        # where: tile cell (row k, column 0) of s[1024] drawn 32 per row; bank 0 of bank row k;
        # matrix (bank 0, lane k); the timeline's cycle k; and the cursor on cycle k
        assert w.tile.replay_marks.now_rects == [QRectF(0, k, 1, 1)]
        assert w.banks.replay_marks.now_rects == [QRectF(0, k, 1, 1)]
        assert w.matrix.replay_marks.now_rects == [QRectF(0, k, 1, 1)]
        assert w.timeline.replay_marks.now_rects == [QRectF(k, k, 1, 1)]
        assert w.timeline.cursor_wave == k
    assert w.tools["replay_bar"].label.text().strip() == "32/32" and "wavefront 32 / 32" in w.statusBar().currentMessage()
    key(qtbot, w, Qt.Key.Key_Period)  # the totals: everything shown again
    assert ctl.step.kind == "totals" and not w.tile.replay_marks.isVisible()
    key(qtbot, w, Qt.Key.Key_Period)  # stays at the end
    assert ctl.index == 33
    key(qtbot, w, Qt.Key.Key_Comma)
    key(qtbot, w, Qt.Key.Key_Comma)
    assert ctl.step.wave == 30 and w.matrix.replay_marks.now_lanes == [30]
    key(qtbot, w, Qt.Key.Key_Escape)  # stop: no marks
    assert ctl.index is None and w.document.replay_step is None
    assert all(not v.replay_marks.isVisible() for v in w.views)


def test_float4_wavefronts_serve_quarter_warps(qtbot, tmp_path):
    w = _open(qtbot, tmp_path, "12_float4_loads.json")
    ctl = w.tools["replay_bar"].ctl
    ctl.seek(2)  # the second wavefront: lanes 8-15
    for name, (now, waiting) in marks(w).items():
        assert now == list(range(8, 16)) and waiting == list(range(16, 32)), name
    # a float4 lane covers 4 tile cells and 4 banks
    assert len(w.tile.lane_rects(8)) == 4 and len(w.matrix.lane_rects(8)) == 4


def test_space_plays_and_pauses_and_speed_sets_the_interval(qtbot, tmp_path):
    w = _open(qtbot, tmp_path, "06_transpose_32x32.json")  # opens on the 32-way column read
    ctl, bar = w.tools["replay_bar"].ctl, w.tools["replay_bar"]
    bar.speed.setCurrentIndex(bar.speed.count() - 1)  # the fastest
    assert ctl.interval_ms() == 125
    ctl.set_speed(200)  # a test need not wait for a slide's pace
    key(qtbot, w, Qt.Key.Key_Space)
    assert ctl.playing and bar.play_action.text() == "❚❚"
    qtbot.waitUntil(lambda: ctl.index is not None and ctl.index >= 5, timeout=3000)
    key(qtbot, w, Qt.Key.Key_Space)  # pause
    assert not ctl.playing and bar.play_action.text() == "▶"
    here = ctl.index
    qtbot.wait(50)
    assert ctl.index == here  # paused: it stays
    assert w.matrix.replay_marks.now_lanes == [here - 1]
    key(qtbot, w, Qt.Key.Key_Space)  # resume to the end, where it stops by itself
    qtbot.waitUntil(lambda: not ctl.playing, timeout=5000)
    assert ctl.index == 33 and ctl.step.kind == "totals"


def test_an_edit_or_another_selection_stops_the_replay(qtbot, tmp_path):
    w = _open(qtbot, tmp_path, "06_transpose_32x32.json")
    w.tools["replay_bar"].ctl.seek(3)
    assert w.document.replay_step is not None
    w.document.select(instruction=0)
    assert w.tools["replay_bar"].ctl.index is None and w.document.replay_step is None
    w.tools["replay_bar"].ctl.seek(1)
    spin = w.editor.fields["arr.padding"]
    spin.setValue(1)
    assert w.tools["replay_bar"].ctl.index is None and w.document.replay_step is None
    w.document.undo_stack.setClean()


def test_file_export_replay_writes_wavefronts_plus_two_frames(qtbot, tmp_path, monkeypatch):
    from PIL import Image
    from PySide6.QtWidgets import QFileDialog

    w = _open(qtbot, tmp_path, "06_transpose_32x32.json")
    out = tmp_path / "r.gif"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(lambda *a, **k: (str(out), "")))
    act = next(a for a in w.menus["export"].actions() if a.text().replace("&", "") == "Export Replay…")
    act.trigger()
    with Image.open(out) as im:
        assert im.n_frames == 34  # the selected 32-way column read
