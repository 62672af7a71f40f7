"""Window sizes that fit the screen a window opens on.

The window's first size (1600 x 1000) and Import CUDA's (1500 x 860) are more than a 1366 x 768
laptop screen has: without a window manager that shrinks them, their bottom rows (the dialog's
Import and Close buttons) were off the screen. A window that does not fit takes the screen's work
area instead: the main window maximized, where its layout was made to hold (issue 27's sizes).
The same holds for a window restored from a larger screen (a laptop taken off its monitor): Qt put
it where it could, 1283 x 573 on a 1366 x 768 screen, with the docks laid out for the other.
"""

from __future__ import annotations

from PySide6.QtCore import QRect, QSize, Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QWidget

#: room a window manager's frame takes around a dialog (title bar, borders)
FRAME = QSize(16, 48)


def work_area(widget: QWidget) -> QRect | None:
    """The available geometry of the screen ``widget`` opens on; None on the offscreen platform,
    whose 800 x 800 screen is a placeholder, not a screen a person looks at."""
    if QGuiApplication.platformName() == "offscreen":
        return None
    screen = widget.screen() or QGuiApplication.primaryScreen()
    return screen.availableGeometry() if screen is not None else None


def fits(area: QRect, size: QSize) -> bool:
    return size.width() <= area.width() and size.height() <= area.height()


def dialog_size(area: QRect | None, size: QSize) -> QSize:
    """``size``, or as much of it as the work area holds with a frame around it."""
    if area is None:
        return size
    return QSize(min(size.width(), area.width() - FRAME.width()), min(size.height(), area.height() - FRAME.height()))


def place_main_window(win: QWidget, size: QSize) -> None:
    """The first start's size: ``size`` where it fits, else the work area, maximized."""
    area = work_area(win)
    if area is None or fits(area, size + FRAME):
        win.resize(size)
        return
    win.setGeometry(area)  # where no window manager maximizes it, the work area all the same
    win.setWindowState(win.windowState() | Qt.WindowState.WindowMaximized)


def area_value(widget: QWidget) -> list[int] | None:
    """The work area's size as settings keep it (saved with the geometry), None offscreen."""
    area = work_area(widget)
    return [area.width(), area.height()] if area is not None else None


def fit_restored(win: QWidget, saved: object) -> bool:
    """After ``restoreGeometry``: a window saved on a screen larger than this one (``saved``: the
    work area's [width, height] then), or one that does not fit this screen's work area, takes the
    work area, maximized. True when it did: the saved dock layout was made for another size."""
    area = work_area(win)
    if area is None:
        return False
    try:
        sw, sh = (int(x) for x in saved)  # type: ignore[union-attr]
    except (TypeError, ValueError):
        sw, sh = 0, 0
    larger = sw > area.width() or sh > area.height()
    if not larger and fits(area, win.frameGeometry().size()) and area.contains(win.frameGeometry().center()):
        return False
    win.setGeometry(area)
    win.setWindowState(win.windowState() | Qt.WindowState.WindowMaximized)
    return True
