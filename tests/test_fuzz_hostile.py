"""Fuzz (issue 26): mutated kernels carrying include and macro attacks through the CUDA import (as
written, and some compiled), and mutated pattern files and traces through ``analyze``.

A fixed seed makes the cases the same on every run; a time bound per part keeps CI fast (a slow
machine runs fewer of them). For every case: no exception escapes (a traceback is a failure), it
ends within its budget, no file outside the allowed folders is opened (an audit hook on "open";
the compiler's child is checked through what it is handed), no text of the secret file appears
in any message, and no raw control character reaches the terminal.
"""

import io
import json
import os
import random
import sys
import tempfile
import time
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest

import bankexplorer as bx
from bankexplorer.cli import main
from bankexplorer.compiler import nvrtc
from bankexplorer.cudaimport import ImportOptions, import_cuda
from bankexplorer.cudaimport import preprocess as pp
from bankexplorer.cudaimport.includes import IncludeError

SEED = 26
CUDA_SECONDS = 30.0
PATTERN_SECONDS = 15.0
SLACK = 5.0  # seconds a case may take past its budget (the walk after the preprocessor, a busy CI)
ROOT = Path(__file__).resolve().parent.parent
MARK = "BX_SECRET_FUZZ"
CONTROL = [chr(c) for c in (*range(0, 9), *range(11, 32), *range(127, 160))]

ATTACKS = [
    '#include "/etc/passwd"', "#include </proc/self/environ>", '#include "../secret/secret.h"',
    "#include <../secret/secret.h>", '#include "out.h"', '#include "fifo.h"', '#include "/dev/zero"',
    '#include "zero.h"', '#include "/dev/stdin"', '#include "sub"', '#include "/etc"', '#include "k.cu"',
    '#include "a.h"', '#include "guard_a.h"', '#include "big.h"', '#include "nul.h"', '#include "tile.h"',
    "#include <stride.h>", '#include ""', "#include", "#include <unclosed", '#include "unclosed',
    '#define H "../secret/secret.h"\n#include H', "#define H2 <../secret/secret.h>\n#include H2",
    '#define H3 "tile.h"\n#include H3', '#inc\\\nlude "../secret/secret.h"', '%:include "/etc/passwd"',
    '# /**/ include "../secret/secret.h"', '/* #include "/etc/passwd" */', '// #include "../secret/secret.h"',
    'const char *s = "#include </etc/passwd>";', 'auto r = R"x(" /* )x";', "int q = 1'0 + '/*';",
    '#if __has_include("/etc/passwd")\n#endif', "#error fuzz", "#warning fuzz", "#if 1", "#endif", "#else",
    "#define X(", "#define F(x) F(x)\nint z = F(1);", "#define LOOP LOOP\nint w = LOOP;",
    "#define S(x) #x\nconst char *t = S(\x1b[31m);", "#pragma unroll 1000000", "#line 99999999 \"/etc/passwd\"",
]


def _bomb(rng: random.Random) -> str:
    n = rng.randrange(10, 41)
    if rng.random() < 0.5:
        return ("#define F0(x) x\n" + "".join(f"#define F{i + 1}(x) F{i}(x)+F{i}(x)\n" for i in range(n))
                + f"int bomb = F{n}(1);")
    return ("#if 1\n#endif\n#define A0 x\n" + "".join(f"#define A{i + 1} A{i} A{i}\n" for i in range(n))
            + f"int bomb = A{n};")


def _mutate(text: str, rng: random.Random) -> str:
    lines = text.split("\n")
    for _ in range(rng.randrange(1, 4)):
        op = rng.randrange(8)
        at = rng.randrange(len(lines) + 1)
        if op <= 2:
            lines.insert(at, rng.choice(ATTACKS))
        elif op == 3:
            lines.insert(at, _bomb(rng))
        elif op == 4 and len(lines) > 1:
            del lines[min(at, len(lines) - 1)]
        elif op == 5 and lines:
            lines.insert(at, lines[rng.randrange(len(lines))])
        elif op == 6:
            s = "\n".join(lines)
            k = rng.randrange(len(s) + 1)
            junk = "".join(rng.choice('"#<>/\\*()[]{};\'\n\0x1Aa_' + "".join(CONTROL[:5]))
                           for _ in range(rng.randrange(1, 8)))
            lines = (s[:k] + junk + s[k + rng.randrange(3):]).split("\n")
        else:
            s = "\n".join(lines)
            lines = s[:rng.randrange(len(s) + 1)].split("\n")
    return "\n".join(lines)


@pytest.fixture
def folders(tmp_path):
    k, inc, secret = tmp_path / "kernel", tmp_path / "inc", tmp_path / "secret"
    for d in (k, inc, secret, k / "sub"):
        d.mkdir()
    (secret / "secret.h").write_text(f"int {MARK} = 1; {MARK} leaked;\n")
    (k / "tile.h").write_text("#define STRIDE 2\n#define IDX(i) ((i) * STRIDE)\n")
    (inc / "stride.h").write_text("#define PAD 1\n")
    (k / "a.h").write_text('#include "b.h"\n')
    (k / "b.h").write_text('#include "a.h"\n')
    (k / "guard_a.h").write_text('#ifndef GA\n#define GA\n#include "guard_b.h"\n#endif\n')
    (k / "guard_b.h").write_text('#ifndef GB\n#define GB\n#include "guard_a.h"\n#endif\n')
    (k / "big.h").write_bytes(b"// " + b"y" * (1 << 20) + b"\n")
    (k / "nul.h").write_bytes(b"#define N 1\n\0\0\0")
    os.mkfifo(k / "fifo.h")
    os.symlink("/dev/zero", k / "zero.h")
    os.symlink(secret / "secret.h", k / "out.h")
    return k, inc, secret


def _allowed(k: Path, inc: Path):
    roots = (str(k), str(inc), sys.prefix, sys.base_prefix, str(Path(bx.__file__).resolve().parent),
             *nvrtc.include_dirs())
    tmp = os.path.realpath(tempfile.gettempdir())

    def ok(path: str) -> bool:
        real = os.path.realpath(path)
        ours = real == tmp or real.startswith(os.path.join(tmp, "bankexplorer-nvrtc-")) or \
            (os.path.dirname(real) == tmp and real.endswith(".cubin"))  # the compiler's empty folder (removed through the
        # temporary folder's handle), nvdisasm's input
        return real.startswith(roots) or path.startswith(roots) or ours

    return ok


def _corpus() -> list[str]:
    files = sorted((ROOT / "resources" / "examples" / "cuda").glob("*.cu"))
    files += sorted((ROOT / "resources" / "hardware" / "kernels").glob("*.cu"))[:12]
    return [f.read_text() for f in files]


def _said(res) -> str:
    return " ".join(d.message for d in res.diagnostics)


def _compiled(text: str, opts: ImportOptions, optimize: bool) -> str:
    """The emulated import (either build) of the text: what it says when it stops, "" when it runs.
    Only its own errors may come out."""
    from bankexplorer.sass.cubin import CubinError
    from bankexplorer.sass.decode import DecodeError
    from bankexplorer.sass.issue import EmulationError
    from bankexplorer.sass.launch import LaunchConfig, LaunchError
    from bankexplorer.kernels.cuda_source import emulate
    from bankexplorer.sass.state import MemoryFault

    try:
        emulate(text, LaunchConfig(opts.block), path=opts.path, include_dirs=opts.include_dirs, budget=100_000,
                optimize=optimize)
    except IncludeError as e:
        return e.message
    except (LaunchError, EmulationError, MemoryFault, DecodeError, CubinError) as e:
        return str(e)
    return ""


def test_fuzz_the_cuda_import(folders, opened_files, monkeypatch):
    k, inc, _secret = folders
    monkeypatch.setattr(pp, "MAX_SECONDS", 2.0)  # the budgets themselves are tested at their values
    monkeypatch.setattr(pp, "MAX_EXPANSION_TOKENS", 50_000)
    monkeypatch.setattr(nvrtc, "COMPILE_SECONDS", 5)
    handed: list[dict] = []
    real = nvrtc._in_child
    monkeypatch.setattr(nvrtc, "_in_child", lambda req, *a: handed.append(req) or real(req, *a))
    bundled = set(nvrtc.include_dirs())
    ok = _allowed(k, inc)
    rng = random.Random(SEED)
    corpus = _corpus()
    src = k / "k.cu"
    end = time.monotonic() + CUDA_SECONDS
    done = compiled = 0
    while time.monotonic() < end:
        text = _mutate(rng.choice(corpus), rng)
        compile_it = nvrtc.available() and rng.random() < 0.15 and compiled < 12
        src.write_text(text, errors="replace")
        opts = ImportOptions(path=str(src), include_dirs=[str(inc)], block=(32, 8, 1))
        handed.clear()
        with opened_files() as opened:
            t = time.monotonic()
            try:
                said = _compiled(text, opts, rng.random() < 0.5) if compile_it else _said(import_cuda(text, opts))
            except Exception as e:  # noqa: BLE001 - the point: nothing may escape
                pytest.fail(f"case {done}: {type(e).__name__}: {e}\n--- text ---\n{text[:2000]}")
            took = time.monotonic() - t
        budget = pp.MAX_SECONDS + (nvrtc.COMPILE_SECONDS if compile_it else 0) + SLACK
        assert took < budget, f"case {done} took {took:.1f} s\n{text[:2000]}"
        bad = [p for p in opened if not ok(p)]
        assert not bad, f"case {done} opened {bad}\n{text[:2000]}"
        assert MARK not in said, f"case {done}\n{text[:2000]}"
        for req in handed:  # what the compiler's child process was given
            assert {o[2:] for o in req["options"] if o.startswith("-I")} <= bundled
            assert MARK not in req["source"] + "".join(req["headers"].values())
            assert all(not os.path.isabs(n) and ".." not in n for n in req["headers"])
        compiled += bool(handed)
        done += 1
    assert done >= 20, f"only {done} cases in {CUDA_SECONDS} s"


# ---- pattern files and traces ------------------------------------------------------------------
VALUES = [None, -1, 0, 2**64 - 4, 10**1200, 1e308, True, "", "x" * 10000, "\x1b]0;pwned\x07\x1b[2J", [], {},
          [[[[]]]], {"var": "k", "start": 3, "stop": 3}, "threadIdx.x / 0", "(" * 500 + "1" + ")" * 500]


def _mutate_json(d, rng: random.Random):
    """A random value put somewhere in the document, or a key removed."""
    node = d
    for _ in range(rng.randrange(1, 5)):
        kids = list(node.items()) if isinstance(node, dict) else list(enumerate(node)) if isinstance(node, list) else []
        kids = [(key, v) for key, v in kids if isinstance(v, (dict, list)) and v]
        if not kids:
            break
        node = rng.choice(kids)[1]
    if isinstance(node, dict) and node:
        key = rng.choice(list(node))
        if rng.random() < 0.2:
            del node[key]
        else:
            node[key] = rng.choice(VALUES)
    elif isinstance(node, list) and node:
        node[rng.randrange(len(node))] = rng.choice(VALUES)
    return d


def _mutate_text(s: str, rng: random.Random) -> str:
    op = rng.randrange(6)
    k = rng.randrange(len(s) + 1)
    if op == 0:
        return s[:k]
    if op == 1:
        return s[:k] + rng.choice(['"name": "dup", ', "\0", "\x1b[31m", "\ufeff", "NaN", "]", "{", "1" * 5000, ","]) + s[k:]
    if op == 2:
        return s.replace("{", '{"name": "a", "name": "b", ', 1)
    if op == 3:
        return "[" * 50000 + "]" * 50000
    if op == 4:
        return s[:k] + s[k + rng.randrange(1, 20):]
    return s


def _trace(rng: random.Random) -> str:
    head = {"format": "bankexplorer-trace", "version": 1, "name": rng.choice(["t", "\x1b[31mred\x07"])}
    lines = [json.dumps(head)]
    for i in range(rng.randrange(1, 40)):
        d = {"kind": rng.choice(["load", "store", "atomic"]), "width": 4,
             "addresses": [rng.randrange(0, 4096) * 4 for _ in range(32)], "label": rng.choice(["", "x\x1b[2J"])}
        lines.append(json.dumps(_mutate_json(d, rng) if rng.random() < 0.2 else d))
    return "\n".join(lines) + "\n"


def test_fuzz_pattern_files_and_traces(tmp_path, opened_files):
    rng = random.Random(SEED)
    examples = [p.read_text() for p in sorted((ROOT / "resources" / "examples").glob("*.json"))]
    end = time.monotonic() + PATTERN_SECONDS
    done = 0
    while time.monotonic() < end:
        if rng.random() < 0.3:
            path, text = tmp_path / "t.jsonl", _trace(rng)
        else:
            path = tmp_path / "p.json"
            base = rng.choice(examples)
            text = (json.dumps(_mutate_json(json.loads(base), rng)) if rng.random() < 0.5
                    else _mutate_text(base, rng))
        path.write_text(text, errors="replace")
        as_json = rng.random() < 0.5
        out, err = io.StringIO(), io.StringIO()
        with opened_files() as opened:
            t = time.monotonic()
            try:
                with redirect_stdout(out), redirect_stderr(err):
                    code = main(["analyze", str(path)] + (["--json"] if as_json else []))
            except Exception as e:  # noqa: BLE001
                pytest.fail(f"case {done}: {type(e).__name__}: {e}\n--- file ---\n{text[:2000]}")
            took = time.monotonic() - t
        assert code in (0, 1, 2) and took < 10, (code, took, text[:500])
        assert [p for p in opened if os.path.realpath(p) != os.path.realpath(path)
                and not p.startswith((sys.prefix, sys.base_prefix, str(ROOT)))] == []
        o, e = out.getvalue(), err.getvalue()
        assert not any(c in o + e for c in CONTROL), f"case {done}: a raw control character\n{text[:500]}"
        assert "Traceback" not in e
        if as_json and (code != 2 or o):
            json.loads(o)  # the whole output is JSON, or there is none
        done += 1
    assert done >= 20, f"only {done} cases in {PATTERN_SECONDS} s"


# ---- output paths (issue 37) ----------------------------------------------------------------------
OUTPUT_SECONDS = 10.0
OUT_KERNEL = ('#include "tile.h"\n__global__ void k(float *o, const float *in) {\n  __shared__ float s[64];\n'
              "  s[threadIdx.x] = in[threadIdx.x];\n  o[threadIdx.x] = s[(threadIdx.x * STRIDE) & 63];\n}\n")


def _kind(path: Path) -> str:
    """What is at ``path`` (not following a last link): the thing an output must never change."""
    import stat

    try:
        m = os.lstat(path).st_mode
    except FileNotFoundError:
        return "none"
    for name, test in (("link", stat.S_ISLNK), ("fifo", stat.S_ISFIFO), ("char", stat.S_ISCHR),
                       ("socket", stat.S_ISSOCK), ("folder", stat.S_ISDIR), ("file", stat.S_ISREG)):
        if test(m):
            return name
    return "other"


def _outputs_tree(d: Path):
    """The files commands read (a kernel, its header, an --arg array, a pattern, a trace), links to
    them, and special files made for the test: FIFOs, a socket, a character device where allowed.
    Returns the bound socket (closed by the caller)."""
    import socket
    import stat

    import numpy as np

    d.mkdir()
    (d / "k.cu").write_text(OUT_KERNEL)
    (d / "tile.h").write_text("#define STRIDE 2\n")
    np.save(d / "in.npy", np.arange(64, dtype=np.float32))
    (d / "p.json").write_bytes((ROOT / "resources" / "examples" / "07_transpose_padded_32x33.json").read_bytes())
    line = {"kind": "load", "width": 4, "addresses": [4 * i for i in range(32)]}
    (d / "t.jsonl").write_text(json.dumps({"format": "bankexplorer-trace", "version": 1, "name": "t"}) + "\n"
                               + json.dumps(line) + "\n")
    for name in INPUTS:
        os.symlink(d / name, d / f"sym_{name}")
        os.link(d / name, d / f"hard_{name}")
    for name in ("fifo_read", "fifo_none"):
        os.mkfifo(d / name)
    os.symlink(d / "fifo_read", d / "sym_fifo")
    (d / "folder").mkdir()
    sock = socket.socket(socket.AF_UNIX)
    sock.bind(str(d / "sock"))
    try:
        os.mknod(d / "dev", stat.S_IFCHR | 0o666, os.makedev(1, 3))  # /dev/null's numbers, in our folder
    except (PermissionError, OSError):
        pass
    return sock


INPUTS = ["k.cu", "tile.h", "in.npy", "p.json", "t.jsonl"]
#: what each command reads: none of it may change, whatever the output names
READS = {"import-out": ["k.cu", "tile.h", "in.npy"], "import-sass": ["k.cu", "tile.h", "in.npy"],
         "import-both": ["k.cu", "tile.h"], "cuda": ["p.json"], "cuda-manifest": ["p.json"], "convert": ["t.jsonl"],
         "export": ["p.json"], "advise": ["p.json"], "save": ["p.json"]}


def _targets(d: Path) -> list[str]:
    names = INPUTS + [f"{p}{n}" for p in ("sym_", "hard_") for n in INPUTS]
    names += ["fifo_read", "fifo_none", "sym_fifo", "folder", "sock", "gone/x", "fresh"]
    return names + (["dev"] if (d / "dev").exists() else [])


def test_fuzz_output_paths(tmp_path, monkeypatch):
    """Every output option of every command, aimed at the run's inputs (also through links), FIFOs,
    a device node, a socket, a folder: no exception, the command's inputs unchanged, special files
    and links still what they were, no temporary file left, each case within its time; the
    process's memory bounded."""
    import resource
    import threading

    from bankexplorer.io import atomic
    from bankexplorer.io import patternfile as pf

    monkeypatch.setattr(atomic, "READER_SECONDS", 0.2, raising=False)
    rng = random.Random(SEED + 37)
    start_rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    end = time.monotonic() + OUTPUT_SECONDS
    done = 0
    while time.monotonic() < end:
        d = tmp_path / f"case{done}"
        sock = _outputs_tree(d)
        monkeypatch.chdir(d)
        keep = {n: (d / n).read_bytes() for n in INPUTS}
        kinds = {n: _kind(d / n) for n in os.listdir(d)}
        target = rng.choice(_targets(d))
        out = target + rng.choice(["", ".json", ".svg", ".cu", ".jsonl"]) if target == "fresh" else target
        command = rng.choice(sorted(READS))
        argv = {"import-out": ["import-cuda", "k.cu", "--as-written", "--arg", "in=in.npy", "--out", out],
                "import-sass": ["import-cuda", "k.cu", "--as-written", "--arg", "in=in.npy", "--sass-json", out],
                "import-both": ["import-cuda", "k.cu", "--as-written", "--out", out, "--sass-json", "fresh2.json"],
                "cuda": ["cuda", "p.json", "--out", out],
                "cuda-manifest": ["cuda", "p.json", "--out", "fresh2.cu", "--manifest", out],
                "convert": ["convert", "t.jsonl", out], "export": ["export", "p.json", "--out", out],
                "advise": ["advise", "p.json", "--compare", out], "save": None}[command]
        reader = None
        if target in ("fifo_read", "sym_fifo"):  # a reader that takes whatever comes
            reader = threading.Thread(target=lambda: (d / "fifo_read").read_bytes(), daemon=True)
            reader.start()
        out_s, err_s = io.StringIO(), io.StringIO()
        t = time.monotonic()
        try:
            with redirect_stdout(out_s), redirect_stderr(err_s):
                if argv is None:
                    try:
                        pf.save(pf.load(d / "p.json"), d / out)
                        code = 0
                    except OSError:
                        code = 2
                else:
                    code = main(argv)
        except Exception as e:  # noqa: BLE001
            pytest.fail(f"case {done} {command} -> {out}: {type(e).__name__}: {e}")
        finally:
            sock.close()
        took = time.monotonic() - t
        stop = time.monotonic() + 5
        while reader is not None and reader.is_alive() and time.monotonic() < stop:  # nothing written: end the reader
            try:
                os.close(os.open(d / "fifo_read", os.O_WRONLY | os.O_NONBLOCK))
            except OSError:  # not open yet
                pass
            reader.join(0.05)
        case = f"case {done}: {command} -> {out}"
        assert code in (0, 1, 2) and "Traceback" not in err_s.getvalue(), (case, err_s.getvalue())
        assert took < (30 if command.startswith("import") else 10), (case, took)
        assert {n: (d / n).read_bytes() for n in READS[command]} == {n: keep[n] for n in READS[command]}, \
            f"{case} changed an input"
        now = {n: _kind(d / n) for n in kinds}
        assert now == kinds, f"{case}: {[(n, kinds[n], now[n]) for n in kinds if now[n] != kinds[n]]}"
        assert not [n for n in os.listdir(d) if n.endswith(".tmp")], case
        if code == 2 and command != "save":
            assert err_s.getvalue().strip(), case  # a refusal says why
        done += 1
    grown = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - start_rss
    assert grown < 1 << 20, f"the process grew by {grown:,} KiB"
    assert done >= 10, f"only {done} cases in {OUTPUT_SECONDS} s"


# ---- resource bombs (issue 37) -----------------------------------------------------------------------
BOMB_SECONDS = 25.0
BOMB_MEMORY = 3 << 30  # address space a case may map (NVRTC's child needs about 1 GB of it)
BOMB_RSS = 1536 << 20  # memory a case may touch


def _bounded(argv: list[str], seconds: float, cwd: Path) -> tuple[int, str, float, int]:
    """(exit status, stderr, seconds, peak resident bytes) of the command run in a child process held
    to BOMB_MEMORY of address space; killed past ``seconds``."""
    import resource
    import subprocess

    def limit():
        resource.setrlimit(resource.RLIMIT_AS, (BOMB_MEMORY, BOMB_MEMORY))

    t = time.monotonic()
    p = subprocess.Popen([sys.executable, "-m", "bankexplorer", *argv], stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE, preexec_fn=limit, cwd=cwd, text=True)
    try:
        _out, err = p.communicate(timeout=seconds)
    except subprocess.TimeoutExpired:
        p.kill()
        p.communicate()
        pytest.fail(f"{argv} ran past {seconds} s")
    took = time.monotonic() - t
    rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss << 10  # the largest child so far (KiB on Linux)
    return p.returncode, err, took, rss


def _printf_bomb(rng: random.Random) -> tuple[str, list[str]]:
    huge = [2**31 - 1, -(2**31), 2**30, 10**6, 5000, -7]
    conv = rng.choice(["%*d", "%.*d", "%*.*f", "%-*s", "%*c", "%.*s", "%*x"])
    n = conv.count("*")
    args = ", ".join(["w"] * n + [{"d": "7", "f": "1.5", "s": "str", "c": "65", "x": "255"}[conv[-1]]])
    reps = rng.choice([1, 10, 40])
    loop = f"  for (int i = 0; i < {rng.choice([1, 4, 1000000])}; ++i) "
    body = ("#include <cstdio>\n__global__ void k(const char *str, int *o, int w) {\n  __shared__ int s[32];\n"
            "  s[threadIdx.x % 32] = threadIdx.x;\n"
            f"{loop}printf(\"{conv * reps}\\n\", {', '.join([args] * reps)});\n"
            "  o[threadIdx.x] = s[threadIdx.x % 32];\n}\n")
    return body, ["--block", str(rng.choice([2, 256, 1024])), "-D", f"w={rng.choice(huge)}", "--arg", "str=str.npy"]


def _local_bomb(rng: random.Random) -> tuple[str, list[str]]:
    n = rng.choice([1 << 10, 1 << 16, 1 << 20, 1 << 23])
    body = (f"__global__ void k(float *o, int n) {{\n  __shared__ float s[32];\n  float big[{n}];\n"
            f"  for (int i = 0; i < n; ++i) big[(i * 7919) % {n}] = i;\n  s[threadIdx.x % 32] = big[n % {n}];\n"
            "  o[threadIdx.x] = s[threadIdx.x % 32];\n}\n")
    return body, ["--block", str(rng.choice([32, 1024])), "-D", f"n={rng.choice([3, 100])}"]


def _spin_bomb(rng: random.Random) -> tuple[str, list[str]]:
    body = ("__global__ void k(int *o) {\n  volatile __shared__ int s[32];\n  int i = 0;\n  s[0] = 0;\n"
            "  while (s[0] != -1) { s[threadIdx.x] = i++ & 0xFFFF; }\n  o[threadIdx.x] = s[threadIdx.x];\n}\n")
    return body, ["--max-seconds", "1", "--max-instructions", str(rng.choice([10**9, 10**12]))]


def _rows_file(d: Path, rng: random.Random) -> Path:
    """A pattern file of recorded rows: each instruction within the per-file limit or past it, in
    total up to 20,000,000 rows (tens of KiB compressed)."""
    import base64
    import zlib

    def field(n_bytes: int) -> str:
        z = zlib.compressobj(9)
        return base64.b64encode(z.compress(bytes(n_bytes)) + z.flush()).decode()

    rows = rng.choice([1_000, 60_000, 150_000, 500_000])
    count = rng.choice([1, 2, 40])
    rec = {"rows": rows, "encoding": "zlib+base64", "warp": field(4 * rows), "element": field(128 * rows),
           "offset": field(64 * rows), "address": field(128 * rows)}
    doc = {"format": "bankexplorer-pattern", "version": 2, "name": "rows", "block": [32, 1, 1],
           "arrays": [{"name": "s", "type": "float", "dims": [32, 32]}],
           "instructions": [{"kind": "store", "width": 4, "array": "s", "recorded": rec, "pc": 16 * k}
                            for k in range(count)]}
    p = d / "rows.json"
    p.write_text(json.dumps(doc))
    return p


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="address-space limits and ru_maxrss as Linux has them")
def test_fuzz_resource_bombs(tmp_path):
    """printf widths, precisions and long strings in whole blocks, per-thread arrays of megabytes,
    endless loops, and pattern files of millions of recorded rows through analyze, advise and cuda:
    each ends (an answer or a message) within its time, in bounded memory, with no traceback."""
    import numpy as np

    s = np.full(4097, ord("x"), np.uint8)
    s[-1] = 0
    np.save(tmp_path / "str.npy", s)
    rng = random.Random(SEED + 3700)
    makers = [_printf_bomb, _local_bomb, _spin_bomb] if nvrtc.available() else []
    end = time.monotonic() + BOMB_SECONDS
    done = 0
    while time.monotonic() < end:
        if makers and rng.random() < 0.6:
            body, extra = rng.choice(makers)(rng)
            (tmp_path / "k.cu").write_text(body)
            argv, bound = ["import-cuda", "k.cu", "--as-written", *extra], 30.0
        else:
            p = _rows_file(tmp_path, rng)
            argv = rng.choice([["analyze", p.name], ["advise", p.name], ["cuda", p.name, "--out", "p.cu"]])
            bound = 25.0
        code, err, took, rss = _bounded(argv, bound + SLACK, tmp_path)
        assert code in (0, 1, 2) and "Traceback" not in err, (argv, code, err[-2000:])
        assert "out of memory" not in err, (argv, err[-2000:])  # a budget said so first
        assert took < bound, (argv, took)
        assert rss < BOMB_RSS, (argv, rss)
        done += 1
    assert done >= 4, f"only {done} cases in {BOMB_SECONDS} s"
