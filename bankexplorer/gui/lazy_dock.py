"""A dock whose contents are made the first time they are needed.

The window starts with several docks hidden (the advisor, ...): building their widgets up front
cost start-up time for panels most sessions never open. A :class:`LazyDock` is placed, restored
and toggled like any dock; its widget is made when the dock first comes on screen, or when code
asks for it (:meth:`LazyDock.content`).
"""

from __future__ import annotations

from typing import Callable

from PySide6.QtWidgets import QDockWidget, QWidget


class LazyDock(QDockWidget):
    def __init__(self, title: str, make: Callable[[], QWidget], parent: QWidget | None = None):
        super().__init__(title, parent)
        self._make: Callable[[], QWidget] | None = make
        self._when_built: list[Callable[[QWidget], None]] = []

    @property
    def built(self) -> bool:
        return self._make is None

    def content(self) -> QWidget:
        """The dock's widget, made now if it was not yet."""
        if self._make is not None:
            make, self._make = self._make, None
            w = make()
            self.setWidget(w)
            for f in self._when_built:
                f(w)
            self._when_built.clear()
        return self.widget()

    def when_built(self, f: Callable[[QWidget], None]) -> None:
        """Call ``f(widget)`` once the widget exists (now, if it does)."""
        if self._make is None:
            f(self.widget())
        else:
            self._when_built.append(f)

    def showEvent(self, ev) -> None:  # noqa: N802 - Qt's name
        self.content()
        super().showEvent(ev)
