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


# ---- outputs never land on inputs or special files (issue 37) ----------------------------------
KERNEL = ('#include "tile.h"\n__global__ void k(float *o, const float *in) {\n  __shared__ float s[64];\n'
          "  s[threadIdx.x] = in[threadIdx.x];\n  o[threadIdx.x] = s[(threadIdx.x * STRIDE) & 63];\n}\n")


@pytest.fixture
def kernel_tree(tmp_path, monkeypatch):
    """A kernel, the header it includes, an --arg array, and links to each: what a run reads."""
    from bankexplorer.compiler import nvrtc

    (tmp_path / "k.cu").write_text(KERNEL)
    (tmp_path / "tile.h").write_text("#define STRIDE 2\n")
    np.save(tmp_path / "in.npy", np.arange(64, dtype=np.float32))
    os.symlink(tmp_path / "tile.h", tmp_path / "link.h")
    os.link(tmp_path / "in.npy", tmp_path / "hard.npy")
    monkeypatch.setattr(nvrtc, "_in_child", lambda *a: pytest.fail("compiled: the output is checked first"))
    return tmp_path


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in folder.iterdir() if p.is_file()}


@pytest.mark.parametrize("out", [["--sass-json", "k.cu"], ["--sass-json", "tile.h"], ["--out", "tile.h"],
                                 ["--sass-json", "in.npy"], ["--out", "in.npy"], ["--out", "link.h"],
                                 ["--sass-json", "hard.npy"], ["--out", "p.json", "--sass-json", "p.json"]])
def test_no_output_lands_on_a_file_the_run_read(kernel_tree, monkeypatch, out):
    """``import-cuda k.cu --sass-json k.cu`` overwrote the kernel; headers and --arg arrays too.
    Refused before the compile, for every output option, also through links."""
    monkeypatch.chdir(kernel_tree)
    before = _snapshot(kernel_tree)
    code, _out, err = _run("import-cuda", "k.cu", "--arg", "in=in.npy", *out)
    assert code == 2 and ("is the input file" in err or "is the --out file too" in err), err
    assert _snapshot(kernel_tree) == before


def test_a_sass_json_path_error_is_reported_before_the_run(kernel_tree):
    for path, said in ((kernel_tree / "gone" / "x.json", "folder"), (kernel_tree, "is a folder")):
        code, _out, err = _run("import-cuda", str(kernel_tree / "k.cu"), "--sass-json", str(path))
        assert code == 2 and "--sass-json" in err and said in err, err


def test_advise_and_export_never_write_over_their_input(tmp_path):
    src = _pattern(tmp_path)
    keep = src.read_bytes()
    os.symlink(src, tmp_path / "link.svg")
    for argv in (["advise", str(src), "--compare", str(tmp_path / "link.svg")],
                 ["export", str(src), "--out", str(tmp_path / "link.svg")]):
        code, _out, err = _run(*argv)
        assert code == 2 and "is the input file" in err, (argv, err)
    assert src.read_bytes() == keep


def _trace(tmp_path: Path) -> Path:
    t = tmp_path / "t.jsonl"
    t.write_text(json.dumps(HEADER) + "\n" + _line(0) + "\n" + _line(1) + "\n")
    return t


def _reader(path: Path) -> tuple:
    """A thread reading a FIFO to its end (what a shell's ``cat fifo`` would do)."""
    import threading

    got: list[bytes] = []
    t = threading.Thread(target=lambda: got.append(path.read_bytes()), daemon=True)
    t.start()
    return t, got


def _char_device(path: Path) -> bool:
    """A character device made for the test (/dev/null's numbers), where this user may make one."""
    import stat

    try:
        os.mknod(path, stat.S_IFCHR | 0o666, os.makedev(1, 3))
    except (PermissionError, OSError):
        return False
    return True


@pytest.mark.parametrize("command", ["cuda", "convert", "export-svg", "save"])
def test_a_fifo_is_written_into_never_replaced(tmp_path, command):
    """The atomic save renamed over whatever was there: a FIFO became a regular file."""
    import stat

    src = _pattern(tmp_path)
    fifo = tmp_path / {"cuda": "out.cu", "convert": "out.json", "export-svg": "out.svg", "save": "out.json"}[command]
    os.mkfifo(fifo)
    t, got = _reader(fifo)
    if command == "save":
        pf.save(pf.load(src), fifo)
    else:
        argv = {"cuda": ["cuda", str(src), "--out", str(fifo)],
                "convert": ["convert", str(_trace(tmp_path)), str(fifo)],
                "export-svg": ["export", str(src), "--out", str(fifo)]}[command]
        code, _out, err = _run(*argv)
        assert code == 0, err
    t.join(10)
    assert stat.S_ISFIFO(os.stat(fifo).st_mode) and got and got[0]
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


def test_a_fifo_nothing_reads_is_refused_at_once(tmp_path):
    import stat

    src = _pattern(tmp_path)
    fifo = tmp_path / "out.fifo"
    os.mkfifo(fifo)
    code, _out, err = _run("cuda", str(src), "--out", str(fifo))
    assert code == 2 and "a FIFO (named pipe) that nothing reads" in err
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)
    with pytest.raises(OSError, match="nothing reads"):
        pf.save(pf.load(src), fifo)


def test_a_character_device_is_written_into_never_replaced(tmp_path):
    """Run as root, ``--out /dev/null`` would have replaced the system's /dev/null (it happened to
    /dev/full): here a device node made for the test."""
    import stat

    dev = tmp_path / "null.json"
    if not _char_device(dev):
        pytest.skip("cannot make a device node here (not root)")
    src = _pattern(tmp_path)
    link = tmp_path / "link.json"
    os.symlink(dev, link)
    for target in (dev, link):
        for argv in (["cuda", str(src), "--out", str(target)], ["convert", str(_trace(tmp_path)), str(target)]):
            code, _out, err = _run(*argv)
            assert code == 0, err
        pf.save(pf.load(src), target)
        assert stat.S_ISCHR(os.stat(dev).st_mode) and os.path.islink(link)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.json", "link.json", "null.json", "t.jsonl"]


def test_a_socket_is_refused(tmp_path):
    import socket

    src = _pattern(tmp_path)
    sock = tmp_path / "s.sock"
    s = socket.socket(socket.AF_UNIX)
    try:
        s.bind(str(sock))
        code, _out, err = _run("cuda", str(src), "--out", str(sock))
        assert code == 2 and "is a socket, not a file to write" in err
    finally:
        s.close()


# ---- recorded rows: counted before anything is allocated ------------------------------------------
def _recorded_pattern(tmp_path: Path, instructions: int, rows: int, mixed: bool = False,
                      dims: tuple[int, ...] = (32,)) -> Path:
    """A v2 pattern file whose instructions each hold ``rows`` recorded rows of zeros (a few KiB
    compressed each); ``mixed``: each lane on a random element of the array (the advisor has work)."""
    import base64
    import zlib

    def field(data: bytes) -> str:
        z = zlib.compressobj(9)
        return base64.b64encode(z.compress(data) + z.flush()).decode()

    n = int(np.prod(dims))
    elements = (np.random.default_rng(37).integers(0, n, (rows, 32)) if mixed else np.zeros((rows, 32))).astype("<i4")
    rec = {"rows": rows, "encoding": "zlib+base64", "warp": field(bytes(4 * rows)),
           "element": field(elements.tobytes()),
           "offset": field(bytes(64 * rows)), "address": field((elements * 4).astype("<i4").tobytes())}
    doc = {"format": "bankexplorer-pattern", "version": 2, "name": "rows", "block": [32, 1, 1],
           "arrays": [{"name": "s", "type": "float", "dims": list(dims)}],
           "instructions": [{"kind": "store", "width": 4, "array": "s", "recorded": rec, "pc": 16 * k}
                            for k in range(instructions)]}
    p = tmp_path / "rows.json"
    p.write_text(json.dumps(doc))
    return p


def test_a_pattern_file_of_millions_of_recorded_rows_is_refused_before_they_are_decompressed(tmp_path):
    """20,000,000 rows in 16.7 MB reached 6.5 GB before the total was checked (also ``bx.load``)."""
    p = _recorded_pattern(tmp_path, 3, 500_000)  # each instruction within the limit, all of them past it

    def load():
        with pytest.raises(FileFormatError, match="1,500,000 recorded warp instructions is too many"):
            pf.load(p)

    assert _peak(load) < 64 << 20
    with pytest.raises(ValueError, match="1,500,000 recorded warp instructions is too many"):
        bx.load(p)
    code, _out, err = _run("analyze", str(p))
    assert code == 2 and "too many" in err


def _bounded(*argv: str, seconds: float = 60, memory: int = 2 << 30):
    """The command in a child process held to ``memory`` bytes of address space and ``seconds``."""
    import resource
    import subprocess
    import sys
    import time

    def limit():
        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))

    t = time.monotonic()
    p = subprocess.run([sys.executable, "-m", "bankexplorer", *argv], capture_output=True, text=True,
                       timeout=seconds, preexec_fn=limit)
    return p, time.monotonic() - t


@pytest.mark.parametrize("command, rows, said", [
    (["advise"], 150_000, "150,000 recorded warp instructions: the advisor ranks layouts over at most 100,000"),
    (["cuda", "--out", "{tmp}/p.cu"], 60_000, "60,000 recorded warp instructions: a probe program holds at most "
                                               "50,000"),
])
def test_recorded_rows_are_capped_for_advise_and_cuda(tmp_path, command, rows, said):
    """``advise`` on 40,000 recorded rows took 6.7 GB; ``cuda`` on 500,000 did not finish in 90 s."""
    p = _recorded_pattern(tmp_path, 1, rows)
    argv = [command[0], str(p)] + [a.replace("{tmp}", str(tmp_path)) for a in command[1:]]
    proc, took = _bounded(*argv)
    assert proc.returncode == 2 and said in proc.stderr and "Traceback" not in proc.stderr, proc.stderr[-2000:]
    assert took < 20


def test_advise_ranks_tens_of_thousands_of_recorded_rows_in_bounded_memory(tmp_path):
    """Every candidate's addresses were kept at once, with their bytes as keys: 6.7 GB for 40,000 rows."""
    p = _recorded_pattern(tmp_path, 1, 8_000, mixed=True, dims=(32, 32))
    proc, took = _bounded("advise", str(p), "--json", "--all", "--top", "1000", memory=1 << 30, seconds=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert len(json.loads(proc.stdout)["candidates"]) > 100


# ---- names shown: valid XML, no terminal controls --------------------------------------------------
def test_an_svg_of_a_name_with_control_characters_is_valid_xml(tmp_path):
    import xml.etree.ElementTree as ET

    d = json.loads(EXAMPLE.read_text())
    d["name"] = "tile\x1b[31m\x07\x00end"
    d["instructions"][0]["label"] = "store\x1b]0;x\x07"
    p = tmp_path / "esc.json"
    p.write_text(json.dumps(d))
    out = tmp_path / "esc.svg"
    code, _out, err = _run("export", str(p), "--out", str(out))
    assert code == 0, err
    root = ET.parse(out).getroot()  # an invalid character (or a reference to one) fails here
    text = "".join(root.itertext()) + ET.tostring(root, encoding="unicode")
    assert "\\x1b" in text and "\x1b" not in text


BIDI = "\u202e\u2066\u200f\u061c"


def test_bidirectional_controls_in_names_are_escaped_on_a_terminal(tmp_path):
    """U+202E printed raw: a name that reads reversed."""
    d = json.loads(EXAMPLE.read_text())
    d["name"] = "evil" + BIDI + "name"
    p = tmp_path / "bidi.json"
    p.write_text(json.dumps(d))
    code, out, err = _run("analyze", str(p))
    assert code == 0 and "evil\\u202e\\u2066\\u200f\\u061cname" in out
    assert not any(c in out + err for c in BIDI)
