"""Tools › Compare: Set as Before (snapshot), Compare with Snapshot (the Before pane), Clear; and
File › Export › Export Comparison… (before and after as one PNG or SVG). The advisor's *Compare*
opens its chosen candidate as the after of a comparison."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QDockWidget, QFileDialog, QMessageBox

from ...export.compare import export_compare
from ...model.errors import BankExplorerError
from ..compare import BeforePane, Snapshot

if TYPE_CHECKING:
    from ..app import MainWindow


class CompareTool:
    def __init__(self, win: "MainWindow"):
        self.win = win
        self.snap = Snapshot(win.document, win)
        self.pane = BeforePane(self.snap)
        self.dock = QDockWidget(self.pane.title, win)
        self.dock.setObjectName("dock_before")
        self.dock.setWidget(self.pane)
        # a full-height column between the editor and the tile: the before tile (over its banks)
        # right beside the live one, both tall enough to show every row
        win.addDockWidget(Qt.DockWidgetArea.LeftDockWidgetArea, self.dock)
        if "editor" in win.docks:
            win.splitDockWidget(win.docks["editor"], self.dock, Qt.Orientation.Horizontal)
        self.dock.hide()

    def set_before(self) -> None:
        self.snap.set()
        self.win.statusBar().showMessage("Kept as Before: edit the pattern, the Before pane compares", 5000)
        self.show()

    def show(self) -> None:
        was_visible = self.dock.isVisible()
        self.dock.show()
        self.dock.raise_()
        if not was_visible and not self.dock.isFloating():
            self._make_room()
            QTimer.singleShot(0, self._fit)  # the tile below is shorter now: fit both
        self.pane.refresh_now()

    def _make_room(self) -> None:
        """The Before column comes out of the middle, where the live tile, the Timeline and the
        Summary are: take it from the bank views too (down to what keeps 32 banks legible), so the
        middle keeps room for the Timeline's and Summary's text."""
        win, H = self.win, Qt.Orientation.Horizontal
        w = win.width()
        before = max(300, int(w * 0.23))
        right = max(380, int(w * 0.25))
        docks, sizes = [self.dock], [before]
        if "banks" in win.docks and win.docks["banks"].isVisible() and not win.docks["banks"].isFloating():
            docks.append(win.docks["banks"])
            sizes.append(right)
        win.resizeDocks(docks, sizes, H)
        QTimer.singleShot(0, self._share_the_middle)

    def _share_the_middle(self) -> None:
        """Timeline and Summary split what the middle has left (once the columns have settled)."""
        win = self.win
        summary, timeline = win.docks.get("summary"), win.docks.get("timeline")
        if summary is None or timeline is None or not summary.isVisible() or summary.isFloating():
            return
        middle = summary.width() + timeline.width()
        win.resizeDocks([summary], [max(220, int(middle * 0.44))], Qt.Orientation.Horizontal)

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


def install(win: "MainWindow") -> None:
    tool = win.compare = CompareTool(win)
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
    adv = getattr(win, "advisor", None)
    if adv is not None and hasattr(adv, "compareRequested"):
        adv.compareRequested.connect(tool.compare_with)
