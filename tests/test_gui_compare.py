"""Before vs after in the window: the snapshot, the Before pane, its export, the advisor's Compare."""

from __future__ import annotations

import os
import xml.etree.ElementTree as ET

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QSettings  # noqa: E402
from PySide6.QtWidgets import QApplication, QFileDialog, QMessageBox  # noqa: E402

from bankexplorer import resources  # noqa: E402
from bankexplorer.gui.app import MainWindow  # noqa: E402

EX = resources.EXAMPLES


@pytest.fixture(autouse=True)
def no_modal_dialogs(monkeypatch):
    monkeypatch.setattr(QMessageBox, "question", staticmethod(lambda *a, **k: QMessageBox.StandardButton.Discard))
    monkeypatch.setattr(QMessageBox, "warning", staticmethod(lambda *a, **k: QMessageBox.StandardButton.Ok))


@pytest.fixture
def win(qtbot, tmp_path):
    w = MainWindow(QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    qtbot.addWidget(w)
    w.resize(1600, 1000)
    w.show()
    qtbot.waitExposed(w)
    assert w.open_path(EX / "06_transpose_32x32.json", ask=False)
    w.refresh_now()
    yield w
    w.document.undo_stack.setClean()


def _action(menu, text):
    return next(a for a in menu.actions() if a.text().replace("&", "") == text)


def test_set_as_before_then_edit_shows_the_change(win, tmp_path, monkeypatch):
    _action(win.menus["compare"], "Set as Before").trigger()
    assert win.tools["snapshot_compare"].dock.isVisible()
    win.editor.fields["arr.padding"].setValue(1)  # pad the tile: the column read is conflict-free
    QApplication.processEvents()
    pane = win.tools["snapshot_compare"].pane
    text = pane.header_text()
    assert "32 → 1" in text and "1,056 → 64" in text and "+128 B" in text
    pane.refresh_now()
    assert pane.tile.grid.cols == 32 and win.tile.grid.cols == 33  # before unpadded, now padded
    # the pane follows the window's selection
    win.document.select(instruction=0)
    assert win.tools["snapshot_compare"].snap.before.selection.instruction == 0
    assert "1 → 1" in pane.header_text()
    # File > Export > Export Comparison…
    out = tmp_path / "cmp.svg"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(lambda *a, **k: (str(out), "")))
    _action(win.menus["export"], "Export Comparison…").trigger()
    root = ET.fromstring(out.read_bytes())
    texts = " ".join("".join(t.itertext()) for t in root.iter("{http://www.w3.org/2000/svg}text"))
    assert "BEFORE: Transpose tile[32][32]" in texts and "AFTER: Transpose tile[32][32]" in texts
    assert "+128 B" in texts


def test_export_comparison_without_a_snapshot_says_so(win, monkeypatch):
    said = []
    monkeypatch.setattr(QMessageBox, "warning", staticmethod(lambda *a, **k: said.append(a[2])))
    assert win.tools["snapshot_compare"].export("unused.png") is None
    assert said and "Set as Before" in said[0]


def test_advisor_compare_opens_the_candidate_as_the_after(win, qtbot):
    adv = win.tools["advisor"].panel
    win.tools["advisor"].dock.show()
    with qtbot.waitSignal(adv.adviceReady, timeout=10000):
        adv.run()
    best = next(i for i, r in enumerate(adv.rows) if not r.current)
    adv.table.selectRow(best)
    assert adv.compare_button.isEnabled()
    adv.compare_button.click()
    QApplication.processEvents()
    snap = win.tools["snapshot_compare"].snap
    assert snap.pattern is not None and snap.pattern.arrays == adv.advice.pattern.arrays  # before: as it was
    assert win.document.pattern != snap.pattern and win.tools["snapshot_compare"].dock.isVisible()
    assert "32 → 1" in win.tools["snapshot_compare"].pane.header_text()
    win.document.undo_stack.undo()  # the candidate was one undoable edit
    assert win.document.pattern.arrays == snap.pattern.arrays


def test_the_before_tile_cannot_be_dragged(win):
    from PySide6.QtCore import QPointF

    win.tools["snapshot_compare"].set_before()
    t = win.tools["snapshot_compare"].pane.tile
    t.refresh()
    assert t.drag_begin(QPointF(t.grid.cols, 5.5), 0) is None
    assert t.drag_begin(QPointF(0.5, 0.5), 0) is None


def test_the_before_column_leaves_the_middle_room_for_timeline_and_summary(win, qtbot):
    """The Before column comes out of the middle and the bank views, down to the views' readable
    minimum sizes; on a narrow screen the Summary goes into a tab beside the Timeline rather
    than both being squeezed, and comes back beside it when the Before pane closes."""
    from bankexplorer.gui.app import MIN_VIEW_SIZE

    win.resize(1500, 950)
    qtbot.waitUntil(lambda: win.width() == 1500)
    timeline, summary, banks = (win.docks[k] for k in ("timeline", "summary", "banks"))
    _action(win.menus["compare"], "Set as Before").trigger()
    qtbot.waitUntil(lambda: win.tools["snapshot_compare"].dock.width() >= 280, timeout=3000)
    qtbot.wait(50)  # the middle is shared once the columns have settled
    assert banks.width() >= MIN_VIEW_SIZE["banks"][0]
    assert timeline.width() >= MIN_VIEW_SIZE["timeline"][0]
    tabbed = summary in win.tabifiedDockWidgets(timeline)
    assert tabbed or summary.width() >= MIN_VIEW_SIZE["summary"][0]
    _action(win.menus["compare"], "Clear Snapshot").trigger()
    qtbot.wait(50)
    assert summary not in win.tabifiedDockWidgets(timeline) and summary.isVisible()
