"""The undo keys in a real X window (Xvfb, Qt's xcb platform, real mouse and key events from
xdotool): a drag, then Ctrl+Z, Ctrl+Shift+Z, Ctrl+Z, Ctrl+Y change the document as they should.
Skipped when this machine has no Xvfb or xdotool, or Qt's xcb plugin cannot load (its libraries
missing); ``.ci/gui_smoke.sh`` installs them and runs the same driver."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent

pytestmark = pytest.mark.skipif(shutil.which("Xvfb") is None or shutil.which("xdotool") is None,
                                reason="needs Xvfb and xdotool (apt-get install xvfb xdotool)")


def _xvfb(size: str):
    n = 90
    while Path(f"/tmp/.X{n}-lock").exists() or Path(f"/tmp/.X11-unix/X{n}").exists():
        n += 1
    xvfb = subprocess.Popen(["Xvfb", f":{n}", "-screen", "0", f"{size}x24", "-nolisten", "tcp"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(50):
        if Path(f"/tmp/.X11-unix/X{n}").exists():
            break
        time.sleep(0.1)
    if xvfb.poll() is not None:
        pytest.skip("Xvfb did not start")
    try:
        yield f":{n}"
    finally:
        xvfb.terminate()
        xvfb.wait(timeout=10)


@pytest.fixture(scope="module")
def display():
    yield from _xvfb("1920x1200")


@pytest.fixture
def laptop_display():
    yield from _xvfb("1366x768")


#: opens the window as a first start does (no saved geometry) and Import CUDA on a kernel, then
#: prints both windows' geometry and the screen's
FIRST_START = """
import json, sys
from PySide6.QtCore import QSettings, QTimer
from PySide6.QtWidgets import QApplication
app = QApplication(sys.argv[:1])
from bankexplorer.gui.app import MainWindow
from bankexplorer.gui.cuda_dialog import open_dialog
win = MainWindow(QSettings(sys.argv[1], QSettings.Format.IniFormat))
win.show()
dlg = open_dialog(win, sys.argv[2])
def done():
    g = lambda w: list(w.frameGeometry().getRect())
    print(json.dumps({"screen": list(win.screen().availableGeometry().getRect()), "window": g(win), "dialog": g(dlg)}))
    app.quit()
QTimer.singleShot(1500, done)
app.exec()
"""


def test_the_first_start_fits_a_laptop_screen(laptop_display, tmp_path):
    """1366 x 768: the window's 1600 x 1000 and Import CUDA's 1500 x 860 were larger than the
    screen (the dialog's Import and Close buttons below its edge); both now fit it."""
    env = {k: v for k, v in os.environ.items() if k != "QT_QPA_PLATFORM"}
    env.update(DISPLAY=laptop_display, QT_QPA_PLATFORM="xcb", XDG_CONFIG_HOME=str(tmp_path))
    cu = HERE.parent / "resources" / "examples" / "cuda" / "06_transpose_32x32.cu"
    p = subprocess.run([sys.executable, "-c", FIRST_START, str(tmp_path / "s.ini"), str(cu)], env=env,
                       capture_output=True, text=True, timeout=120)
    if p.returncode != 0 and "Could not load the Qt platform plugin" in p.stderr:
        pytest.skip("Qt's xcb platform plugin cannot load here (see the README's apt-get line)")
    assert p.returncode == 0, p.stderr[-2000:]
    got = json.loads(p.stdout.strip().splitlines()[-1])
    sx, sy, sw, sh = got["screen"]
    assert (sw, sh) == (1366, 768)
    for name in ("window", "dialog"):
        x, y, w, h = got[name]
        assert x >= sx and y >= sy and x + w <= sx + sw and y + h <= sy + sh, (name, got)
    assert got["window"][2:] == [1366, 768]  # the whole screen: the layout made for it


def test_undo_and_redo_keys_after_a_drag_in_a_real_window(display):
    with tempfile.TemporaryDirectory() as tmp:
        env = {k: v for k, v in os.environ.items() if k != "QT_QPA_PLATFORM"}
        env.update(DISPLAY=display, QT_QPA_PLATFORM="xcb", XDG_CONFIG_HOME=tmp)
        p = subprocess.run([sys.executable, str(HERE / "xwindow_keys.py")], env=env, capture_output=True,
                           text=True, timeout=120)
    if p.returncode != 0 and "Could not load the Qt platform plugin" in p.stderr:
        pytest.skip("Qt's xcb platform plugin cannot load here (see the README's apt-get line)")
    assert p.returncode in (0, 1), p.stderr[-2000:]
    result = json.loads(p.stdout.strip().splitlines()[-1])
    assert result["drag"] == 3, result  # the dashed edge dragged three columns: padding 3
    assert result["keys"] == [["ctrl+z", 0], ["ctrl+shift+z", 3], ["ctrl+z", 0], ["ctrl+y", 3]], result
    assert "Ambiguous shortcut" not in p.stderr
    assert p.returncode == 0
