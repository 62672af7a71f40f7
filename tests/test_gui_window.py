"""The window, driven through its real widgets: spin boxes, a drag in the tile view, hovering,
the File and Edit menus, the unsaved-changes prompt, settings, drops, the exception hook."""

from __future__ import annotations

import os
import sys

import numpy as np
import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QEvent, QMimeData, QObject, QPointF, QSettings, Qt, QUrl  # noqa: E402
from PySide6.QtGui import QDropEvent, QMouseEvent  # noqa: E402
from PySide6.QtWidgets import QApplication, QMessageBox  # noqa: E402
import pyqtgraph as pg  # noqa: E402

from bankexplorer import resources  # noqa: E402
from bankexplorer.gui.app import MainWindow, install_excepthook  # noqa: E402
from bankexplorer.gui.editors import BAD  # noqa: E402
from bankexplorer.io import patternfile  # noqa: E402

EX = resources.EXAMPLES


@pytest.fixture(autouse=True)
def no_modal_dialogs(monkeypatch):
    """A modal box would wait forever offscreen: every question is answered Discard, every
    warning recorded, unless a test installs its own answer."""
    monkeypatch.setattr(QMessageBox, "question", staticmethod(lambda *a, **k: QMessageBox.StandardButton.Discard))
    monkeypatch.setattr(QMessageBox, "warning", staticmethod(lambda *a, **k: QMessageBox.StandardButton.Ok))


@pytest.fixture
def settings(tmp_path):
    return QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)


def _open_window(qtbot, settings, example: str = "06_transpose_32x32.json") -> MainWindow:
    w = MainWindow(settings)
    qtbot.addWidget(w)
    w.resize(1600, 1000)
    w.show()
    qtbot.waitExposed(w)
    assert w.open_path(EX / example, ask=False)
    w.refresh_now()
    QApplication.processEvents()
    w.refresh_now()
    return w


@pytest.fixture
def win(qtbot, settings):
    w = _open_window(qtbot, settings)
    yield w
    w.document.undo_stack.setClean()  # no prompt when the fixture closes it


def _mouse(view, kind, data_xy, buttons=Qt.MouseButton.NoButton, button=Qt.MouseButton.NoButton,
           modifiers=Qt.KeyboardModifier.NoModifier, vb=None):
    """Send a mouse event to a pyqtgraph view at a point given in the data coordinates of ``vb``."""
    vb = vb or view.vb
    scene = vb.mapViewToScene(QPointF(*data_xy))
    local = QPointF(view.mapFromScene(scene))
    glob = QPointF(view.viewport().mapToGlobal(local.toPoint()))
    ev = QMouseEvent(kind, local, glob, button, buttons, modifiers)
    QApplication.sendEvent(view.viewport(), ev)
    QApplication.processEvents()


@pytest.fixture(autouse=True)
def _every_move_delivered():
    """pyqtgraph drops mouse moves closer than 1/mouseRateLimit s apart; synthetic moves come
    microseconds apart, so which ones arrive (and whether a drag starts at all) would depend on
    the machine's speed. Deliver them all while a test runs."""
    old = pg.getConfigOption("mouseRateLimit")
    pg.setConfigOption("mouseRateLimit", -1)
    yield
    pg.setConfigOption("mouseRateLimit", old)


def _drag(view, start, end, steps: int = 6, modifiers=Qt.KeyboardModifier.NoModifier):
    L, N = Qt.MouseButton.LeftButton, Qt.MouseButton.NoButton
    _mouse(view, QEvent.Type.MouseMove, start, N, N, modifiers)  # hover first, as a hand does
    _mouse(view, QEvent.Type.MouseButtonPress, start, L, L, modifiers)
    for k in range(1, steps + 1):
        t = k / steps
        p = (start[0] + (end[0] - start[0]) * t, start[1] + (end[1] - start[1]) * t)
        _mouse(view, QEvent.Type.MouseMove, p, L, N, modifiers)
    _mouse(view, QEvent.Type.MouseButtonRelease, end, N, L, modifiers)


# ---- editing -----------------------------------------------------------------------------------
def test_padding_spin_box_changes_document_and_every_view(win):
    doc = win.document
    assert doc.analysis.totals().wavefronts == 32 + 1024  # 32x32 transpose: column reads 32-way
    assert doc.selection.instruction == 1  # opened on the most expensive instruction, the column read
    doc.select(instruction=0)
    win.refresh_now()
    assert win.matrix.caption.text().startswith("1 wavefront")  # instruction 0, row store
    doc.select(instruction=1)
    win.refresh_now()
    assert "32 wavefronts" in win.matrix.caption.text()
    assert win.tile.grid.cols == 32
    spin = win.editor.fields["arr.padding"]
    spin.setValue(1)  # what typing 1 or clicking the arrow does
    win.refresh_now()
    assert doc.pattern.arrays[0].padding == 1 and doc.dirty
    assert doc.analysis.totals().wavefronts == 64
    assert win.tile.grid.cols == 33  # the padding column is drawn
    assert (win.tile.grid.bank[:, 32] == -1).all()
    assert win.matrix.caption.text().startswith("1 wavefront")  # the column read: conflict-free now
    assert int(win.matrix.grid.max()) == 0  # every mark is in the first wavefront
    assert win.banks.map.array[1, 0] == -2  # word 32 is padding: the diagonal of the padded tile
    assert "padding 1" in win.tile.caption.text()
    assert win.instructions.table.item(1, 2).text() == "32"
    assert win.windowTitle() == f"{doc.pattern.name} * — BankExplorer"  # an example has no path


def test_drag_padding_edge_then_undo(win, qtbot):
    doc = win.document
    tile = win.tile
    assert tile.grid.cols == 32 and doc.pattern.arrays[0].padding == 0
    _drag(tile, (32.0, 10.5), (35.0, 10.5))
    assert doc.pattern.arrays[0].padding == 3  # dragged by three columns
    win.refresh_now()
    assert tile.grid.cols == 35
    assert doc.undo_stack.count() == 1  # the whole drag is one step
    _drag(tile, (35.0, 12.5), (33.0, 12.5))
    assert doc.pattern.arrays[0].padding == 1
    undo = next(a for a in win.menus["edit"].actions() if a.text().startswith("&Undo") or "Undo" in a.text())
    undo.trigger()
    assert doc.pattern.arrays[0].padding == 3
    undo.trigger()
    assert doc.pattern.arrays[0].padding == 0 and not doc.dirty
    assert doc.analysis.totals().wavefronts == 32 + 1024


def test_drag_an_accessed_cell_moves_that_lane(win):
    doc = win.document
    doc.select(instruction=0)  # the window opens on instruction 1 (the costliest); drag the store's cell
    win.refresh_now()
    # instruction 0 stores tile[threadIdx.y + 8k][threadIdx.x]: lane 5 of warp 0 writes tile[0][5]
    assert win.tile.lanes_at(0, 5) == [5]
    _drag(win.tile, (5.5, 0.5), (8.5, 0.5))
    ins = doc.pattern.instructions[0]
    assert ins.index[1] == "(threadIdx.x) + (lane == 5 ? 3 : 0)"
    win.refresh_now()
    assert win.tile.lanes_at(0, 8) == [5, 8] and win.tile.lanes_at(0, 5) == []
    assert win.matrix.grid[5, 8] == 0 and win.matrix.grid[5, 5] < 0  # lane 5's mark moved to bank 8
    # moving it down would leave the array for the last warp: rejected, the pattern stays
    _drag(win.tile, (8.5, 0.5), (8.5, 3.5))
    assert doc.pattern.instructions[0] == ins and doc.errors and "out of bounds" in doc.errors[0][1]
    assert "out of bounds" in win.statusBar().currentMessage()
    doc.undo_stack.undo()
    assert doc.pattern.instructions[0] == patternfile.load(EX / "06_transpose_32x32.json").instructions[0]


def test_invalid_expression_marks_field_and_keeps_last_analysis(win, qtbot):
    doc = win.document
    doc.select(instruction=0)  # the editor shows the selected instruction: edit the store's index
    field = win.editor.fields["ins.index0"]
    field.setFocus()
    field.selectAll()
    qtbot.keyClicks(field, "threadIdx.y ")  # applied when editing finishes (Enter), not per key
    assert doc.pattern.instructions[0].index[0] != "threadIdx.y "
    qtbot.keyClick(field, Qt.Key.Key_Return)
    assert doc.pattern.instructions[0].index[0] == "threadIdx.y "
    before = doc.analysis
    qtbot.keyClicks(field, "+")
    qtbot.keyClick(field, Qt.Key.Key_Return)
    assert field.styleSheet() == BAD
    assert "column" in field.toolTip()
    assert doc.analysis is before and doc.pattern.instructions[0].index[0] == "threadIdx.y "
    assert win.editor.error_label.text()
    qtbot.keyClicks(field, " 1")  # valid again: the mark goes away
    qtbot.keyClick(field, Qt.Key.Key_Return)
    assert field.styleSheet() == ""
    assert doc.pattern.instructions[0].index[0] == "threadIdx.y + 1"


def test_hover_tile_cell_highlights_lane_everywhere(win):
    doc = win.document
    doc.select(instruction=1)  # the column read: lane L reads tile[L][x] ... for warp 0, x = 0
    win.refresh_now()
    lanes = win.tile.lanes_at(7, 0)
    assert lanes == [7]
    _mouse(win.tile, QEvent.Type.MouseMove, (0.5, 7.5))
    assert doc.hover_state.lane == 7
    assert win.matrix.lane_band.isVisible()
    assert win.matrix.lane_band.rect().y() == 7
    assert win.timeline.lane_band.isVisible() and win.timeline.lane_band.rect().y() == 7
    # the banks view outlines the word lane 7 reads: element [7][0] = word 7 * 32 = bank 0
    pos = win.banks.hover_cells.getData()
    assert list(zip(pos[0].tolist(), pos[1].tolist())) == [(0.5, 7.5)]
    win.tile.leaveEvent(QEvent(QEvent.Type.Leave))
    assert doc.hover_state.empty and not win.matrix.lane_band.isVisible()


def test_hover_matrix_bank_highlights_tile_cells(win):
    doc = win.document
    _mouse(win.matrix, QEvent.Type.MouseMove, (3.5, 3.5))
    assert doc.hover_state.lane == 3 and doc.hover_state.bank == 3
    n = len(win.tile.hover_cells.getData()[0])
    assert n == 1  # the cell lane 3 writes


def test_every_example_opens_and_draws(qtbot, settings):
    w = _open_window(qtbot, settings)
    names = [a.text() for a in w.menus["examples"].actions()]
    assert len(names) == len(resources.examples()) >= 20
    for path in resources.examples():
        assert w.open_path(path), path.name
        w.refresh_now()
        doc = w.document
        assert doc.analysis is not None, path.name
        assert not doc.dirty and doc.undo_stack.count() == 0
        assert w.tile.grid is not None and w.banks.map is not None, path.name
        assert w.windowTitle() == f"{doc.pattern.name} — BankExplorer"  # clean: no marker
        t = doc.analysis.totals()
        assert f"{t.wavefronts:,}" in w.summary.toPlainText()


def test_one_dimensional_array_wraps_in_bank_rows(qtbot, settings):
    w = _open_window(qtbot, settings, "04_stride32_float.json")  # float s[1024]
    g = w.tile.grid
    assert (g.rows, g.cols) == (32, 32)
    assert g.element_at(3, 5) == (3 * 32 + 5,)
    assert int(g.bank[3, 5]) == 5
    assert w.tile.lanes_at(7, 0) == [7]  # s[lane * 32]: lane 7 reads element 224 = row 7, col 0
    w.document.undo_stack.setClean()


# ---- files ---------------------------------------------------------------------------------------
def test_unsaved_changes_prompt_on_new_open_close(win, monkeypatch, tmp_path):
    doc = win.document
    asked = []

    def answer(button):
        def question(*args, **kw):
            asked.append(args[2] if len(args) > 2 else "")
            return button
        monkeypatch.setattr(QMessageBox, "question", staticmethod(question))

    win.editor.fields["arr.padding"].setValue(1)
    assert doc.dirty
    answer(QMessageBox.StandardButton.Cancel)
    win.new_file()
    assert doc.pattern.arrays[0].padding == 1 and len(asked) == 1  # cancelled: nothing changed
    assert not win.open_path(EX / "01_stride1_float.json")
    assert doc.pattern.arrays[0].padding == 1 and len(asked) == 2
    assert not win.close() and win.isVisible() and len(asked) == 3
    answer(QMessageBox.StandardButton.Discard)
    win.open_path(EX / "01_stride1_float.json")
    assert doc.pattern.name == patternfile.load(EX / "01_stride1_float.json").name and not doc.dirty
    # Save: the answer "Save" writes the file and goes on
    target = tmp_path / "kept.json"
    win.open_path(EX / "06_transpose_32x32.json")
    doc.mark_saved(target)
    win.editor.fields["arr.padding"].setValue(2)
    answer(QMessageBox.StandardButton.Save)
    win.new_file()
    assert patternfile.load(target).arrays[0].padding == 2
    assert doc.pattern.name == "untitled" and not doc.dirty
    n = len(asked)
    win.new_file()  # clean: no question
    assert len(asked) == n


def test_save_is_atomic_and_recent_files(win, tmp_path, monkeypatch, settings):
    doc = win.document
    target = tmp_path / "p.json"
    doc.mark_saved(target)
    win.editor.fields["arr.padding"].setValue(1)
    assert win.save()
    assert patternfile.load(target).arrays[0].padding == 1 and not doc.dirty
    assert win.recent_files()[0] == str(target.resolve())
    assert settings.value("recent") is not None
    # a failed rename leaves the old file whole and no temporary file behind
    win.editor.fields["arr.padding"].setValue(2)
    warned = []
    monkeypatch.setattr(QMessageBox, "warning", staticmethod(lambda *a, **k: warned.append(a[2])))

    def broken_replace(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", broken_replace)
    assert not win.save()
    assert warned and "No space left" in warned[0]
    assert patternfile.load(target).arrays[0].padding == 1
    assert sorted(p.name for p in tmp_path.iterdir() if p.suffix != ".ini") == ["p.json"]
    assert doc.dirty
    monkeypatch.undo()
    # recent files: newest first, no duplicates, shown in the menu, and they open
    other = tmp_path / "q.json"
    patternfile.save(patternfile.load(EX / "01_stride1_float.json"), other)
    doc.undo_stack.setClean()
    assert win.open_path(other)
    assert win.recent_files()[:2] == [str(other.resolve()), str(target.resolve())]
    menu = [a.text() for a in win.menus["recent"].actions()]
    assert menu[:2] == win.recent_files()[:2]
    win.menus["recent"].actions()[1].trigger()
    assert doc.path == target.resolve() or doc.path == target


def test_bad_file_is_reported_and_document_kept(win, tmp_path, monkeypatch):
    bad = tmp_path / "bad.json"
    bad.write_text('{"version": 1, "arrays": 5}')
    warned = []
    monkeypatch.setattr(QMessageBox, "warning", staticmethod(lambda *a, **k: warned.append(a[2])))
    before = win.document.pattern
    assert not win.open_path(bad)
    assert warned and "bad.json" in warned[0]
    assert win.document.pattern is before


def test_drop_a_file_opens_it(win, tmp_path):
    f = tmp_path / "dropped.json"
    patternfile.save(patternfile.load(EX / "05_broadcast.json"), f)
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(f))])
    ev = QDropEvent(QPointF(200, 200), Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton,
                    Qt.KeyboardModifier.NoModifier)
    win.dropEvent(ev)
    assert win.document.path == f
    assert win.document.pattern == patternfile.load(EX / "05_broadcast.json")


def test_open_example_menu_opens_without_a_path(win):
    acts = win.menus["examples"].actions()
    target = next(a for a in acts if a.text().startswith("07"))
    target.trigger()
    assert win.document.path is None  # an example is never overwritten by Save
    assert win.document.pattern.arrays[0].padding == 1


def test_geometry_and_dock_state_restored(qtbot, settings):
    w = _open_window(qtbot, settings)
    w.resize(760, 700)  # the offscreen screen is 800 x 800; the views' minimum sizes may widen it
    w.docks["summary"].hide()
    w.docks["timeline"].setFloating(True)
    QApplication.processEvents()
    saved = (w.width(), w.height())
    w.close()
    w2 = MainWindow(settings)
    qtbot.addWidget(w2)
    assert not w2._layout_pending  # the saved state was taken
    w2.show()
    qtbot.waitExposed(w2)
    # Qt fits the saved geometry into the (800-pixel) offscreen screen; the views' minimum sizes
    # keep it from going narrower than they need
    assert w2.width() <= max(saved[0], 800) + 4 and abs(w2.height() - saved[1]) <= 4
    assert w2.width() >= w2.minimumSizeHint().width() - 4
    assert not w2.docks["summary"].isVisible()
    assert w2.docks["timeline"].isFloating()
    w2.apply_default_layout()  # View > Reset Layout brings every core dock back
    assert w2.docks["summary"].isVisible() and not w2.docks["timeline"].isFloating()
    w2.document.undo_stack.setClean()


def test_exception_hook_shows_message_and_keeps_document(win, monkeypatch):
    monkeypatch.setattr(sys, "excepthook", sys.excepthook)  # restored after the test
    monkeypatch.setattr(sys, "stderr", open(os.devnull, "w"))
    install_excepthook(lambda: win)
    before = win.document.pattern
    try:
        raise RuntimeError("boom in a slot")
    except RuntimeError:
        sys.excepthook(*sys.exc_info())
    boxes = [b for b in win.findChildren(QMessageBox) if b.isVisible()]
    assert boxes and "RuntimeError: boom in a slot" in boxes[-1].text()
    assert "boom in a slot" in win.statusBar().currentMessage()
    assert win.document.pattern is before
    for b in boxes:
        b.close()


def test_redo_shortcut_and_edit_menu(win):
    doc = win.document
    acts = {a.text().split("\t")[0].replace("&", "").split(" ")[0]: a for a in win.menus["edit"].actions()}
    win.editor.fields["arr.padding"].setValue(4)
    win.editor._end_session()
    win.editor.fields["arr.padding"].setValue(5)
    assert doc.undo_stack.count() == 2
    acts["Undo"].trigger()
    assert doc.pattern.arrays[0].padding == 4
    assert win.editor.fields["arr.padding"].value() == 4  # the field follows the document
    acts["Redo"].trigger()
    assert doc.pattern.arrays[0].padding == 5
    from PySide6.QtGui import QKeySequence
    assert QKeySequence("Ctrl+Shift+Z") in acts["Redo"].shortcuts()


def test_views_keep_a_hand_zoom_across_edits(win):
    vb = win.tile.vb
    vb.setRange(xRange=(0, 8), yRange=(0, 8), padding=0)
    vb.sigRangeChangedManually.emit(vb.state["mouseEnabled"])
    r0 = vb.viewRange()
    win.editor.fields["arr.padding"].setValue(1)
    win.refresh_now()
    assert np.allclose(vb.viewRange(), r0)
    win.fit_views()
    assert vb.viewRange()[0][1] > 30


def test_short_wide_array_folds_rows_into_bank_rows(qtbot, settings):
    w = _open_window(qtbot, settings, "12_float4_loads.json")  # float sh[8][128], 16-byte loads
    g = w.tile.grid
    assert (g.fold, g.rows, g.cols) == (4, 32, 32)
    assert g.element_at(1, 0) == (0, 32) and g.element_at(5, 3) == (1, 35)
    r, c = g.cell_of(np.array([[7, 127]]))
    assert (int(r[0]), int(c[0])) == (31, 31)
    assert w.tile.lanes_at(0, 4) == [1] and w.tile.lanes_at(1, 0) == [8]  # lane 8 reads sh[0][32..35]
    assert w.tile.edge.lines == []  # no padding handle on a folded array (the spin box sets it)
    assert len(w.tile.row_lines.lines) == 7  # a separator under each of the 8 rows but the last
    assert "4 lines of 32" in w.tile.caption.text()
    w.document.undo_stack.setClean()


class _EventCount(QObject):
    def __init__(self, kinds):
        super().__init__()
        self.kinds, self.n = kinds, 0

    def eventFilter(self, obj, ev):  # noqa: N802 - Qt's name
        if ev.type() in self.kinds:
            self.n += 1
        return False


@pytest.mark.parametrize("example", ["22_triton_swizzled_shared_ldmatrix.json", "11_lane_column_8warps.json"])
def test_window_goes_idle_after_an_edit(qtbot, settings, example):
    """A layout that depends on its scroll bars can resize itself forever (the summary did, at
    this size, on these examples: 26,000 resizes a second): after an edit the window settles."""
    w = _open_window(qtbot, settings, example)
    spin = w.editor.fields["arr.base"]
    spin.setValue(spin.value() + 128)
    qtbot.wait(500)  # the edit's own deferred refreshes and relayouts, even on a slow machine
    count = _EventCount({QEvent.Type.Resize, QEvent.Type.LayoutRequest, QEvent.Type.Paint})
    QApplication.instance().installEventFilter(count)
    try:
        qtbot.wait(300)
    finally:
        QApplication.instance().removeEventFilter(count)
    assert count.n < 20
    w.document.undo_stack.setClean()


def test_summary_reads_and_copies_as_text(qtbot, settings):
    """The painted summary (no QTextDocument) still reads as its numbers, row by row, and Copy
    puts exactly that text on the clipboard."""
    w = _open_window(qtbot, settings, "04_stride32_float.json")
    text = w.summary.toPlainText()
    lines = text.splitlines()
    assert lines[0] == "#0 load s[lane * 32], warp 0"
    assert "wavefronts\t32\t32\t32" in lines  # selected, pattern, kernel
    assert "N-way conflict\t32-way\t32-way" in lines
    # latency and instruction counts are two rows: one quantity a row, no unit crammed into a cell
    assert "latency (cycles)\t≈ 91" in lines and "warp instructions\t1\t1\t1" in lines
    assert "Shared memory: 4,096 B" in lines and "float s[1024]\t4,096 B" in lines
    w.summary.copy()
    assert QApplication.clipboard().text() == text
    # the numbers follow an edit: a stride of 33 floats is conflict-free
    k = w.document.pattern.instructions[0]
    from dataclasses import replace
    assert w.document.apply(w.document.pattern.with_instruction(0, replace(k, index=("lane * 33",))), "stride 33")
    w.refresh_now()
    assert "wavefronts\t1\t1\t1" in w.summary.toPlainText().splitlines()
    w.document.undo_stack.setClean()


@pytest.mark.parametrize("example", ["09_xor_swizzle_row_variant.json", "15_ldmatrix_x4_swizzle343.json",
                                     "16_atomics_cas_and_loops.json"])
def test_random_edits_through_the_side_panel_never_break_the_window(qtbot, settings, example):
    """A fixed-seed walk over the side panel's fields (spin boxes near their value and at their
    ends, every combo entry, good and bad expressions): pytest-qt fails the test on any exception
    in a slot or paint; the document always keeps a valid analysis, and undo walks back home."""
    import random

    from PySide6.QtWidgets import QCheckBox, QComboBox, QLineEdit, QSpinBox

    w = _open_window(qtbot, settings, example)
    doc = w.document
    start = doc.pattern
    rng = random.Random(f"fuzz-{example}")
    texts = ["lane", "lane * 2", "threadIdx.x ^ 3", "1/0", "lane +", "(", "99999999", "-1", "k % 4", "row ^ col",
             "8 x 8", "0", "x", "threadIdx.y * 33 + lane"]
    keys = sorted(k for k, f in w.editor.fields.items() if f.isEnabled())
    for _ in range(40):
        key = rng.choice(keys)
        f = w.editor.fields[key]
        if not f.isEnabled():
            continue
        if isinstance(f, QSpinBox):
            v = rng.choice([f.minimum(), f.maximum(), f.value() + rng.randint(-3, 3), f.value() * 2])
            f.setValue(max(f.minimum(), min(f.maximum(), v)))
        elif isinstance(f, QComboBox) and f.count():
            f.setCurrentIndex(rng.randrange(f.count()))
        elif isinstance(f, QLineEdit):
            t = rng.choice(texts)
            f.setText(t)
            f.editingFinished.emit()  # a text field applies when editing finishes
        elif isinstance(f, QCheckBox):
            f.setChecked(not f.isChecked())
        w.editor._end_session()
        w.refresh_now()
        QApplication.processEvents()
        assert doc.analysis is not None and doc.pattern is not None
        assert doc.analysis.pattern == doc.pattern  # the views show the document's valid state
    while doc.undo_stack.canUndo():
        doc.undo_stack.undo()
    assert doc.pattern == start
    doc.undo_stack.setClean()


def test_every_axis_title_is_centred_on_its_axis(win):
    """The matrix view's "bank" and "words" titles sat 25 px off centre: their HTML was set again
    (an SI prefix that never comes) after the axis had placed them."""
    seen = []
    for v in win.views:
        for it in v.scene().items():
            if isinstance(it, pg.AxisItem) and it.isVisible() and it.label.isVisible():
                br = it.label.mapRectToParent(it.label.boundingRect())
                if it.orientation in ("top", "bottom"):
                    off = br.center().x() - it.width() / 2
                else:
                    off = br.center().y() - it.height() / 2
                seen.append((type(v).__name__, it.label.toPlainText().strip()))
                assert abs(off) <= 1.5, (seen[-1], off)
    assert ("MatrixView", "bank") in seen and ("MatrixView", "words") in seen and len(seen) >= 6


def test_panels_most_sessions_never_open_are_made_when_first_needed(win):
    """Start-up builds what the window shows: the trace list and the Before's document wait."""
    assert not win.docks["trace"].built and win.docks["trace"].isHidden()
    assert win.tools["snapshot_compare"].snap._before is None
    panel = win.trace  # asked for: made, in its dock, wired to the window
    assert win.docks["trace"].built and win.docks["trace"].widget() is panel
    assert panel.receivers("2instructionChosen(int)") >= 1
    win.tools["snapshot_compare"].set_before()
    assert win.tools["snapshot_compare"].snap.before.pattern is win.document.pattern


def test_instruction_columns_fit_and_hold_still_while_a_value_is_stepped(win, qtbot):
    """The number columns fit their widest cell; stepping the padding back and forth (32-way,
    1-way, 32-way, ...) leaves every column where it is, and opening a file fits them again."""
    table = win.instructions.table
    header = table.horizontalHeader()

    def widths():
        return [header.sectionSize(c) for c in range(table.columnCount())]

    def fits():
        return all(header.sectionSize(c) >= max(table.sizeHintForColumn(c), header.sectionSizeHint(c))
                   for c in (0, 2, 3, 4))

    assert fits() and table.item(1, 4).text() == "32-way"
    wide = widths()
    spin = win.editor.fields["arr.padding"]
    for step in range(4):
        spin.setValue(1 - step % 2)
        win.document.undo_stack.clear()
        win.refresh_now()
        assert table.item(1, 4).text() == ("1-way" if step % 2 == 0 else "32-way")
        assert widths() == wide and fits()
    # a file whose every instruction is conflict-free: the "worst" column fits "1-way" again
    win.open_path(resources.EXAMPLES / "07_transpose_padded_32x33.json", ask=False)
    win.refresh_now()
    assert table.item(1, 4).text() == "1-way"
    assert header.sectionSize(4) == max(table.sizeHintForColumn(4), header.sectionSizeHint(4)) < wide[4]


def test_help_about_names_the_version_the_compilers_and_the_emulator(win, monkeypatch):
    """Help > About: the version, then each part found (NVRTC's package and version among them)
    and whether the emulator runs its compiled shared-memory paths."""
    from bankexplorer import __version__
    from bankexplorer.sass import compiled

    shown = []
    monkeypatch.setattr(QMessageBox, "about", staticmethod(lambda parent, title, text: shown.append((title, text))))
    next(a for a in win.menus["help"].actions() if a.text() == "&About").trigger()
    assert len(shown) == 1
    title, text = shown[0]
    assert title == "About BankExplorer" and f"BankExplorer {__version__}" in text
    assert "nvidia-cuda-nvrtc" in text
    assert ("emulator: compiled" if compiled.shared is not None else "emulator: numpy only") in text
