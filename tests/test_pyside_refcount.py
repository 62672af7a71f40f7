"""PySide6-Essentials 6.12.0 drops a reference to ``None`` on every Qt call that returns nothing;
on Python < 3.12 the interpreter then aborts ("none_dealloc") in the middle of a redraw. The
dependency pin keeps that release off 3.11; this runs the loop that showed it, in a subprocess with
whatever PySide6 is installed, so a later release with the same bug fails here, not for a user."""

from __future__ import annotations

import os
import subprocess
import sys

LOOP = """
import sys
from PySide6.QtWidgets import QApplication, QLabel
app = QApplication([])
label = QLabel()
before = sys.getrefcount(None)
for i in range(200_000):
    label.setText("x")
    label.setVisible(i % 2 == 0)
print("done", sys.getrefcount(None) - before)
"""


def _pyside_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    for dist in ("PySide6-Essentials", "PySide6"):
        try:
            return f"{dist} {version(dist)}"
        except PackageNotFoundError:
            pass
    return "PySide6 (version unknown)"


def test_200000_void_qt_calls_do_not_abort_the_interpreter():
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    p = subprocess.run([sys.executable, "-c", LOOP], env=env, capture_output=True, text=True, timeout=600)
    where = f"{_pyside_version()} on Python {sys.version.split()[0]}"
    assert p.returncode == 0, f"{where}: the QLabel loop died (exit {p.returncode}): {p.stderr.strip()[-600:]}"
    word, drift = p.stdout.split()
    # a good release moves None's count by a handful (7 seen with 6.11.3 on 3.11); the bad one by
    # one per call, until it reaches zero. From 3.12 None is immortal and the count does not move.
    assert word == "done" and abs(int(drift)) < 1000, f"{where}: None's reference count moved by {drift}"


def test_the_gui_package_leaves_the_interpreter_alone():
    """The old work-around added 2**40 references to None/True/False on import; it is gone."""
    code = ("import sys; before = [sys.getrefcount(x) for x in (None, True, False)]; import bankexplorer.gui; "
            "print(max(abs(sys.getrefcount(x) - b) for x, b in zip((None, True, False), before)))")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    assert int(p.stdout) < 1 << 20
