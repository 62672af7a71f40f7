"""The command line: tables, JSON, exit codes, one-line errors and never a traceback."""

import json
import os
import subprocess
import sys

import pytest

from bankexplorer.cli import main
from bankexplorer.resources import EXAMPLES


def cli(*args, input=None):
    return subprocess.run([sys.executable, "-m", "bankexplorer", *map(str, args)], capture_output=True, text=True,
                          timeout=60, input=input)


def test_analyze_table(capsys):
    assert main(["analyze", str(EXAMPLES / "04_stride32_float.json")]) == 0
    out = capsys.readouterr().out
    assert "load s[lane * 32]" in out and "32x" in out and "31 excess" in out


def test_analyze_json_order_and_fields(capsys):
    assert main(["analyze", str(EXAMPLES / "06_transpose_32x32.json"), "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    rows = d["instructions"]
    assert len(rows) == 64
    # file order, then loop iterations, then warps
    assert [(r["instruction"], r["iteration"], r["warp"]) for r in rows[:9]] == \
        [(0, 0, w) for w in range(8)] + [(0, 1, 0)]
    assert rows[0]["loop"] == {"k": 0} and rows[40]["wavefronts"] == 32 and rows[40]["n_way"] == 32
    assert d["totals"]["wavefronts"] == 32 + 1024


@pytest.mark.parametrize("content,fragment", [
    ("{", "not valid JSON"),
    ('{"format": "bankexplorer-pattern", "version": 1, "instructions": [{"kind": "load", "width": 3, "addresses": [0]}]}',
     "instructions[0].width: must be one of 1, 2, 4, 8, 16"),
])
def test_bad_file_exit_2_one_line(tmp_path, content, fragment):
    f = tmp_path / "bad.json"
    f.write_text(content)
    p = cli("analyze", f)
    assert p.returncode == 2
    assert fragment in p.stderr and "Traceback" not in p.stderr
    assert len(p.stderr.strip().splitlines()) == 1


def test_invalid_accesses_exit_1_and_are_reported(tmp_path):
    f = tmp_path / "oob.json"
    f.write_text(json.dumps({
        "format": "bankexplorer-pattern", "version": 1, "block": [64, 1, 1],
        "arrays": [{"name": "s", "type": "float", "dims": [32]}, {"name": "v", "type": "float", "dims": [8, 128]}],
        "instructions": [{"kind": "load", "array": "s", "index": ["lane + warp"]},
                         {"kind": "load", "width": 16, "array": "v", "index": ["warp", "lane * 2"]},
                         {"kind": "load", "array": "s", "index": ["32 / (lane - 3)"]},
                         {"kind": "load", "array": "s", "index": ["lane"]}]}))
    p = cli("analyze", f, "--json")
    assert p.returncode == 1 and "Traceback" not in p.stderr
    rows = json.loads(p.stdout)["instructions"]
    assert "index s[32] is out of bounds of float s[32]" in rows[0]["error"]
    assert "warp 1 lane 31" in rows[0]["error"]
    assert "misaligned" in rows[2]["error"]  # lane 1: 8 bytes into a 16-byte access
    assert "division by zero" in rows[4]["error"] and "index[0]" in rows[4]["error"]
    assert rows[6]["wavefronts"] == 1  # the good instruction is still analyzed


def test_missing_file_and_unknown_command():
    p = cli("analyze", "no-such-file.json")
    assert p.returncode == 2 and "no such file" in p.stderr and "Traceback" not in p.stderr
    p = cli("analyze")
    assert p.returncode == 2 and "usage" in p.stderr


def test_check_fidelity_script_contract(hardware_rows, tmp_path):
    """The shared check tool writes explicit instructions and reads 'wavefronts' per entry."""
    rows = hardware_rows[:50]
    instrs = [{"kind": r["kind"], "addresses": r["addresses"],
               **({"matrices": r["matrices"], "trans": r["trans"]} if r["kind"] in ("ldmatrix", "stmatrix")
                  else {"width": r["width"]})} for r in rows]
    f = tmp_path / "p.json"
    f.write_text(json.dumps({"format": "bankexplorer-pattern", "version": 1, "instructions": instrs}))
    p = cli("analyze", f, "--json")
    assert p.returncode == 0
    assert [g["wavefronts"] for g in json.loads(p.stdout)["instructions"]] == [r["wavefronts"] for r in rows]


def test_the_window_names_a_bad_file_even_without_a_display(tmp_path):
    """`bankexplorer FILE` reads the file before Qt starts: a typo on a machine with no display is
    "no such file", exit 2, not Qt's abort about platform plugins."""
    import os

    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    bad = tmp_path / "bad.json"
    bad.write_text("{ nope")
    for arg, fragment in ((str(tmp_path / "typo.json"), "no such file"), (str(bad), "not valid JSON")):
        out = subprocess.run([sys.executable, "-m", "bankexplorer", arg], env=env, capture_output=True, text=True,
                             timeout=60)
        assert out.returncode == 2, out.stderr
        assert fragment in out.stderr and len(out.stderr.strip().splitlines()) == 1, out.stderr


@pytest.mark.parametrize("numpy_only", [False, True])
def test_version_names_the_parts_and_whether_the_compiled_paths_run(numpy_only):
    """``--version``: BankExplorer's version, then the compiler packages found and whether the
    emulator runs its compiled shared-memory paths or numpy's (a bug report says which)."""
    from bankexplorer import __version__
    from bankexplorer.sass import compiled

    env = {**os.environ, "BANKEXPLORER_NO_COMPILED": "1"} if numpy_only else None
    p = subprocess.run([sys.executable, "-m", "bankexplorer", "--version"], capture_output=True, text=True, env=env,
                       timeout=60)
    assert p.returncode == 0, p.stderr
    lines = p.stdout.splitlines()
    assert lines[0] == f"BankExplorer {__version__}"
    assert any(line.split()[0] == "nvidia-cuda-nvrtc" for line in lines[1:])
    in_use = compiled.shared is not None and not numpy_only
    assert ("emulator: compiled" in p.stdout) == in_use
    assert ("emulator: numpy only" in p.stdout) == (not in_use)
