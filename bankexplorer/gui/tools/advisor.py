"""Tools > Advisor: a right-hand dock (tabbed with the matrix view) that ranks the layouts which
remove the current pattern's bank conflicts (:class:`..advisor_panel.AdvisorPanel`). The panel
and the advisor's search are loaded the first time the dock is shown or ``window.advisor`` is
used, not at start-up."""

from __future__ import annotations

import os

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QKeySequence

from ..lazy_dock import LazyDock


def install(window) -> None:
    def make():
        from ..advisor_panel import AdvisorPanel

        return AdvisorPanel(window.document)

    dock = LazyDock("Advisor", make, window)
    dock.setObjectName("dock_advisor")
    if not window.restoreDockWidget(dock):  # where and whether it was open last time, else:
        window.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, dock)
        if "matrix" in getattr(window, "docks", {}):
            window.tabifyDockWidget(window.docks["matrix"], dock)
        dock.hide()
    action = dock.toggleViewAction()
    action.setText("&Advisor…")
    action.setShortcut(QKeySequence("Ctrl+Shift+A"))
    action.setStatusTip("Rank layouts that remove the bank conflicts, with their cost in blocks per SM")
    action.triggered.connect(lambda on: dock.raise_() if on else None)
    window.menus["tools"].addAction(action)
    window.advisor_dock = dock
    window.add_lazy("advisor", dock.content)
    if os.environ.get("BANKEXPLORER_ADVISOR") == "1":  # screenshots: open with the dock showing
        dock.show()
        QTimer.singleShot(0, dock.raise_)  # once the window is shown, or a restored tab stays behind
