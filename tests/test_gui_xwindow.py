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


@pytest.fixture(scope="module")
def display():
    n = 90
    while Path(f"/tmp/.X{n}-lock").exists() or Path(f"/tmp/.X11-unix/X{n}").exists():
        n += 1
    xvfb = subprocess.Popen(["Xvfb", f":{n}", "-screen", "0", "1920x1200x24", "-nolisten", "tcp"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(50):
        if Path(f"/tmp/.X11-unix/X{n}").exists():
            break
        time.sleep(0.1)
    if xvfb.poll() is not None:
        pytest.skip("Xvfb did not start")
    yield f":{n}"
    xvfb.terminate()
    xvfb.wait(timeout=10)


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
