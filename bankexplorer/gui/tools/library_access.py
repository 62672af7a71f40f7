"""Tools > Add library access, and the same menu on an "Add access" button beside the
instruction editor's Duplicate/Remove: ldmatrix/stmatrix fragments, float4 copies and CuTe TV
copies over the array being edited (see :class:`..layout_editors.AccessMenu`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtWidgets import QToolButton

from ..layout_editors import AccessMenu

if TYPE_CHECKING:
    from .host import ToolHost


class LibraryAccessTool:
    """The menu, and its button beside the instruction editor's (None where the editor has no row)."""

    def __init__(self, menu: AccessMenu, button: QToolButton | None):
        self.menu = menu
        self.button = button


def install(window: "ToolHost") -> LibraryAccessTool:
    editor = window.editor
    pick = getattr(editor, "array_pick", None)
    menu = AccessMenu(window.document, (lambda: pick.currentIndex()) if pick is not None else None, window)
    menu.setTitle("Add &library access")
    menu.message.connect(lambda m: window.statusBar().showMessage(m, 10000))
    window.menus["tools"].addMenu(menu)
    b = None
    anchor = getattr(editor, "add_btn", None)  # the Duplicate button's row, when the panel has one
    if anchor is not None and anchor.parentWidget() is not None and anchor.parentWidget().layout() is not None:
        b = QToolButton()
        b.setText("Add access")
        b.setStyleSheet("QToolButton::menu-indicator { image: none; }")  # the row is narrow
        b.setToolTip("Add an ldmatrix/stmatrix fragment, a float4 copy or a CuTe TV copy of this array")
        b.setPopupMode(QToolButton.InstantPopup)
        b.setMenu(menu)
        anchor.parentWidget().layout().addWidget(b)
    return LibraryAccessTool(menu, b)
