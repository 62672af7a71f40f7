"""Hostile files and arguments (issue 26): binary input refused at once in bounded memory, a bad
trace line leaves valid JSON, outputs never replace inputs, huge batches are counted in chunks,
and every message says what and where (duplicate keys, empty loops, addresses past 64 bits, a
missing folder, a name full of terminal escapes)."""

import io
import json
import os
import tracemalloc
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import numpy as np
import pytest

import bankexplorer as bx
from bankexplorer.api import counts
from bankexplorer.cli import main, open_analysis_input
from bankexplorer.io import patternfile as pf
from bankexplorer.io import trace
from bankexplorer.model.errors import FileFormatError

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "resources" / "examples" / "07_transpose_padded_32x33.json"
HEADER = {"format": "bankexplorer-trace", "version": 1, "name": "t"}


def _line(k: int, width: int = 4) -> str:
    return json.dumps({"kind": "load", "width": width, "addresses": [(k + 33 * i) * 4 for i in range(32)]})


def _run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


def _peak(fn) -> int:
    tracemalloc.start()
    try:
        fn()
    finally:
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    return peak


# ---- binary input ---------------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["zeros.json", "zeros.jsonl", "zeros"])
def test_a_3_gb_file_of_nul_bytes_is_refused_at_once_in_bounded_memory(tmp_path, name):
    big = tmp_path / name
    with open(big, "wb") as f:
        f.truncate(3 << 30)  # sparse: no disk used, but every byte reads as NUL

    def load():
        with pytest.raises(FileFormatError, match=r"line 1: a NUL byte \(byte 0\): not JSON text"):
            open_analysis_input(str(big))

    assert _peak(load) < 64 << 20


def test_a_trace_header_then_nul_bytes_is_refused_before_any_output(tmp_path):
    t = tmp_path / "t.jsonl"
    t.write_text(json.dumps(HEADER) + "\n" + _line(0) + "\n")
    with open(t, "r+b") as f:
        f.truncate(1 << 30)

    def load():
        with pytest.raises(FileFormatError, match=r"t.jsonl: line 3: a NUL byte .*binary file"):
            trace.read_jsonl(t)

    assert _peak(load) < 64 << 20
    code, out, err = _run("analyze", str(t), "--json")
    assert code == 2 and out == "" and "line 3: a NUL byte" in err


def test_a_trace_line_is_bounded(tmp_path):
    t = tmp_path / "t.jsonl"
    t.write_text(json.dumps(HEADER) + "\n" + _line(0) + "\n" + '{"kind": "load", "label": "' + "x" * (2 << 20)
                 + '"}\n')
    code, _out, err = _run("analyze", str(t))
    assert code == 2 and "line 3: longer than 1,048,576 bytes" in err


# ---- a bad line partway -------------------------------------------------------------------------
@pytest.mark.parametrize("good", [3, trace.BATCH + 5])
def test_analyze_json_stays_valid_json_on_a_bad_trace_line(tmp_path, good):
    t = tmp_path / "t.jsonl"
    lines = [json.dumps(HEADER)] + [_line(k) for k in range(good)] + [_line(0, width=3), _line(1)]
    t.write_text("\n".join(lines) + "\n")
    code, out, err = _run("analyze", str(t), "--json")
    doc = json.loads(out)  # the whole output parses
    assert code == 2 and len(doc["instructions"]) == good  # every row before the bad line
    assert doc["error"] == f"t.jsonl: line {good + 2}: width: must be one of 1, 2, 4, 8, 16"
    assert "totals" not in doc and f"line {good + 2}" in err


# ---- duplicate keys ---------------------------------------------------------------------------------
def test_duplicate_keys_are_reported(tmp_path):
    d = json.loads(EXAMPLE.read_text())
    text = json.dumps(d)
    for where, dup in (("", text.replace('"name": ', '"name": "first", "name": ', 1)),
                       ("", text.replace('"padding": 1', '"padding": 1, "padding" : 0', 1))):
        p = tmp_path / "dup.json"
        p.write_text(dup)
        with pytest.raises(FileFormatError, match="is given twice in one object"):
            pf.load(p)
        code, _out, err = _run("analyze", str(p))
        assert code == 2 and "given twice" in err
    t = tmp_path / "t.jsonl"
    t.write_text(json.dumps(HEADER) + "\n" + _line(0) + "\n" + _line(1).replace('"width": 4', '"width": 4, "width": 8')
                 + "\n")
    code, _out, err = _run("analyze", str(t))
    assert code == 2 and "line 3: the key 'width' is given twice in one object" in err
    t.write_text(json.dumps(HEADER)[:-1] + ', "name": "again"}\n' + _line(0) + "\n")
    assert _run("analyze", str(t))[0] == 2


# ---- outputs and inputs -------------------------------------------------------------------------
def _pattern(tmp_path) -> Path:
    p = tmp_path / "in.json"
    p.write_bytes(EXAMPLE.read_bytes())
    return p


def test_no_command_writes_over_its_input(tmp_path):
    src = _pattern(tmp_path)
    keep = src.read_bytes()
    os.symlink(src, tmp_path / "link.cu")
    os.link(src, tmp_path / "hard.cu")
    kernel = tmp_path / "k.cu"
    kernel.write_text("__shared__ float s[64];\ns[threadIdx.x] = 0;\n")
    for argv in (["cuda", str(src), "--out", str(src)],
                 ["cuda", str(src), "--out", str(tmp_path / "link.cu")],
                 ["cuda", str(src), "--out", str(tmp_path / "hard.cu")],
                 ["cuda", str(src), "--out", str(tmp_path / "p.cu"), "--manifest", str(src)],
                 ["cuda", str(src), "--out", str(tmp_path / "p.cu"), "--manifest", str(tmp_path / "p.cu")],
                 ["import-cuda", str(kernel), "--out", str(kernel)],
                 ["convert", str(src), str(tmp_path / "link.jsonl")]):
        if argv[0] == "convert":
            os.symlink(src, tmp_path / "link.jsonl")
        code, _out, err = _run(*argv)
        assert code == 2 and ("is the input file" in err or "is the --out file too" in err), (argv, err)
    assert src.read_bytes() == keep and kernel.read_text().startswith("__shared__")
    assert not (tmp_path / "p.cu").exists()


def test_a_missing_output_folder_is_named(tmp_path):
    src = _pattern(tmp_path)
    gone = tmp_path / "gone"
    for argv in (["convert", str(src), str(gone / "t.jsonl")], ["cuda", str(src), "--out", str(gone / "p.cu")],
                 ["export", str(src), "--out", str(gone / "f.png")]):
        code, _out, err = _run(*argv)
        assert code == 2 and f"folder {str(gone)!r} does not exist" in err and ".tmp" not in err, err
    with pytest.raises(FileNotFoundError, match="folder .*gone.* does not exist") as e:
        pf.save(pf.load(src), gone / "p.json")
    assert ".tmp" not in str(e.value)


# ---- the Python API ------------------------------------------------------------------------------
def test_a_huge_batch_is_counted_in_chunks():
    row = np.arange(32) * 128  # one bank: 32 wavefronts
    batch = np.broadcast_to(row, (1_000_000, 32))  # a million instructions in 256 bytes of input
    got = []
    peak = _peak(lambda: got.append(bx.wavefronts(batch)))
    assert got[0].shape == (1_000_000,) and (got[0] == 32).all()
    assert peak < 120 << 20  # the counts (8 MB) and one chunk's work, not the whole batch's (200 MB)


def test_running_out_of_memory_is_the_documented_value_error(monkeypatch):
    def boom(*a, **k):
        raise MemoryError

    monkeypatch.setattr(counts, "count_wavefronts", boom)
    with pytest.raises(ValueError, match=r"addresses: 5 instructions do not fit in this machine's memory"):
        bx.wavefronts(np.zeros((5, 32), np.int64))


@pytest.mark.parametrize("given", [np.array([0] * 31 + [2**64 - 4], np.uint64), [0] * 31 + [2**64 - 4],
                                   np.array([[0] * 31 + [2**64 - 4]] * 3, np.uint64)])
def test_an_address_past_64_bits_is_named_not_wrapped(given):
    with pytest.raises(ValueError, match="18,446,744,073,709,551,612 is not a byte address") as e:
        bx.wavefronts(given)
    assert "-4" not in str(e.value)


# ---- messages ----------------------------------------------------------------------------------------
def test_a_loop_that_takes_no_value_says_so(tmp_path):
    d = json.loads(EXAMPLE.read_text())
    d["instructions"][0]["loops"][0].update(start=4, stop=4)
    p = tmp_path / "empty_loop.json"
    p.write_text(json.dumps(d))
    code, _out, err = _run("analyze", str(p))
    assert code == 2 and "instructions[0].loops[0]: 'k' takes no value (start 4, stop 4, step 1)" in err
    assert "unknown name" not in err


ESCAPES = "\x1b[2J\x1b]0;pwned\x07\x9b31m\r"


def test_terminal_escapes_in_names_are_shown_not_obeyed(tmp_path):
    d = json.loads(EXAMPLE.read_text())
    d["name"] = "tile" + ESCAPES
    d["instructions"][0]["label"] = "store" + ESCAPES
    p = tmp_path / "esc.json"
    p.write_text(json.dumps(d))
    code, out, err = _run("analyze", str(p))
    assert code == 0 and "tile\\x1b[2J\\x1b]0;pwned\\x07\\x9b31m\\x0d" in out
    assert not any(c in out + err for c in "\x1b\x07\x9b\r")
    code, out, _err = _run("analyze", str(p), "--json")
    assert code == 0 and json.loads(out)["pattern"] == "tile" + ESCAPES  # JSON keeps the text, escaped
    t = tmp_path / "esc.jsonl"
    t.write_text(json.dumps({**HEADER, "name": "t" + ESCAPES}) + "\n"
                 + json.dumps({**json.loads(_line(0)), "label": ESCAPES}) + "\n")
    code, out, err = _run("analyze", str(t))
    assert code == 0 and "\\x1b[2J" in out and not any(c in out + err for c in "\x1b\x07\x9b\r")
