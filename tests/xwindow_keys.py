"""The undo keys in a real X window: run under an X server (Xvfb) with QT_QPA_PLATFORM=xcb.

Opens the 32x32 transpose, drags the tile's dashed padding edge three columns to the right with
real mouse events (xdotool), then presses Ctrl+Z, Ctrl+Shift+Z, Ctrl+Z and Ctrl+Y as real key
events, reading the document's padding after each. Prints one JSON line
``{"drag": 3, "keys": [["ctrl+z", 0], ...]}`` and exits 0 when every key did what it should,
1 when one did not, 3 when the window could not be driven (no xdotool). Used by
``tests/test_gui_xwindow.py`` and ``.ci/gui_smoke.sh``; the offscreen tests cannot see this,
because there Qt's platform key bindings differ (on X11 the standard Redo is Ctrl+Shift+Z).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from PySide6.QtCore import QPointF, QSettings, QTimer
from PySide6.QtWidgets import QApplication

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bankexplorer import resources  # noqa: E402
from bankexplorer.gui.app import MainWindow  # noqa: E402

#: the key presses and the padding each must leave (the drag made it 3)
KEYS = [("ctrl+z", 0), ("ctrl+shift+z", 3), ("ctrl+z", 0), ("ctrl+y", 3)]


def screen_point(win: MainWindow, x: float, y: float) -> tuple[int, int]:
    """A point of the tile's data coordinates on the screen."""
    view = win.tile
    local = view.mapFromScene(view.vb.mapViewToScene(QPointF(x, y)))
    g = view.viewport().mapToGlobal(local)
    return g.x(), g.y()


class Driver:
    """Runs the steps one after the other from the event loop (xdotool runs beside it, so the
    window keeps handling the events it sends)."""

    def __init__(self, app: QApplication, win: MainWindow):
        self.app, self.win = app, win
        self.proc: subprocess.Popen | None = None
        self.result: dict = {"keys": []}
        self.steps = iter(self._steps())
        self.timer = QTimer()
        self.timer.timeout.connect(self._tick)
        self.rc = 1

    def _xdo(self, *args: str) -> None:
        self.proc = subprocess.Popen(["xdotool", *args])

    def _padding(self) -> int:
        return self.win.document.pattern.arrays[0].padding

    def _steps(self):
        win = self.win
        win.refresh_now()
        yield 300
        self._xdo("windowfocus", "--sync", str(int(win.winId())))
        yield 200
        (x0, y0), (x1, _) = screen_point(win, 32.0, 10.5), screen_point(win, 35.0, 10.5)
        moves: list[str] = ["mousemove", str(x0), str(y0), "sleep", "0.2", "mousedown", "1", "sleep", "0.2"]
        for k in range(1, 7):
            moves += ["mousemove", str(x0 + (x1 - x0) * k // 6), str(y0), "sleep", "0.08"]
        moves += ["mouseup", "1"]
        self._xdo(*moves)
        yield 400
        self.result["drag"] = self._padding()
        for key, _want in KEYS:
            self._xdo("key", "--clearmodifiers", key)
            yield 300
            self.result["keys"].append([key, self._padding()])
        ok = self.result["drag"] == 3 and [p for _, p in self.result["keys"]] == [w for _, w in KEYS]
        self.rc = 0 if ok else 1

    def _tick(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            return  # xdotool still at it
        self.proc = None
        try:
            delay = next(self.steps)
        except StopIteration:
            self.timer.stop()
            print(json.dumps(self.result), flush=True)
            self.win.document.undo_stack.setClean()
            self.app.exit(self.rc)
            return
        self.timer.start(delay)

    def start(self) -> None:
        self.timer.start(500)


def main() -> int:
    if shutil.which("xdotool") is None:
        print("xdotool is not installed", file=sys.stderr)
        return 3
    app = QApplication(sys.argv[:1])
    with tempfile.TemporaryDirectory() as tmp:
        win = MainWindow(QSettings(os.path.join(tmp, "s.ini"), QSettings.Format.IniFormat))
        win.resize(1600, 1000)
        win.move(0, 0)
        win.show()
        win.activateWindow()
        win.open_path(resources.EXAMPLES / "06_transpose_32x32.json", ask=False)
        driver = Driver(app, win)
        driver.start()
        rc = app.exec()
        win.document.undo_stack.setClean()
        win.close()
    return rc


if __name__ == "__main__":
    sys.exit(main())
