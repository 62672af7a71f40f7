"""A pasted kernel reads only what it may (issue 26): includes resolve in the kernel's folder, the
-I folders and the CUDA headers only, absolute and '..' names are refused by name, only regular
files are read, no message quotes a file from elsewhere, and every path stays within its budget:
the preprocessor's, and the compiler's (a child process that Ctrl-C ends at once)."""

import os
import signal
import subprocess
import sys
import time
import warnings
from pathlib import Path

import numpy as np
import pytest

import bankexplorer as bx
from bankexplorer.cli import main
from bankexplorer.compiler import nvrtc
from bankexplorer.cudaimport import ImportOptions, import_cuda
from bankexplorer.cudaimport import preprocess as pp
from bankexplorer.cudaimport.includes import IncludeError, IncludeRules, refused_name
from bankexplorer.model.analysis import analyze

SECRET = "BX_SECRET_26 = 42; int leaked_line[];"  # parses as C: a leak would show up in syntax errors
KERNEL = "__global__ void k(float *o) {\n  __shared__ float s[64];\n  o[threadIdx.x] = s[threadIdx.x * 2];\n}\n"
COMPILES = pytest.mark.skipif(not nvrtc.available(), reason="NVRTC / nvdisasm not installed")


@pytest.fixture
def tree(tmp_path):
    """kernel/ (the kernel's folder), inc/ (an -I folder) and secret/ beside them."""
    (tmp_path / "kernel").mkdir()
    (tmp_path / "inc").mkdir()
    (tmp_path / "secret").mkdir()
    (tmp_path / "secret" / "secret.h").write_text(SECRET + "\n")
    return tmp_path


def _kernel(tree: Path, head: str, name: str = "k.cu") -> Path:
    p = tree / "kernel" / name
    p.write_text(head + "\n" + KERNEL)
    return p


def _as_written(path: Path, tree: Path):
    return import_cuda(path.read_text(), ImportOptions(path=str(path), include_dirs=[str(tree / "inc")]))


def _messages(res) -> str:
    return "\n".join(d.message for d in res.diagnostics) + (res.compiled.message if res.compiled else "")


HOSTILE = [
    ('#include "/etc/passwd"', "an absolute path is not followed"),
    ('#include </proc/self/environ>', "an absolute path is not followed"),
    ('#include "../secret/secret.h"', "'..' is not followed"),
    ('#include <../../secret/secret.h>', "'..' is not followed"),
    ('#include "/dev/zero"', "an absolute path is not followed"),
    ('#include "/dev/stdin"', "an absolute path is not followed"),
    ('#include "/etc"', "an absolute path is not followed"),
    ('#define H "../secret/secret.h"\n#include H', "'..' is not followed"),
]


@pytest.mark.parametrize("head, why", HOSTILE)
def test_outside_names_are_refused_by_name_and_nothing_is_read(tree, opened_files, head, why):
    src = _kernel(tree, head)
    with opened_files() as opened:
        res = _as_written(src, tree)
    errors = [d for d in res.diagnostics if d.severity == "error"]
    assert errors and why in errors[0].message and errors[0].line == head.count("\n") + 1
    assert "BX_SECRET" not in _messages(res) and "leaked_line" not in _messages(res)
    assert not [p for p in opened if not p.startswith((str(tree / "kernel"), str(tree / "inc"), sys.prefix,
                                                       sys.base_prefix, str(Path(bx.__file__).parent)))]
    # the command (the kernel compiled: as written, -G, and optimised): exit 2 with the refusal,
    # never the text of the file; a macro naming the file is refused before it is expanded
    said = (why, "#include of a macro")
    for extra in (["--as-written"], []):
        p = subprocess.run([sys.executable, "-m", "bankexplorer", "import-cuda", str(src), *extra],
                           capture_output=True, text=True, timeout=60)
        assert p.returncode == 2 and any(x in p.stderr for x in said) and "BX_SECRET" not in p.stderr + p.stdout
        assert "Traceback" not in p.stderr
    # the Python API: the same refusal as a ValueError for a kernel, as a warning for a snippet
    with pytest.raises(ValueError) as e:
        bx.from_cuda(src, block=32)
    assert any(x in str(e.value) for x in said) and "BX_SECRET" not in str(e.value)
    snippet = src.read_text().replace("__global__ void k(float *o) {", "{")
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        bx.from_cuda(snippet, block=32)
    assert not any("BX_SECRET" in str(x.message) for x in w)


@COMPILES
@pytest.mark.parametrize("head", [h for h, _w in HOSTILE] + [
    '#inc\\\nlude "/etc/passwd"',  # a continued line
    '%:include "../secret/secret.h"',  # a digraph
    '# /* c */ include "../secret/secret.h"',  # a comment between
    '#if __has_include("/etc/passwd")\n#endif',  # existence is information too
])
@pytest.mark.parametrize("optimize", [True, False])
def test_the_compiled_path_refuses_them_before_the_compiler(tree, monkeypatch, head, optimize):
    """Both builds the emulator runs (as compiled, and -G as written) go through the same rules."""
    from bankexplorer.sass.launch import LaunchConfig
    from bankexplorer.kernels.cuda_source import emulate

    monkeypatch.setattr(nvrtc, "_in_child", lambda *a: pytest.fail("the compiler was called"))
    src = _kernel(tree, head)
    with pytest.raises(IncludeError) as e:
        emulate(src.read_text(), LaunchConfig((32, 1, 1)), path=str(src), include_dirs=[str(tree / "inc")],
                optimize=optimize)
    assert "BX_SECRET" not in e.value.message


@COMPILES
def test_the_compiler_gets_the_users_headers_in_memory_and_no_folder_but_the_cuda_headers(tree, monkeypatch):
    (tree / "kernel" / "tile.h").write_text('#pragma once\n#include "stride.h"\n')
    (tree / "inc" / "stride.h").write_text("#define STRIDE 2\n")
    src = tree / "kernel" / "k.cu"
    src.write_text('// #include "/etc/passwd" in a comment is harmless\n#include "tile.h"\n#include <cuda_fp16.h>\n'
                   "#include <cstdio>\n" + KERNEL.replace("* 2", "* STRIDE"))
    seen = []
    real = nvrtc._in_child
    monkeypatch.setattr(nvrtc, "_in_child", lambda req, *a: seen.append(req) or real(req, *a))
    from bankexplorer.sass.launch import LaunchConfig
    from bankexplorer.kernels.cuda_source import emulate
    from bankexplorer.sass.to_pattern import kernel_pattern

    run = emulate(src.read_text(), LaunchConfig((32, 1, 1)), path=str(src), include_dirs=[str(tree / "inc")])
    (req,) = seen
    assert {o[2:] for o in req["options"] if o.startswith("-I")} == set(nvrtc.include_dirs())
    assert req["headers"] == {"tile.h": '#pragma once\n#include "stride.h"\n', "stride.h": "#define STRIDE 2\n"}
    assert "/etc/passwd" not in req["source"] and "cstdio" not in req["source"]  # blanked, line for line
    assert req["source"].count("\n") >= src.read_text().count("\n")
    assert analyze(kernel_pattern(run, src.read_text(), "k"), detail=False).totals().worst_degree == 2


def test_links_may_not_lead_out_of_the_folders(tree):
    os.symlink(tree / "secret" / "secret.h", tree / "kernel" / "out.h")
    os.symlink(tree / "inc" / "fine.h", tree / "kernel" / "in.h")
    (tree / "inc" / "fine.h").write_text("#define STRIDE 2\n")
    res = _as_written(_kernel(tree, '#include "out.h"'), tree)
    assert "a link to a file outside" in res.diagnostics[0].message and "BX_SECRET" not in _messages(res)
    res = _as_written(_kernel(tree, '#include "in.h"'), tree)
    assert not [d for d in res.diagnostics if d.severity == "error"]


def test_special_files_are_refused_without_blocking(tree):
    os.mkfifo(tree / "kernel" / "fifo.h")  # opening it would wait for a writer forever
    (tree / "kernel" / "sub").mkdir()
    os.symlink("/dev/zero", tree / "kernel" / "zero.h")
    for head, why in (('#include "fifo.h"', "not a regular file"), ('#include "sub"', "is a folder"),
                      ('#include "zero.h"', "a link to a file outside")):
        src = _kernel(tree, head)
        p = subprocess.run([sys.executable, "-m", "bankexplorer", "import-cuda", str(src), "--as-written"],
                           capture_output=True, text=True, timeout=60)
        assert p.returncode == 2 and why in p.stderr, p.stderr


def test_headers_and_kernels_are_read_up_to_a_size_limit(tree):
    (tree / "kernel" / "big.h").write_bytes(b"//" + b"x" * (1 << 20) + b"\n")
    res = _as_written(_kernel(tree, '#include "big.h"'), tree)
    assert "KiB" in res.diagnostics[0].message and res.diagnostics[0].severity == "error"
    t = time.monotonic()
    p = subprocess.run([sys.executable, "-m", "bankexplorer", "import-cuda", "/dev/zero"], capture_output=True,
                       text=True, timeout=60)
    assert p.returncode == 2 and "larger than 1,024 KiB" in p.stderr and time.monotonic() - t < 30
    with pytest.raises(ValueError, match="larger than 1,024 KiB"):
        bx.from_cuda(Path("/dev/zero"))
    (tree / "kernel" / "bin.cu").write_bytes(KERNEL.encode() + b"\0\1\2")
    with pytest.raises(ValueError, match="line 5: a NUL byte"):
        bx.from_cuda(tree / "kernel" / "bin.cu")


def test_a_file_that_includes_itself_is_reported_and_guards_are_honoured(tree):
    res = _as_written(_kernel(tree, '#include "k.cu"'), tree)
    assert "k.cu includes itself without end" in res.diagnostics[0].message
    assert "recursion" not in _messages(res)
    (tree / "kernel" / "a.h").write_text('#include "b.h"\n')
    (tree / "kernel" / "b.h").write_text('#include "a.h"\n')
    res = _as_written(_kernel(tree, '#include "a.h"'), tree)
    assert any("includes itself without end" in d.message for d in res.diagnostics)
    (tree / "kernel" / "a.h").write_text('#ifndef A_H\n#define A_H\n#include "b.h"\n#define STRIDE 2\n#endif\n')
    (tree / "kernel" / "b.h").write_text('#ifndef B_H\n#define B_H\n#include "a.h"\n#endif\n')
    res = _as_written(_kernel(tree, '#include "a.h"'), tree)
    assert not [d for d in res.diagnostics if d.severity == "error"], _messages(res)
    p = subprocess.run([sys.executable, "-m", "bankexplorer", "import-cuda", str(_kernel(tree, '#include "k.cu"')),
                        "--as-written"], capture_output=True, text=True, timeout=60)
    assert p.returncode == 2 and "includes itself" in p.stderr and "Traceback" not in p.stderr


def test_error_directives_fail_the_import(tree, capsys):
    """A kernel (compiled) and a snippet (read symbolically) both stop at a taken #error, on its line."""
    src = _kernel(tree, "#if 1\n#error this kernel needs -D TILE\n#endif")
    assert main(["import-cuda", str(src), "--as-written"]) == 2
    err = capsys.readouterr().err
    assert "k.cu:2:2: error: compiler catastrophic error: #error directive: this kernel needs -D TILE" in err
    assert "the kernel does not compile" in err
    snippet = tree / "kernel" / "s.cu"
    snippet.write_text("#if 1\n#error this snippet needs -D TILE\n#endif\n__shared__ float s[32];\nfloat v = s[threadIdx.x];\n")
    assert main(["import-cuda", str(snippet)]) == 2
    assert "s.cu:2:1: error: #error this snippet needs -D TILE" in capsys.readouterr().err
    assert main(["import-cuda", str(_kernel(tree, "#if 0\n#error not taken\n#endif")), "--as-written"]) == 0
    snippet.write_text("#warning only a warning\n__shared__ float s[32];\nfloat v = s[threadIdx.x];\n")
    assert main(["import-cuda", str(snippet)]) == 0
    assert "warning: #warning only a warning" in capsys.readouterr().err


def test_include_names_refused_by_name():
    for name in ("/etc/passwd", "\\\\server\\x.h", "C:\\x.h", "../x.h", "a/../../x.h", "a\\..\\x.h", "", "~/x.h",
                 "x\x1b.h"):
        assert refused_name(name), name
    for name in ("x.h", "sub/x.h", "cuda/std/cstdint", ".hidden.h", "a..b.h"):
        assert refused_name(name) is None, name


def test_pasted_text_searches_no_folder_of_its_own(tmp_path, monkeypatch):
    """Text with no file (the window, standard input) has no folder: not even the working one."""
    (tmp_path / "here.h").write_text("#define STRIDE 2\n")
    monkeypatch.chdir(tmp_path)
    assert IncludeRules.of(None).folders == ()
    res = import_cuda('#include "here.h"\n' + KERNEL.replace("* 2", "* STRIDE"), ImportOptions())
    assert not res.complete and "'STRIDE', which has no value" in _messages(res)  # here.h was not read


# ---- budgets ------------------------------------------------------------------------------------
FN_BOMB = "#define F0(x) x\n" + "".join(f"#define F{i + 1}(x) F{i}(x)+F{i}(x)\n" for i in range(40))
OBJ_BOMB = "#define A0 x\n" + "".join(f"#define A{i + 1} A{i} A{i}\n" for i in range(40))


@pytest.mark.parametrize("bomb, use", [(FN_BOMB, "F40(1)"), ("#if 1\n#endif\n" + OBJ_BOMB, "A40")])
def test_macro_bombs_stop_at_the_expansion_budget(bomb, use):
    """(Object-like macros go through the preprocessor when something else needs it, here #if.)"""
    text = (bomb + "__global__ void k(float *o) {\n  __shared__ float s[64];\n  int x = 1;\n"
                   f"  o[0] = {use};\n  o[threadIdx.x] = s[threadIdx.x];\n}}\n")
    t = time.monotonic()
    res = import_cuda(text, ImportOptions())
    assert time.monotonic() - t < pp.MAX_SECONDS
    (err,) = [d for d in res.diagnostics if "budget of 200,000 tokens" in d.message]
    assert err.severity == "error" and err.line == text.split("\n").index(f"  o[0] = {use};") + 1


def test_preprocessing_stops_at_its_time_budget(monkeypatch):
    monkeypatch.setattr(pp, "MAX_EXPANSION_TOKENS", 10**9)
    monkeypatch.setattr(pp, "MAX_SECONDS", 0.5)
    t = time.monotonic()
    out = pp.preprocess(FN_BOMB + "int a = F40(1);\n")
    assert time.monotonic() - t < 3 and "budget of 0.5 s" in out.diagnostics[-1][2]


NV_BOMB = ("#ifdef __CUDACC__\n" + OBJ_BOMB + "#endif\n__global__ void k(float *o) {\n  __shared__ float s[64];\n"
           "  int x = 1;\n#ifdef __CUDACC__\n  o[0] = A40;\n#endif\n  o[threadIdx.x] = s[threadIdx.x];\n}\n")


@COMPILES
def test_the_compiler_stops_at_its_time_budget():
    """Only the compiler sees this bomb (__CUDACC__): its child process is ended on time."""
    t = time.monotonic()
    out = nvrtc.compile_cuda(NV_BOMB, seconds=2)
    assert not out.ok and "time budget" in out.log and time.monotonic() - t < 10


def _nvrtc_child(parent: int, within: float = 60) -> int | None:
    """The pid of ``parent``'s compiler process, once it has started (None: not within ``within`` s)."""
    end = time.monotonic() + within
    while time.monotonic() < end:
        for d in os.listdir("/proc"):
            try:
                if d.isdigit() and f"{parent}" == Path(f"/proc/{d}/stat").read_text().split(")")[1].split()[1] \
                        and "nvrtc.py" in Path(f"/proc/{d}/cmdline").read_text():
                    return int(d)
            except (OSError, IndexError):
                continue
        time.sleep(0.05)
    return None


@COMPILES
@pytest.mark.skipif(not os.path.isdir("/proc"), reason="finds the compiler's process in /proc")
@pytest.mark.parametrize("to", ["terminal", "command"])
def test_ctrl_c_ends_a_compiling_command_within_a_second(tmp_path, to):
    """Ctrl-C in a terminal signals the whole process group; ``kill -INT`` only the command."""
    src = tmp_path / "bomb.cu"
    src.write_text(NV_BOMB)
    p = subprocess.Popen([sys.executable, "-m", "bankexplorer", "import-cuda", str(src)], start_new_session=True,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        assert _nvrtc_child(p.pid), "the compile did not start"
        time.sleep(0.5)
        t = time.monotonic()
        (os.killpg if to == "terminal" else os.kill)(p.pid, signal.SIGINT)
        p.communicate(timeout=20)
        assert time.monotonic() - t < 1.0 and p.returncode == 130
        time.sleep(0.2)
        with pytest.raises(ProcessLookupError):  # the compiler went with it
            os.killpg(p.pid, 0)
    finally:
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGKILL)


# ---- every run bounded, every answer right or refused (issue 37) ------------------------------
def _bounded(*argv: str, seconds: float = 60, memory: int = 3 << 30,
             cwd=None) -> tuple[subprocess.CompletedProcess, float]:
    """The command in a child process held to ``memory`` bytes of address space (a bomb fails there
    instead of taking the machine) and ``seconds``; (the finished process, the seconds it took)."""
    import resource

    def limit():
        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))

    t = time.monotonic()
    p = subprocess.run([sys.executable, "-m", "bankexplorer", *argv], capture_output=True, text=True,
                       timeout=seconds, preexec_fn=limit, cwd=cwd)
    return p, time.monotonic() - t


def _cu(tmp_path: Path, body: str, name: str = "k.cu") -> Path:
    p = tmp_path / name
    p.write_text(body)
    return p


PRINTF_WIDE = """#include <cstdio>
__global__ void k(int *o, int w) {
  __shared__ int s[32];
  s[threadIdx.x] = threadIdx.x;
  printf("%*d|%.*d|%-*d|%*.*f\\n", w, 7, w, 3, -w, 5, w, w, 1.5);
  o[threadIdx.x] = s[threadIdx.x];
}
"""


@COMPILES
def test_printf_widths_are_capped(tmp_path):
    """``%*d`` with a width of 2**31-1 in two threads built 8.3 GB, 22 s a line."""
    from bankexplorer.sass import calls

    p, took = _bounded("import-cuda", str(_cu(tmp_path, PRINTF_WIDE)), "--as-written", "--block", "2",
                       "-D", "w=2147483647", seconds=60)
    assert p.returncode == 0 and "Traceback" not in p.stderr, p.stderr[-2000:]
    lines = [ln for ln in p.stdout.splitlines() if ln.startswith("    5: ")]
    assert len(lines) == 2 and all(len(ln) - 7 == calls.MAX_LINE for ln in lines)
    assert took < 20


def test_printf_fields_and_lines_stay_within_their_budget():
    """C's meaning where it is cheap (a negative width left-justifies, a negative precision is
    none), and at most MAX_FIELD characters a field, MAX_CALL_CHARS a call."""
    from bankexplorer.sass.calls import MAX_CALL_CHARS, MAX_FIELD, format_line

    def args(*ints):
        data = b"".join(int(v).to_bytes(4, "little", signed=True) for v in ints)
        return lambda off, n: data[off:off + n]

    assert format_line(b"%*d|", args(-4, 7), None) == "7   |"
    assert format_line(b"%.*d|", args(-1, 7), None) == "7|"
    assert format_line(b"%*d", args(2**31 - 1, 7), None) == " " * (MAX_FIELD - 1) + "7"
    assert format_line(b"%.*d", args(2**31 - 1, 7), None) == "0" * (MAX_FIELD - 1) + "7"
    t = time.monotonic()
    out = format_line(b"%1000d" * 100_000, args(*[1] * 100_000), None)
    assert len(out) == MAX_CALL_CHARS and time.monotonic() - t < 1


PRINTF_STRINGS = """#include <cstdio>
__global__ void k(const char *str, int *o) {
  __shared__ int s[32];
  s[threadIdx.x % 32] = threadIdx.x;
  printf("%s%s%s%s%s%s%s%s%s%s\\n", str, str, str, str, str, str, str, str, str, str);
  o[threadIdx.x] = s[threadIdx.x % 32];
}
"""


@COMPILES
def test_printf_of_long_strings_in_a_whole_block_is_counted_against_a_budget(tmp_path):
    """Ten %s of 4 KiB strings in 1,024 threads: about 25 minutes before (a byte read at a time,
    no budget for printf work)."""
    import numpy as np

    from bankexplorer.sass import calls
    from bankexplorer.sass.launch import LaunchConfig
    from bankexplorer.kernels.cuda_source import emulate

    text = np.full(4097, ord("x"), np.uint8)
    text[-1] = 0
    t = time.monotonic()
    r = emulate(PRINTF_STRINGS, LaunchConfig((1024, 1, 1), arrays={"str": text.tobytes()}), optimize=False)
    took = time.monotonic() - t
    assert len(r.printed) + r.printed_dropped == 1024 and r.printed[0][1] == "x" * calls.MAX_LINE
    assert sum(len(t) for _ln, t in r.printed) <= calls.MAX_PRINTF_BYTES
    assert took < 20, took


PRINTF_FOREVER = """#include <cstdio>
__global__ void k(int *o, int w) {
  volatile __shared__ int s[32];
  s[threadIdx.x] = 0;
  while (s[0] != -1) printf("%*d\\n", w, s[threadIdx.x]++);
  o[threadIdx.x] = s[threadIdx.x];
}
"""


@COMPILES
def test_ctrl_c_stops_a_run_within_a_second_while_it_prints(tmp_path):
    src = _cu(tmp_path, PRINTF_FOREVER)
    p = subprocess.Popen([sys.executable, "-m", "bankexplorer", "import-cuda", str(src), "--as-written", "--block",
                          "2", "-D", "w=2147483647"], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE)
    try:
        time.sleep(6)  # compiled and printing
        assert p.poll() is None, p.communicate()[1][-2000:]
        t = time.monotonic()
        p.send_signal(signal.SIGINT)
        p.wait(timeout=20)
        assert time.monotonic() - t < 1.0 and p.returncode == 130
    finally:
        if p.poll() is None:
            p.kill()


LOCAL_BOMB = """__global__ void k(float *o, int n) {
  __shared__ float s[32];
  float big[2 << 20];
  for (int i = 0; i < n; ++i) big[(i * 7919) & ((2 << 20) - 1)] = i;
  s[threadIdx.x % 32] = big[n & 1023];
  o[threadIdx.x] = s[threadIdx.x % 32];
}
"""


@COMPILES
def test_local_memory_is_capped_with_its_size_named(tmp_path):
    """8 MB a thread in a 1,024-thread block took 8 to 10 GB."""
    p, _took = _bounded("import-cuda", str(_cu(tmp_path, LOCAL_BOMB)), "--block", "1024", "-D", "n=3", seconds=60)
    assert p.returncode == 2 and "Traceback" not in p.stderr
    assert "needs 16,777,216 bytes of local memory per thread" in p.stderr and "512 MiB a run may hold" in p.stderr


SPIN = """__global__ void k(int *o) {
  volatile __shared__ int s[32];
  int i = 0;
  s[0] = 0;
  while (s[0] != -1) { s[threadIdx.x] = i++ & 0xFFFF; }
  o[threadIdx.x] = s[threadIdx.x];
}
"""


@COMPILES
def test_an_endless_loop_stops_at_the_time_budget():
    """At 13,000 warp instructions a second the instruction budget alone was about 25 minutes."""
    from bankexplorer.sass.launch import LaunchConfig
    from bankexplorer.sass.run import MAX_SECONDS, BudgetExceeded
    from bankexplorer.kernels.cuda_source import emulate

    assert MAX_SECONDS <= 30  # the default: an endless loop ends in well under a minute
    t = time.monotonic()
    with pytest.raises(BudgetExceeded, match=r"stopped after 1 s .*line 5.*raise it with --max-seconds"):
        emulate(SPIN, LaunchConfig((32, 1, 1)), seconds=1, budget=10**12)
    assert time.monotonic() - t < 10


@COMPILES
def test_the_time_budget_on_the_command_line(tmp_path):
    p, took = _bounded("import-cuda", str(_cu(tmp_path, SPIN)), "--max-seconds", "1", "--max-instructions",
                       "1000000000000", seconds=60)
    assert p.returncode == 2 and "stopped after 1 s" in p.stderr and "--max-seconds" in p.stderr
    assert took < 20
    for bad in ("-1", "0", "nan", "x"):
        p, _took = _bounded("import-cuda", str(tmp_path / "k.cu"), "--max-seconds", bad)
        assert p.returncode == 2 and "--max-seconds" in p.stderr
    p, _took = _bounded("import-cuda", str(tmp_path / "k.cu"), "--max-instructions", "-5")
    assert p.returncode == 2 and "--max-instructions: '-5': must be a positive number" in p.stderr


@COMPILES
@pytest.mark.parametrize("body, line, width", [
    ("  const float4 *p = reinterpret_cast<const float4 *>(in + 1);\n  float4 v = p[threadIdx.x];\n"
     "  s[threadIdx.x] = v.x + v.y + v.z + v.w;\n", 4, None),
    ("  s[threadIdx.x] = in[threadIdx.x];\n  int *q = reinterpret_cast<int *>(reinterpret_cast<char *>(o) + 1);\n"
     "  q[threadIdx.x] = 1;\n", 5, 4),
])
@pytest.mark.parametrize("optimize", [True, False])
def test_a_misaligned_global_access_faults_naming_its_line(body, line, width, optimize):
    """The GPU faults ("misaligned address"); the emulator executed them silently."""
    from bankexplorer.sass.launch import LaunchConfig
    from bankexplorer.kernels.cuda_source import emulate

    src = ("__global__ void k(float *o, const float *in) {\n  __shared__ float s[32];\n" + body
           + "  o[threadIdx.x] = s[threadIdx.x ^ 1];\n}\n")
    with pytest.raises(Exception) as e:
        emulate(src, LaunchConfig((32, 1, 1)), optimize=optimize)
    msg = str(e.value)
    assert f"line {line}:" in msg and "global address" in msg and "is not aligned to" in msg, msg
    if width:
        assert f"aligned to {width} bytes" in msg


RECURSIVE = """__device__ int fact(int n) { return n <= 1 ? 1 : n * fact(n - 1); }
__global__ void k(int *o) {
  __shared__ int s[32];
  s[threadIdx.x] = fact(threadIdx.x % 6);
  __syncthreads();
  o[threadIdx.x] = s[31 - threadIdx.x];
}
"""


@COMPILES
def test_a_recursive_device_function_runs_with_the_default_command(tmp_path):
    """The -G build's stack size reads 0xFFFFFFFF (unknown): "out of memory" before."""
    from bankexplorer.sass.launch import LaunchConfig
    from bankexplorer.kernels.cuda_source import emulate

    p, _took = _bounded("import-cuda", str(_cu(tmp_path, RECURSIVE)), seconds=60)
    assert p.returncode == 0, p.stderr[-2000:]
    assert "out of memory" not in p.stderr
    r = emulate(RECURSIVE, LaunchConfig((32, 1, 1)), optimize=False)
    fact = [1, 1, 2, 6, 24, 120]
    got = np.frombuffer(r.buffers["o"][:128].tobytes(), np.int32)
    assert list(got) == [fact[(31 - t) % 6] for t in range(32)]


@COMPILES
def test_a_recursion_deeper_than_the_stack_faults(tmp_path):
    """The stack is bounded: a deep recursion ends with a message, as a stack overflow on the GPU."""
    from bankexplorer.sass.launch import LaunchConfig
    from bankexplorer.kernels.cuda_source import emulate

    deep = RECURSIVE.replace("fact(threadIdx.x % 6)", "fact(100000 + threadIdx.x)")
    with pytest.raises(Exception, match="local address .* outside the 1,0.. bytes of local memory|calls nest deeper"):
        emulate(deep, LaunchConfig((32, 1, 1)), optimize=False)


@COMPILES
def test_a_trap_names_its_line():
    from bankexplorer.sass.issue import EmulationError
    from bankexplorer.sass.launch import LaunchConfig
    from bankexplorer.kernels.cuda_source import emulate

    src = ("__global__ void k(int *o) {\n  __shared__ int s[32];\n  s[threadIdx.x] = threadIdx.x;\n"
           "  if (s[threadIdx.x ^ 1] == 3) __trap();\n  o[threadIdx.x] = s[threadIdx.x];\n}\n")
    with pytest.raises(EmulationError, match=r"^line 4: the kernel traps"):
        emulate(src, LaunchConfig((32, 1, 1)))


# ---- launch values: refused by name, never wrapped --------------------------------------------
SCALAR = ("__global__ void k(float *o, int n) {\n  __shared__ float s[32];\n  s[threadIdx.x] = n;\n"
          "  o[threadIdx.x] = s[threadIdx.x ^ 1];\n}\n")


@pytest.mark.parametrize("argv, said", [
    (["--grid", "4294967297", "--block-index", "4294967296"], "--block-index '4294967296': x = 4,294,967,296"),
    (["--grid", "4294967297"], "--grid '4294967297': x = 4,294,967,297: a grid has 1 to 2,147,483,647"),
    (["--grid", "1,4294967296,1"], "y = 4,294,967,296: a grid has 1 to 65,535 blocks in y"),
    (["--grid", "1,0,1"], "y = 0: a grid has 1 to"),
    (["--block", "0"], "x = 0: a block has 1 to 1,024 threads in x"),
    (["--block", "4294967296"], "x = 4,294,967,296: a block has 1 to 1,024"),
    (["-D", "n=nan"], "-D n: 'nan' is not a finite number"),
    (["-D", "n=1e999"], "-D n: '1e999' is not a finite number (it is past the largest double)"),
    (["-D", "n=" + "9" * 5000], "-D n: 5,000 characters: a number of more than 40 digits"),
    (["--arg", "o=a.npy", "--arg", "o=a.npy"], "--arg o is given 2 times"),
])
def test_launch_values_are_refused_with_a_message(tmp_path, capsys, monkeypatch, argv, said):
    """Before any compile: nothing wraps at 32 bits, no traceback."""
    from bankexplorer.cli import main

    monkeypatch.setattr(nvrtc, "available", lambda: True)
    monkeypatch.setattr(nvrtc, "_in_child", lambda *a: pytest.fail("compiled"))
    np.save(tmp_path / "a.npy", np.zeros(4, np.float32))
    monkeypatch.chdir(tmp_path)
    assert main(["import-cuda", str(_cu(tmp_path, SCALAR)), *argv]) == 2
    err = capsys.readouterr().err
    assert said in err and "Traceback" not in err, err


@COMPILES
@pytest.mark.parametrize("value", ["99999999999999999999", "4294967296", "-2147483649", "1.5"])
def test_an_integer_parameter_is_never_cut_to_32_bits(tmp_path, capsys, value):
    from bankexplorer.cli import main

    assert main(["import-cuda", str(_cu(tmp_path, SCALAR)), "-D", f"n={value}"]) == 2
    err = capsys.readouterr().err
    assert "parameter n: " in err and ("does not fit int (32 bits)" in err or "is not an integer" in err), err
    assert main(["import-cuda", str(_cu(tmp_path, SCALAR)), "-D", "n=0xFFFFFFFF"]) == 0  # as C converts it


def test_the_api_raises_value_error_for_sizes_past_32_bits():
    """(OverflowError before, where the API promises ValueError.)"""
    kernel = SCALAR
    for kw, said in (({"block": (2**32, 2**32, 1)}, "block: x = 4,294,967,296"),
                     ({"block": 32, "block_index": 2**32}, "block_index: x = 4,294,967,296"),
                     ({"block": 32, "block_index": (0, 2**16, 0)}, "block_index: y = 65,536"),
                     ({"block": (1, 1, 65)}, "block: z = 65: a block has 1 to 64")):
        with pytest.raises(ValueError, match=said):
            bx.from_cuda(kernel, **kw)


@pytest.mark.parametrize("value, said", [
    (np.array([object(), object()], dtype=object), "holds Python objects"),
    (np.zeros(4, dtype=[("a", np.int32), ("b", np.float32)]), "give an array of numbers"),
    (np.array(["abc"]), "give an array of numbers"),
])
def test_api_args_refuse_objects_and_structures(value, said, monkeypatch):
    """An object array put raw PyObject addresses into device memory."""
    monkeypatch.setattr(nvrtc, "available", lambda: True)
    monkeypatch.setattr(nvrtc, "_in_child", lambda *a: pytest.fail("compiled"))
    with pytest.raises(ValueError, match=f"args: o .*{said}"):
        bx.from_cuda(SCALAR, block=32, args={"o": value})


def test_an_npz_archive_is_refused_as_an_arg(tmp_path, capsys, monkeypatch):
    from bankexplorer.cli import main

    monkeypatch.setattr(nvrtc, "available", lambda: True)
    monkeypatch.setattr(nvrtc, "_in_child", lambda *a: pytest.fail("compiled"))
    np.savez(tmp_path / "a.npz", first=np.zeros(4), second=np.ones(4))
    assert main(["import-cuda", str(_cu(tmp_path, SCALAR)), "--arg", f"o={tmp_path / 'a.npz'}"]) == 2
    assert "is a .npz archive, not one array" in capsys.readouterr().err


# ---- the compiler's child process ends with the command -----------------------------------------
def _gone(pid: int, within: float) -> bool:
    end = time.monotonic() + within
    while True:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().split(")")[1].split()[0]
        except (OSError, IndexError):
            return True
        if state == "Z":  # ended, not yet reaped
            return True
        if time.monotonic() > end:
            return False
        time.sleep(0.05)


@COMPILES
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG and /proc are Linux's")
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGKILL])
def test_the_compiler_child_does_not_outlive_the_command(tmp_path, sig):
    """SIGTERM or SIGKILL to the command left NVRTC running up to its 65 s CPU limit."""
    src = tmp_path / "bomb.cu"
    src.write_text(NV_BOMB)
    p = subprocess.Popen([sys.executable, "-m", "bankexplorer", "import-cuda", str(src)], start_new_session=True,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    child = None
    try:
        child = _nvrtc_child(p.pid)
        assert child, "the compile did not start"
        time.sleep(0.5)
        os.kill(p.pid, sig)
        p.communicate(timeout=20)
        assert _gone(child, 3.0), f"the compiler (pid {child}) outlived the command"
    finally:
        if p.poll() is None:
            p.kill()
        if child and not _gone(child, 0):
            try:
                os.kill(child, signal.SIGKILL)
            except ProcessLookupError:
                pass


# ---- the window's "// input:" lines: the include rule --------------------------------------------
def test_input_lines_name_only_files_in_the_kernels_folder(tmp_path):
    from bankexplorer.cudaimport.includes import file_beside

    (tmp_path / "kernel").mkdir()
    (tmp_path / "secret").mkdir()
    np.save(tmp_path / "secret" / "a.npy", np.zeros(4))
    np.save(tmp_path / "kernel" / "in.npy", np.zeros(4))
    os.symlink(tmp_path / "secret" / "a.npy", tmp_path / "kernel" / "link.npy")
    k = tmp_path / "kernel"
    assert file_beside(k, "in.npy") == str(k / "in.npy")
    for name, why in (("../secret/a.npy", "'..' is not followed"), (str(tmp_path / "secret" / "a.npy"),
                                                                     "an absolute path is not followed"),
                      ("link.npy", "a link to a file outside"), ("gone.npy", "no such file")):
        with pytest.raises(ValueError, match=why):
            file_beside(k, name)


@COMPILES
def test_the_window_attaches_no_input_from_outside_the_kernels_folder(qtbot, tmp_path):
    """Read, not tried before: the window joined the folder and the named path unchecked, so an
    absolute path or '../' attached any .npy on disk."""
    pytest.importorskip("pytestqt")
    from bankexplorer.gui.app import new_pattern
    from bankexplorer.gui.cuda_dialog import CudaImportDialog
    from bankexplorer.gui.document import Document

    (tmp_path / "kernel").mkdir()
    (tmp_path / "secret").mkdir()
    np.save(tmp_path / "secret" / "a.npy", np.arange(32, dtype=np.float32))
    np.save(tmp_path / "kernel" / "in.npy", np.arange(32, dtype=np.float32))
    os.symlink(tmp_path / "secret" / "a.npy", tmp_path / "kernel" / "link.npy")
    src = tmp_path / "kernel" / "k.cu"
    src.write_text(f"// input: a = ../secret/a.npy\n// input: b = {tmp_path / 'secret' / 'a.npy'}\n"
                   "// input: c = link.npy\n// input: d = in.npy\n"
                   "__global__ void k(const float *a, const float *b, const float *c, const float *d, float *o) {\n"
                   "  __shared__ float s[32];\n  s[threadIdx.x] = a[threadIdx.x] + b[threadIdx.x] + c[threadIdx.x] "
                   "+ d[threadIdx.x];\n  o[threadIdx.x] = s[threadIdx.x ^ 1];\n}\n")
    d = CudaImportDialog(Document(new_pattern()))
    qtbot.addWidget(d)
    d.block_edit.setText("32")
    d.set_text(src.read_text(), path=str(src))
    try:
        assert d.wait_compiled()
        assert [d.params[n].data is None for n in "abcd"] == [True, True, True, False]
        assert d.params["d"].file == "in.npy"
    finally:
        d.runner.cancel()
