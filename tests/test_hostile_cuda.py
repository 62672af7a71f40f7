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
    from bankexplorer.sass.run import emulate

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
    from bankexplorer.sass.run import emulate
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


def _nvrtc_child(parent: int, within: float = 60) -> bool:
    end = time.monotonic() + within
    while time.monotonic() < end:
        for d in os.listdir("/proc"):
            try:
                if d.isdigit() and f"{parent}" == Path(f"/proc/{d}/stat").read_text().split(")")[1].split()[1] \
                        and "nvrtc.py" in Path(f"/proc/{d}/cmdline").read_text():
                    return True
            except (OSError, IndexError):
                continue
        time.sleep(0.05)
    return False


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
