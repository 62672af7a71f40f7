"""Window sizes that fit the screen a window opens on.

The window's first size (1600 x 1000) and Import CUDA's (1500 x 860) are more than a 1366 x 768
laptop screen has: without a window manager that shrinks them, their bottom rows (the dialog's
Import and Close buttons) were off the screen. A window that does not fit takes the screen's work
area instead: the main window maximized, where its layout was made to hold (issue 27's sizes).
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
