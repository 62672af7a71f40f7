"""The command line's report compares a kernel with its source as written: the unoptimised build
(-G) is compiled on a second thread while the optimised build compiles and runs, each NVRTC in its
own child with its own budget (``nvrtc.alongside``). Only when a report is printed: ``--sass-json``
alone compiles one build."""

import threading
import time

import pytest

from bankexplorer.cli import main
from bankexplorer.compiler import nvrtc
from bankexplorer.resources import EXAMPLES

pytestmark = pytest.mark.skipif(not nvrtc.available(), reason="NVRTC is not installed")
KERNEL = str(EXAMPLES / "cuda" / "06_transpose_32x32.cu")


@pytest.fixture
def compiles(monkeypatch, tmp_path):
    """Every NVRTC child started: its debug flag, and the most running at once."""
    from bankexplorer.compiler import cache

    monkeypatch.setenv("BANKEXPLORER_CACHE", str(tmp_path / "cache"))  # nothing compiled before
    monkeypatch.setattr(cache, "_MEMORY", type(cache._MEMORY)())
    real, lock = nvrtc._in_child, threading.Lock()
    seen = {"debug": [], "live": 0, "most": 0}

    def counted(request, *a):
        with lock:
            seen["debug"].append("-G" in request["options"])
            seen["live"] += 1
            seen["most"] = max(seen["most"], seen["live"])
        try:
            time.sleep(0.3)  # long enough for the other build to start if it runs beside
            return real(request, *a)
        finally:
            with lock:
                seen["live"] -= 1

    monkeypatch.setattr(nvrtc, "_in_child", counted)
    return seen


def test_the_report_compiles_both_builds_at_once(compiles, capsys):
    assert main(["import-cuda", KERNEL]) == 0
    out = capsys.readouterr().out
    assert sorted(compiles["debug"]) == [False, True] and compiles["most"] == 2
    assert "with compiling and the as-written build" in out


def test_sass_json_alone_compiles_one_build(compiles, tmp_path, capsys):
    assert main(["import-cuda", KERNEL, "--sass-json", str(tmp_path / "k.json")]) == 0
    assert compiles["debug"] == [False]


def test_a_kernel_that_does_not_compile_says_so_once(compiles, tmp_path, capsys):
    bad = tmp_path / "bad.cu"
    bad.write_text("__global__ void k(float *o) {\n  __shared__ float s[32];\n  o[0] = s[threadIdx.x] +;\n}\n")
    assert main(["import-cuda", str(bad)]) == 2
    err = capsys.readouterr().err
    assert err.count("the kernel does not compile") == 1 and "bad.cu:3:" in err and "Traceback" not in err
