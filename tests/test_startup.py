"""The program starts with Python's cycle collector off and turns it back on, with start-up's
objects frozen, once each command has started (bankexplorer/startup.py); callers in the same
process (these tests, a notebook) never see it off."""

from __future__ import annotations

import gc
import importlib
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from bankexplorer import startup
from bankexplorer.cli import main

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "resources" / "examples" / "07_transpose_padded_32x33.json"


@pytest.fixture
def collector():
    yield
    gc.unfreeze()
    gc.enable()


def test_collector_on_is_a_no_op_when_it_was_never_off(collector):
    assert gc.isenabled()
    frozen = gc.get_freeze_count()
    startup.collector_on()
    assert gc.isenabled() and gc.get_freeze_count() == frozen


def test_collector_on_after_start_up_freezes_what_start_up_made(collector):
    startup.collector_off()
    kept = [[i] for i in range(1000)]  # long-lived objects of "start-up"
    assert not gc.isenabled()
    startup.collector_on()
    assert gc.isenabled()
    assert gc.get_freeze_count() >= len(kept)


def test_a_caller_of_main_keeps_its_collector(collector, capsys):
    assert main(["analyze", str(EXAMPLE)]) == 0
    assert gc.isenabled() and gc.get_freeze_count() == 0


def _program(args: list[str], probe: str) -> str:
    """Run the program (cli.main as the console script calls it) with ``probe`` run first."""
    code = textwrap.dedent(f"""
        import gc, sys
        {probe}
        sys.argv = ["bankexplorer", *{args!r}]
        from bankexplorer.cli import main
        rc = main()
        print("after", gc.isenabled(), gc.get_freeze_count() > 0, flush=True)
        sys.exit(rc)
    """)
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", BANKEXPLORER_SCREENSHOT_DELAY_MS="0")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120,
                         cwd=ROOT)
    assert out.returncode == 0, out.stderr[-2000:]
    return out.stdout


def test_a_command_runs_with_the_collector_back_on():
    # advise: a command that returns (analyze and convert leave through os._exit)
    probe = textwrap.dedent("""
        import bankexplorer.commands.advise as _advise
        _run = _advise.run
        def _probe(args):
            print("during", gc.isenabled(), gc.get_freeze_count() > 0, flush=True)
            return _run(args)
        _advise.run = _probe
    """).replace("\n", "\n        ")
    out = _program(["advise", str(EXAMPLE)], probe)
    assert "during True True" in out
    assert "after True True" in out


def test_the_window_turns_the_collector_back_on_once_shown(tmp_path):
    probe = textwrap.dedent(f"""
        import os
        os.environ["XDG_CONFIG_HOME"] = {str(tmp_path)!r}
        os.environ["BANKEXPLORER_SCREENSHOT"] = {str(tmp_path / "shot.png")!r}
        import bankexplorer.gui.app as _app
        _save = _app._save_screenshot
        def _probe(win, path, t0):
            print("shown", gc.isenabled(), gc.get_freeze_count() > 0, flush=True)
            return _save(win, path, t0)
        _app._save_screenshot = _probe
    """).replace("\n", "\n        ")
    out = _program([str(EXAMPLE)], probe)
    assert "shown True True" in out, out


def _imports_after_pyside(tmp_path: Path, skip_scan: bool) -> dict:
    """Import two modules after PySide6 in a fresh interpreter: one that only uses Qt, one that
    asks for snake_case; say whose source PySide read and what each module's Qt names are."""
    (tmp_path / "plain_mod.py").write_text(
        "from PySide6.QtCore import QObject\n\ndef name():\n    return QObject().objectName()\n")
    (tmp_path / "snake_mod.py").write_text(
        "from __feature__ import snake_case  # noqa: F401\nfrom PySide6.QtCore import QObject\n\n"
        "def name():\n    return QObject().object_name()\n")
    code = textwrap.dedent(f"""
        import inspect, json, sys, types
        read = []  # the modules whose source is read (PySide's scan reads it with inspect.getsource)
        _getsource = inspect.getsource
        def getsource(obj):
            if isinstance(obj, types.ModuleType):
                read.append(obj.__name__)
            return _getsource(obj)
        inspect.getsource = getsource
        sys.path.insert(0, {str(tmp_path)!r})
        from bankexplorer import startup
        if {skip_scan!r}:
            startup.qt_without_source_scan()
        import PySide6.QtCore
        import plain_mod, snake_mod
        snake = snake_mod.name()  # first: the plain module must not inherit its selection
        print(json.dumps({{"read": sorted(m for m in read if m.endswith("_mod")),
                           "plain": plain_mod.name(), "snake": snake}}))
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert out.returncode == 0, out.stderr[-2000:]
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_the_window_imports_pyside_without_reading_each_module_source(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    before = _imports_after_pyside(tmp_path / "a", False)
    if "plain_mod" not in before["read"]:
        pytest.skip("this PySide reads no module's source on import")
    after = _imports_after_pyside(tmp_path / "b", True)
    assert after["read"] == []  # neither module's file was read
    # and nothing else changed: Qt's names as before, snake_case where a module asked for it
    assert after["plain"] == before["plain"] == ""
    assert after["snake"] == before["snake"] == ""


def test_the_window_program_skips_the_scan_and_a_caller_keeps_it(tmp_path):
    code = textwrap.dedent(f"""
        import inspect, os, sys, types
        read = []
        _getsource = inspect.getsource
        def getsource(obj):
            if isinstance(obj, types.ModuleType):
                read.append(obj.__name__)
            return _getsource(obj)
        inspect.getsource = getsource
        os.environ["XDG_CONFIG_HOME"] = {str(tmp_path)!r}
        os.environ["BANKEXPLORER_SCREENSHOT"] = {str(tmp_path / "shot.png")!r}
        sys.argv = ["bankexplorer", {str(EXAMPLE)!r}]
        from bankexplorer.cli import main
        rc = main()
        ours = [m for m in read if m.startswith(("pyqtgraph", "bankexplorer"))]
        print("sources read", len(read), "of the window's", len(ours), flush=True)
        print("window modules", sum(m.startswith(("pyqtgraph", "bankexplorer.gui")) for m in sys.modules), flush=True)
        sys.exit(rc)
    """)
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", BANKEXPLORER_SCREENSHOT_DELAY_MS="0")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert out.returncode == 0, out.stderr[-2000:]
    # only what PySide imports while it loads (before the program can answer for it), none of
    # pyqtgraph's or the window's modules
    line = next(ln for ln in out.stdout.splitlines() if ln.startswith("sources read"))
    assert line.endswith("of the window's 0") and int(line.split()[2]) <= 5, line
    assert "window modules 0" not in out.stdout  # the window's modules were imported, unread
    # this process (a caller of the package, as a notebook is) keeps PySide as it was
    importlib.import_module("PySide6")
    feature = sys.modules.get("shibokensupport.feature")
    if feature is not None and hasattr(feature, "_mod_uses_pyside"):
        assert feature._mod_uses_pyside is not startup._uses_pyside
