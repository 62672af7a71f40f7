"""The tile view's caption, padding handle, default fit and lane labels, in the real window."""

from __future__ import annotations

import os

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QPointF, QSettings  # noqa: E402
from PySide6.QtGui import QFontMetricsF  # noqa: E402
from PySide6.QtWidgets import QApplication, QMessageBox  # noqa: E402

from bankexplorer import resources  # noqa: E402
from bankexplorer.gui.app import MainWindow  # noqa: E402

EX = resources.EXAMPLES


@pytest.fixture(autouse=True)
def no_modal_dialogs(monkeypatch):
    monkeypatch.setattr(QMessageBox, "question", staticmethod(lambda *a, **k: QMessageBox.StandardButton.Discard))


def _open(qtbot, tmp_path, example: str) -> MainWindow:
    w = MainWindow(QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    qtbot.addWidget(w)
    w.resize(1600, 1000)
    w.show()
    qtbot.waitExposed(w)
    assert w.open_path(EX / example, ask=False)
    for _ in range(2):
        w.refresh_now()
        QApplication.processEvents()
    return w


def test_layout_names_are_text_not_markup(qtbot, tmp_path):
    w = _open(qtbot, tmp_path, "20_cute_sw333_ldmatrix_x4.json")
    w.document.select(instruction=0)  # it opens on instruction 1 (the unswizzled, costlier read)
    w.refresh_now()
    assert "Sw<3,3,3>" in w.tile.caption.text()  # the <...> was swallowed as an HTML tag


def test_padding_handle_only_where_the_layout_takes_padding(qtbot, tmp_path):
    w = _open(qtbot, tmp_path, "07_transpose_padded_32x33.json")
    assert w.tile.grid.paddable and w.tile.edge_hint.isVisible()
    assert "drag the dashed edge" in w.tile.caption.text()
    for ex in ("20_cute_sw333_ldmatrix_x4.json", "22_triton_swizzled_shared_ldmatrix.json", "23_tma_128b_ldmatrix.json"):
        assert w.open_path(EX / ex, ask=False)
        w.refresh_now()
        t = w.tile
        assert not t.grid.paddable and not t.edge_hint.isVisible(), ex
        assert "drag the dashed edge" not in t.caption.text(), ex
        assert t.drag_begin(QPointF(t.grid.cols, t.grid.rows / 2), 0) is None, ex


def test_64_row_array_fits_whole_and_a_long_one_says_rows_follow(qtbot, tmp_path):
    w = _open(qtbot, tmp_path, "23_tma_128b_ldmatrix.json")  # half A[64][64]
    (_, _), (y0, y1) = w.tile.vb.viewRange()
    assert y0 <= 0 and y1 >= 64  # every row is on screen
    assert not w.tile.more_cue.isVisible()
    w.tile.vb.setRange(yRange=(0, 30), padding=0)  # scrolled: rows 30.. are below
    QApplication.processEvents()
    assert w.tile.more_cue.isVisible()
    assert w.tile.more_cue.text() == "rows 30–63 below ↓ (scroll)"
    w.document.undo_stack.setClean()


def test_boxed_lane_labels_stay_inside_their_box(qtbot, tmp_path):
    w = _open(qtbot, tmp_path, "20_cute_sw333_ldmatrix_x4.json")  # ldmatrix: 8 halves per lane, one box
    t = w.tile
    assert sorted(int(lab[2]) for lab in t.lane_labels.labels) == list(range(32))
    assert all(lab[4] is not None for lab in t.lane_labels.labels)  # each on a light box
    px = t._cell_pixels()
    box_h = QFontMetricsF(t.lane_labels.font).height() + 2 * t.lane_labels.margin  # the filled box, in pixels
    assert box_h <= px - 2, (box_h, px)


def test_short_wide_array_is_centred_and_a_full_one_starts_at_its_top(qtbot, tmp_path):
    w = _open(qtbot, tmp_path, "16_atomics_cas_and_loops.json")  # int counts[64]: 2 rows of 32
    (x0, x1), (y0, y1) = w.tile.vb.viewRange()
    assert w.tile.grid.rows == 2 and y1 - y0 > 8  # far more room than rows
    assert abs((y0 + y1) / 2 - 1.0) < 0.05  # the two rows sit in the middle, not stuck on top
    assert x0 < 0 and x1 > 32
    w.document.undo_stack.setClean()
    w2 = _open(qtbot, tmp_path, "06_transpose_32x32.json")  # fills the height: starts at row 0
    (_, _), (y0, y1) = w2.tile.vb.viewRange()
    assert -1.5 < y0 <= 0 and y1 >= 32
