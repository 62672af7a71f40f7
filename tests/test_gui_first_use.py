"""The window as a new user finds it (issue 27): the undo keys, text and spin fields that apply
when editing finishes and say what they refuse, shared memory past one block, the replay's
status, lane numbers that can be read, views that keep a legible size, and a .cu file opened."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QRectF, Qt  # noqa: E402
from PySide6.QtGui import QKeySequence  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from bankexplorer import resources  # noqa: E402
from bankexplorer.gui import app as app_module  # noqa: E402
from bankexplorer.io import patternfile  # noqa: E402
from bankexplorer.gui.editors import BAD  # noqa: E402
from test_gui_window import (  # noqa: E402,F401 - the window's fixtures and mouse helpers
    _drag, _every_move_delivered, _open_window, no_modal_dialogs, settings, win,
)

EX = resources.EXAMPLES
CTRL = Qt.KeyboardModifier.ControlModifier
SHIFT = Qt.KeyboardModifier.ShiftModifier


def _key(qtbot, widget, key, mods=Qt.KeyboardModifier.NoModifier):
    qtbot.keyClick(widget, key, mods)
    QApplication.processEvents()


# ---- 1. the undo keys --------------------------------------------------------------------------
def test_each_redo_key_is_bound_once(qapp):
    keys = app_module.redo_keys()
    assert len(keys) == len(set(k.toString() for k in keys))
    for k in ("Ctrl+Shift+Z", "Ctrl+Y"):
        assert QKeySequence(k) in keys


def test_ctrl_z_ctrl_shift_z_and_ctrl_y_after_a_drag(win, qtbot):
    doc = win.document
    _drag(win.tile, (32.0, 10.5), (35.0, 10.5))
    assert doc.pattern.arrays[0].padding == 3
    win.tile.setFocus()
    _key(qtbot, win.tile, Qt.Key.Key_Z, CTRL)
    assert doc.pattern.arrays[0].padding == 0
    _key(qtbot, win.tile, Qt.Key.Key_Z, CTRL | SHIFT)
    assert doc.pattern.arrays[0].padding == 3
    _key(qtbot, win.tile, Qt.Key.Key_Z, CTRL)
    assert doc.pattern.arrays[0].padding == 0
    _key(qtbot, win.tile, Qt.Key.Key_Y, CTRL)
    assert doc.pattern.arrays[0].padding == 3


# ---- 2. Ctrl+Z in a field just edited ----------------------------------------------------------
def test_ctrl_z_in_a_spin_box_just_edited_undoes_the_edit(win, qtbot):
    doc = win.document
    spin = win.editor.fields["arr.padding"]
    spin.setFocus()
    _key(qtbot, spin, Qt.Key.Key_Up)  # an arrow applies at once
    assert doc.pattern.arrays[0].padding == 1
    assert spin.hasFocus()
    _key(qtbot, spin, Qt.Key.Key_Z, CTRL)
    assert doc.pattern.arrays[0].padding == 0 and spin.value() == 0
    _key(qtbot, spin, Qt.Key.Key_Z, CTRL | SHIFT)
    assert doc.pattern.arrays[0].padding == 1 and spin.value() == 1


def test_ctrl_z_in_a_text_field_takes_back_typing_first_then_the_document(win, qtbot):
    doc = win.document
    doc.select(instruction=0)
    field = win.editor.fields["ins.label"]
    label = doc.pattern.instructions[0].label
    field.setFocus()
    field.selectAll()
    qtbot.keyClicks(field, "rows")
    _key(qtbot, field, Qt.Key.Key_Return)
    assert doc.pattern.instructions[0].label == "rows"
    qtbot.keyClicks(field, "!")  # typed, not applied: Ctrl+Z puts the document's value back
    _key(qtbot, field, Qt.Key.Key_Z, CTRL)
    assert field.text() == "rows" and doc.pattern.instructions[0].label == "rows"
    assert doc.undo_stack.count() == 1
    _key(qtbot, field, Qt.Key.Key_Z, CTRL)  # nothing pending: the document's undo
    assert doc.pattern.instructions[0].label == label


# ---- 3. text fields apply when editing finishes; shared memory past a block ---------------------
def test_dimensions_apply_when_editing_finishes_and_a_refused_value_leaves_nothing(qtbot, settings):
    w = _open_window(qtbot, settings, "13_double_loads_merge.json")  # double d[64], indexed by lane
    doc = w.document
    field = w.editor.fields["arr.dims"]
    field.setFocus()
    field.selectAll()
    # "100000" on the way is a valid 800,000 B array: typed, it must not be applied
    qtbot.keyClicks(field, "100000 x 100000")
    assert doc.pattern.arrays[0].dims == (64,) and doc.undo_stack.count() == 0
    _key(qtbot, field, Qt.Key.Key_Return)
    assert doc.pattern.arrays[0].dims == (64,) and doc.undo_stack.count() == 0
    assert field.styleSheet() == BAD and "too many" in field.toolTip()
    field.selectAll()
    qtbot.keyClicks(field, "128")
    _key(qtbot, field, Qt.Key.Key_Return)
    assert doc.pattern.arrays[0].dims == (128,) and doc.undo_stack.count() == 1
    assert field.styleSheet() == ""
    doc.undo_stack.setClean()


def test_shared_memory_past_one_block_is_said(win, qtbot):
    doc = win.document
    field = win.editor.fields["arr.dims"]
    field.setFocus()
    field.selectAll()
    qtbot.keyClicks(field, "300 x 300")  # 360,000 B of floats: more than an H100 block's 227 KiB
    _key(qtbot, field, Qt.Key.Key_Return)
    assert doc.pattern.arrays[0].dims == (300, 300)
    win.refresh_now()
    text = win.summary.toPlainText()
    assert "360,000 B of shared memory is more than one block can have on an H100" in text
    assert "227 KiB" in text and "would not launch" in text
    assert win.editor.shared_note.isVisibleTo(win.editor) and "227 KiB" in win.editor.shared_note.text()
    field.selectAll()
    qtbot.keyClicks(field, "100 x 200")  # 80,000 B: only with the opt-in
    _key(qtbot, field, Qt.Key.Key_Return)
    win.refresh_now()
    assert "would not launch" not in win.summary.toPlainText()
    assert "opt-in" in win.summary.toPlainText() or "MaxDynamicSharedMemorySize" in win.summary.toPlainText()
    assert not win.editor.shared_note.isVisibleTo(win.editor)
    _key(qtbot, field, Qt.Key.Key_Z, CTRL)
    _key(qtbot, field, Qt.Key.Key_Z, CTRL)
    assert doc.pattern.arrays[0].dims == (32, 32)
    win.refresh_now()
    assert "KiB" not in win.summary.toPlainText()


# ---- 4. out-of-range numbers are said, not clamped ---------------------------------------------
def test_padding_past_its_range_is_refused_with_a_reason(win, qtbot):
    doc = win.document
    spin = win.editor.fields["arr.padding"]
    spin.setFocus()
    spin.lineEdit().selectAll()
    qtbot.keyClicks(spin, "99999")
    assert spin.text() == "99999"  # every digit stays: not silently 999
    _key(qtbot, spin, Qt.Key.Key_Return)
    assert doc.pattern.arrays[0].padding == 0 and doc.undo_stack.count() == 0
    assert spin.styleSheet() == BAD
    msg = win.editor.error_label.text()
    assert "99999" in msg and "out of range" in msg and str(spin.maximum()) in msg
    spin.lineEdit().selectAll()
    qtbot.keyClicks(spin, "3")
    _key(qtbot, spin, Qt.Key.Key_Return)
    assert doc.pattern.arrays[0].padding == 3 and spin.styleSheet() == ""


# ---- 6. the replay's status ----------------------------------------------------------------------
def test_esc_takes_the_replay_status_away(win, qtbot):
    win.tile.setFocus()
    for _ in range(3):
        _key(qtbot, win.tile, Qt.Key.Key_Period)
    assert win.tools["replay_bar"].ctl.index == 2
    assert win.statusBar().currentMessage().startswith("Replay: wavefront 2 / 32")
    _key(qtbot, win.tile, Qt.Key.Key_Escape)
    assert win.tools["replay_bar"].ctl.index is None
    assert "Replay" not in win.statusBar().currentMessage()
    assert win.tools["replay_bar"].label.text().strip() == ""


def test_the_replay_counter_stays_in_a_narrow_timeline(win, qtbot):
    bar = win.tools["replay_bar"]
    bar.setFixedWidth(250)  # the Timeline squeezed (the Before pane open on a small screen)
    QApplication.processEvents()
    win.tile.setFocus()
    for _ in range(13):  # the request, then wavefronts 1 to 12
        _key(qtbot, win.tile, Qt.Key.Key_Period)
    assert bar.label.text().strip() == "12/32"
    assert bar.label.isVisible()
    right = bar.label.mapTo(bar, bar.label.rect().topRight()).x()
    assert right <= bar.width()
    assert bar.label.width() >= bar.label.fontMetrics().horizontalAdvance(bar.label.text())


# ---- 8. a .cu file opens Import CUDA ------------------------------------------------------------
CU = Path(__file__).resolve().parent.parent / "resources" / "examples" / "cuda" / "06_transpose_32x32.cu"


def test_open_and_drop_a_cu_file_open_the_import_dialog_with_it(win, tmp_path):
    from PySide6.QtCore import QMimeData, QPointF, QUrl
    from PySide6.QtGui import QDropEvent

    doc = win.document
    before = doc.pattern
    kernel = tmp_path / "my_kernel.cu"
    kernel.write_text(CU.read_text(encoding="utf-8"), encoding="utf-8")
    assert win.open_path(kernel)
    dlg = win.tools["cuda_import"].dialog
    assert dlg is not None and dlg.isVisible()
    assert dlg.editor.toPlainText() == CU.read_text(encoding="utf-8")
    assert doc.pattern == before and not doc.errors  # nothing imported until the user says so
    dlg.hide()
    dlg.editor.setPlainText("")
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(kernel))])
    drop = QDropEvent(QPointF(10, 10), Qt.DropAction.CopyAction, mime, Qt.MouseButton.NoButton,
                      Qt.KeyboardModifier.NoModifier)
    win.dropEvent(drop)
    assert dlg.isVisible() and "__shared__" in dlg.editor.toPlainText()
    assert dlg.import_into_document()  # and its import is one undoable edit, as from the menu
    assert doc.pattern != before and doc.undo_stack.count() == 1
    dlg.close()


def test_bankexplorer_kernel_cu_opens_the_window_on_the_import_dialog(tmp_path):
    import subprocess
    import sys

    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", XDG_CONFIG_HOME=str(tmp_path),
               BANKEXPLORER_SCREENSHOT=str(tmp_path / "shot.png"), BANKEXPLORER_GRAB="widget",
               BANKEXPLORER_SCREENSHOT_DELAY_MS="100")
    p = subprocess.run([sys.executable, "-m", "bankexplorer", str(CU)], env=env, capture_output=True, text=True,
                       timeout=120)
    assert p.returncode == 0, p.stderr[-1500:]
    assert "not valid JSON" not in p.stderr
    windows = next(line for line in p.stdout.splitlines() if line.startswith("windows "))
    assert "Import CUDA" in windows


def test_the_window_exits_cleanly_with_settings_saved_before(tmp_path):
    """The second start (settings and recent files kept from the first) used to crash on its way out
    (the window's widgets freed in the interpreter's order, after Qt's): exit 0 every time."""
    import subprocess
    import sys

    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", XDG_CONFIG_HOME=str(tmp_path),
               BANKEXPLORER_SCREENSHOT=str(tmp_path / "shot.png"), BANKEXPLORER_GRAB="widget",
               BANKEXPLORER_SCREENSHOT_DELAY_MS="0")
    example = str(resources.EXAMPLES / "06_transpose_32x32.json")
    for _ in range(3):
        p = subprocess.run([sys.executable, "-m", "bankexplorer", example], env=env, capture_output=True, text=True,
                           timeout=120)
        assert p.returncode == 0, (p.returncode, p.stderr[-1500:])
    assert list(tmp_path.rglob("*.conf"))  # the settings were there for the later starts


# ---- 5. every view keeps a readable size, with and without the Before pane ----------------------
@pytest.mark.parametrize("size", [(1366, 768), (1920, 1080)])
@pytest.mark.parametrize("before", [False, True])
def test_every_view_keeps_a_readable_size(qtbot, settings, size, before):
    from bankexplorer.gui.app import MIN_VIEW_SIZE

    w = _open_window(qtbot, settings, "07_transpose_padded_32x33.json")
    w.resize(*size)
    qtbot.waitUntil(lambda: (w.width(), w.height()) == size)
    w.apply_default_layout()
    if before:
        w.tools["snapshot_compare"].snap.set(patternfile.load(EX / "06_transpose_32x32.json"))
        w.tools["snapshot_compare"].show()
    qtbot.wait(150)  # the columns settle, the Before pane makes its room
    w.refresh_now()
    QApplication.processEvents()
    timeline, summary = w.docks["timeline"], w.docks["summary"]
    tabbed = summary in w.tabifiedDockWidgets(timeline)
    for name, (mw, mh) in MIN_VIEW_SIZE.items():
        view = getattr(w, name)
        if name == "summary" and tabbed and not view.isVisible():
            continue  # in a tab beside the Timeline, at the Timeline's size
        assert view.isVisible(), name
        assert view.width() >= mw and view.height() >= mh, (name, view.width(), view.height())
    assert w.timeline.vb.height() >= 70  # the wavefronts' plot: 32 lanes and the ideal's label
    # the window still fits the screen: the Before column grew a 1366-pixel one to 1368
    assert (w.width(), w.height()) == size
    if summary.isVisible() or not tabbed:
        assert w.summary.horizontalScrollBar().maximum() == 0  # the kernel column is in view
    if before:
        pane = w.tools["snapshot_compare"].pane
        assert w.tools["snapshot_compare"].dock.isVisible() and w.tools["snapshot_compare"].dock.width() >= 280
        assert not pane.tile.more_cue.isVisible()  # the before tile shows all 32 rows
        assert pane.tile.height() >= 200 and pane.banks.height() >= 150
        if size[0] >= 1900:
            assert not tabbed  # a wide screen keeps the Timeline and the Summary side by side
    w.document.undo_stack.setClean()


# ---- 7. lane numbers that can be read; the busiest bank's label off the bars --------------------
def _lane_texts(view):
    return [lab[2] for lab in view.lane_labels.labels]


def test_lane_numbers_on_a_1d_int_array_hit_by_four_lanes_per_word(qtbot, settings):
    w = _open_window(qtbot, settings, "16_atomics_cas_and_loops.json")
    w.resize(1366, 768)
    qtbot.waitUntil(lambda: w.width() == 1366)
    w.refresh_now()
    QApplication.processEvents()
    ins = w.document.pattern.instructions[w.document.selection.instruction]
    assert ins.array == "counts"  # int counts[64], atomicAdd(&counts[lane / 4], 1)
    texts = _lane_texts(w.tile)
    assert len(texts) == 8 and [t.rstrip("+").split("+")[0] for t in texts] == [str(4 * k) for k in range(8)]
    # eight words, each named by its first lane (lanes 4k to 4k+3 add to word k)
    w.document.undo_stack.setClean()


def test_lane_numbers_on_a_narrow_tall_tile(qtbot, settings):
    w = _open_window(qtbot, settings, "28_cute_mmajor_ldmatrix_trans.json")  # half A[128][8]
    w.resize(1366, 768)
    qtbot.waitUntil(lambda: w.width() == 1366)
    w.refresh_now()
    QApplication.processEvents()
    w.refresh_now()
    px = w.tile._cell_pixels()
    assert 14 <= px <= 30  # cells sized for a number, not stretched across the view
    assert w.tile.lane_labels.used > 0
    assert all(t.split(",")[0].rstrip("+").isdigit() for t in _lane_texts(w.tile))
    w.document.undo_stack.setClean()


def test_the_busiest_bank_label_sits_above_the_bars(qtbot, settings):
    from bankexplorer.gui.views.base import detail_for

    win = _open_window(qtbot, settings, "07_transpose_padded_32x33.json")  # every bank loaded once
    m = win.matrix
    win.refresh_now()
    QApplication.processEvents()
    vb = m.bars_plot.getViewBox()
    assert m.worst_label.text().startswith("bank ")
    # in the view's pixels (the label keeps its size in pixels whatever the zoom)
    label = m.worst_label.deviceTransform(m.viewportTransform()).mapRect(m.worst_label.boundingRect())
    plot = m.mapFromScene(vb.sceneBoundingRect()).boundingRect()
    load = detail_for(win.document.analysis, win.document.selected_row).bank_load
    for b, h in enumerate(load.tolist()):
        bar = m.mapFromScene(vb.mapViewToScene(QRectF(b + 0.1, 0.0, 0.8, float(h))).boundingRect()).boundingRect()
        assert not bar.intersects(label.toRect()), (b, bar, label)
    assert plot.contains(label.toRect())  # and inside its plot, not clipped
