"""Tools > Advisor: a right-hand dock (tabbed with the matrix view) that ranks the layouts which
remove the current pattern's bank conflicts (:class:`..advisor_panel.AdvisorPanel`). The panel
and the advisor's search are loaded the first time the dock is shown or :attr:`AdvisorTool.panel`
is used, not at start-up."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QKeySequence

from ..lazy_dock import LazyDock

if TYPE_CHECKING:
    from .host import ToolHost


class AdvisorTool:
    """The advisor's dock; its panel is made when first shown or asked for."""

    def __init__(self, dock: LazyDock):
        self.dock = dock

    @property
    def panel(self):
        """The dock's :class:`..advisor_panel.AdvisorPanel` (made now if it was not yet)."""
        return self.dock.content()


def install(window: "ToolHost") -> AdvisorTool:
    def make():
        from ..advisor_panel import AdvisorPanel

        return AdvisorPanel(window.document)

    dock = LazyDock("Advisor", make, window)
    dock.setObjectName("dock_advisor")
    if not window.restoreDockWidget(dock):  # where and whether it was open last time, else:
        window.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, dock)
        if "matrix" in window.docks:
            window.tabifyDockWidget(window.docks["matrix"], dock)
        dock.hide()
    action = dock.toggleViewAction()
    action.setText("&Advisor…")
    action.setShortcut(QKeySequence("Ctrl+Shift+A"))
    action.setStatusTip("Rank layouts that remove the bank conflicts, with their cost in blocks per SM")
    action.triggered.connect(lambda on: dock.raise_() if on else None)
    window.menus["tools"].addAction(action)
    if os.environ.get("BANKEXPLORER_ADVISOR") == "1":  # screenshots: open with the dock showing
        dock.show()
        QTimer.singleShot(0, dock.raise_)  # once the window is shown, or a restored tab stays behind
    return AdvisorTool(dock)
