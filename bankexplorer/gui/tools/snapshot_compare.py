"""Tools › Compare: Set as Before (snapshot), Compare with Snapshot (the Before pane), Clear; and
File › Export › Export Comparison… (before and after as one PNG or SVG). The advisor's *Compare*
opens its chosen candidate as the after of a comparison."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QDockWidget, QFileDialog, QMessageBox
from shiboken6 import isValid

from ...model.errors import BankExplorerError
from ..compare import BeforePane, Snapshot

if TYPE_CHECKING:
    from ..app import MainWindow
    from .host import ToolHost


class CompareTool:
    def __init__(self, win: "MainWindow"):
        self.win = win
        self.snap = Snapshot(win.document, win)
        self._pane: BeforePane | None = None  # made when first needed (see pane)
        self.dock = QDockWidget(BeforePane.title, win)
        self.dock.setObjectName("dock_before")
        # a full-height column of its own in the left area, right of the editor and instruction
        # list, so the before tile sits beside the live one
        win.addDockWidget(Qt.DockWidgetArea.LeftDockWidgetArea, self.dock, Qt.Orientation.Horizontal)
        self.dock.hide()
        self.dock.visibilityChanged.connect(self._visibility)
        self._tabbed = False  # the Summary put in a tab beside the Timeline to make room

    @property
    def pane(self) -> BeforePane:
        """The dock's contents, made the first time they are needed: building the snapshot's two
        views took a tenth of the window's start, and most sessions never open the pane."""
        if self._pane is None:
            self._pane = BeforePane(self.snap)
            self.dock.setWidget(self._pane)
        return self._pane

    def set_before(self) -> None:
        self.snap.set()
        self.win.statusBar().showMessage("Kept as Before: edit the pattern, the Before pane compares", 5000)
        self.show()

    def show(self) -> None:
        was_visible = self.dock.isVisible()
        pane = self.pane
        if not was_visible and not self.dock.isFloating():
            # the Summary into its tab before the column appears: shown first, the Before column
            # beside the Timeline and the Summary side by side asked for more than a 1366-pixel
            # screen, and the window grew past the screen's edge
            self._make_room()
        self.dock.show()
        self.dock.raise_()
        if not was_visible and not self.dock.isFloating():
            self._make_room()
            QTimer.singleShot(0, self._make_room)  # again once the columns have settled
            QTimer.singleShot(0, self._fit)  # the tile below is narrower now: fit both
        pane.refresh_now()

    def _make_room(self) -> None:
        """The Before column comes out of the middle (the live tile, the Timeline, the Summary)
        and the bank views, down to what keeps each readable (the views' minimum sizes). When the
        middle is then too narrow for the Timeline and the Summary side by side, the Summary goes
        into a tab beside the Timeline instead of both being squeezed (their captions clipped,
        the kernel column behind a scroll bar)."""
        from ..app import MIN_VIEW_SIZE

        win, H = self.win, Qt.Orientation.Horizontal
        w = win.width()
        docks = win.docks
        left = docks["editor"].width() if docks["editor"].isVisible() else 0
        right_min = MIN_VIEW_SIZE["banks"][0] + 12
        before = max(280, min(420, int(w * 0.2)))
        right = max(right_min, min(480, int(w * 0.25)))
        middle = w - left - before - right - 24
        pair = MIN_VIEW_SIZE["timeline"][0] + MIN_VIEW_SIZE["summary"][0] + 30
        timeline, summary = docks.get("timeline"), docks.get("summary")
        if timeline is not None and summary is not None and summary.isVisible() and not summary.isFloating():
            if middle < pair and not self._tabbed:
                win.tabifyDockWidget(timeline, summary)
                self._tabbed = True
                timeline.raise_()
        sizes = {self.dock: before}
        if "banks" in docks and docks["banks"].isVisible() and not docks["banks"].isFloating():
            sizes[docks["banks"]] = right
        win.resizeDocks(list(sizes), list(sizes.values()), H)
        if not self._tabbed and summary is not None and timeline is not None and summary.isVisible():
            mid = summary.width() + timeline.width()
            win.resizeDocks([summary], [max(MIN_VIEW_SIZE["summary"][0] + 10, int(mid * 0.44))], H)

    def _visibility(self, visible: bool) -> None:
        """The Before pane closed: the Summary goes back beside the Timeline."""
        if visible and self._pane is None:  # shown another way (the View menu): its contents now
            self.dock.setWidget(self.pane)
        win = self.win
        if visible or not self._tabbed or not isValid(win) or not win.isVisible():
            return  # shown, never tabbed, or the window is closing
        timeline, summary = win.docks.get("timeline"), win.docks.get("summary")
        self._tabbed = False
        if timeline is not None and summary is not None:
            # a dock in a tab group is split off only after leaving it (splitDockWidget would
            # add it as one more tab)
            win.removeDockWidget(summary)
            win.addDockWidget(Qt.DockWidgetArea.BottomDockWidgetArea, summary)
            summary.show()
            win.splitDockWidget(timeline, summary, Qt.Orientation.Horizontal)
            QTimer.singleShot(0, lambda: win.resizeDocks(
                [summary], [max(300, int((summary.width() + timeline.width()) * 0.44))], Qt.Orientation.Horizontal))

    def _fit(self) -> None:
        self.win.fit_views()
        self.pane.tile.fit(force=True)
        self.pane.banks.fit(force=True)

    def compare_with(self, before, after, text: str) -> bool:
        """Keep ``before`` as the snapshot and make ``after`` the document (one undoable edit)."""
        self.snap.set(before)
        ok = self.win.document.apply(after, text)
        self.show()
        return ok

    def export(self, path: str | None = None, scale: int = 2, style: str | None = None) -> int | None:
        win = self.win
        if self.snap.pattern is None:
            QMessageBox.warning(win, "Export Comparison", "No snapshot to compare with: use Tools › Compare › "
                                                          "Set as Before first.")
            return None
        if path is None:
            path, _ = QFileDialog.getSaveFileName(win, "Export Comparison", str(Path.home() / "compare.png"),
                                                  "PNG image (*.png);;SVG image (*.svg)")
            if not path:
                return None
        if Path(path).suffix.lower() not in (".png", ".svg"):
            path += ".png"
        from ...export.compare import export_compare

        kb, ka = self.snap.pair()
        s = win.document.selection
        try:
            n, _ = export_compare(self.snap.pattern, win.document.pattern, path, scale=scale, style=style,
                                  instruction=kb, instruction_after=ka, warp=s.warp)
        except BankExplorerError as e:
            QMessageBox.warning(win, "Export Comparison", str(e))
            return None
        win.statusBar().showMessage(f"Exported {Path(path).name} ({n:,} bytes)", 5000)
        return n


def install(win: "ToolHost") -> "CompareTool":
    tool = CompareTool(win)
    menu = win.menus["tools"].addMenu("&Compare")
    win.menus["compare"] = menu
    a = QAction("Set as &Before", win)
    a.setShortcut(QKeySequence("Ctrl+Shift+B"))
    a.setStatusTip("Keep the pattern as it is now, to compare the edits that follow against it")
    a.triggered.connect(tool.set_before)
    menu.addAction(a)
    a = QAction("Compare with &Snapshot", win)
    a.triggered.connect(lambda: tool.show() if tool.snap.pattern is not None else tool.set_before())
    menu.addAction(a)
    a = QAction("&Clear Snapshot", win)
    a.triggered.connect(lambda: (tool.snap.clear(), tool.dock.hide()))
    menu.addAction(a)
    exp = win.menus.get("export")
    if exp is not None:
        a = QAction("Export &Comparison…", win)
        a.setStatusTip("The snapshot (before) and the pattern now (after) side by side, PNG or SVG")
        a.triggered.connect(lambda: tool.export())
        exp.insertAction(exp.actions()[2] if len(exp.actions()) > 2 else None, a)
    advisor = win.tools.get("advisor")
    if advisor is not None:  # the advisor's Compare opens its candidate here, once its panel is made
        advisor.dock.when_built(lambda panel: panel.compareRequested.connect(tool.compare_with))
    return tool
