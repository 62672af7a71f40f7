"""The program starts with Python's cycle collector off and turns it back on, with start-up's
objects frozen, once each command has started (bankexplorer/startup.py); callers in the same
process (these tests, a notebook) never see it off."""

from __future__ import annotations

import gc
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
        import bankexplorer.advisor.cli as _cli
        _run = _cli._run
        def _probe(args):
            print("during", gc.isenabled(), gc.get_freeze_count() > 0, flush=True)
            return _run(args)
        _cli.COMMANDS["advise"] = (_cli.COMMANDS["advise"][0], _probe, _cli.COMMANDS["advise"][2])
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
