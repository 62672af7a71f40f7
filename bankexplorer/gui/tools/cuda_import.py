"""Tools > Import CUDA…: the menu action. The dialog (:mod:`..cuda_dialog`) and the compiler are
loaded when it is first opened, not at start-up."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtGui import QAction, QKeySequence

if TYPE_CHECKING:
    from ..cuda_dialog import CudaImportDialog
    from .host import ToolHost


class CudaImportTool:
    """The menu action and the window's one dialog (None until first opened)."""

    def __init__(self, action: QAction):
        self.action = action
        self.dialog: "CudaImportDialog | None" = None


def open_dialog(window: "ToolHost", path: str | None = None) -> "CudaImportDialog":
    from ..cuda_dialog import open_dialog as open_

    return open_(window, path)


def install(window: "ToolHost") -> CudaImportTool:
    a = QAction("Import &CUDA…", window)
    a.setShortcut(QKeySequence("Ctrl+Shift+I"))
    a.setStatusTip("Paste or open a kernel: it is compiled and one block executed; see its bank conflicts per "
                   "line and import it")
    a.triggered.connect(lambda: open_dialog(window))
    window.menus["tools"].addAction(a)
    return CudaImportTool(a)
