"""The window as its tools see it: the one interface a tool (a module of this package) is given.

A tool adds its actions and docks through :class:`ToolHost` and keeps its own state on the object
its ``install`` returns, which the window keeps in ``tools`` under the module's name
(``window.tools["imported_kernel"]``): nothing is patched onto the window, and the window names no
tool.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from PySide6.QtWidgets import QDockWidget, QMenu, QStatusBar

    from ..document import Document
    from ..editors import EditorPanel
    from ..views import TimelineView


class ToolHost(Protocol):
    """What a tool may use of the window (a ``QMainWindow``: a tool parents its actions on it and
    adds, tabifies, restores and sizes its docks with the main window's own methods)."""

    #: the one document every view shows and every edit goes through
    document: "Document"
    #: the menu bar's menus by name: ``file``, ``view``, ``tools``, ``export`` (once added), ...
    menus: dict[str, "QMenu"]
    #: the window's docks by name: ``editor``, ``instructions``, ``banks``, ``matrix``, ``timeline``, ...
    docks: dict[str, "QDockWidget"]
    #: every tool's object, by its module's name (the tools installed before this one)
    tools: dict[str, object]
    #: the instruction editor (a tool adds a button to its row)
    editor: "EditorPanel"
    #: the timeline view (the replay bar goes on top of it)
    timeline: "TimelineView"

    def statusBar(self) -> "QStatusBar":  # noqa: N802 - Qt's name
        ...

    def default_dock_sizes(self, width: int, height: int) -> dict[str, int]:
        ...

    def fit_views(self) -> None:
        ...
