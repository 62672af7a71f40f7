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
    from bankexplorer.sass.run import emulate
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
