"""The whole-kernel GPU check without a GPU: the launcher it builds, how it reads the profiler, and
the second H100 run (scripts/verify_on_gpu.py --kernel over every bundled kernel) against the first."""

import json
from pathlib import Path

import pytest

from bankexplorer.cuda import kernels as K
from bankexplorer.model.errors import BankExplorerError

HW = Path(__file__).resolve().parent.parent / "resources" / "hardware" / "kernels"


def test_launcher_gives_buffers_ints_and_the_block():
    text = "// block: 32, 8\n// extern-size: 4096\n__global__ void k(const float *a, int n, float s, half *h) {}\n"
    src, name = K.launcher_source(text, K.block_of(text), {"n": 7})
    assert name == "k"
    assert "#line 1\n// block: 32, 8" in src  # the file's own line numbers in -lineinfo
    assert "k<<<1, dim3(32, 8, 1), 4096>>>(a0, 7, 1, a3);" in src
    assert "float *a0; cudaMalloc(&a0, 16777216)" in src and "half *a3;" in src
    with pytest.raises(BankExplorerError):
        K.launcher_source("__device__ int f() { return 1; }", (32, 1, 1))
    with pytest.raises(BankExplorerError):
        K.block_of("// block: 64, 32\n")


def test_profiler_rows_and_sass():
    row = {m: "12" for m in K.KERNEL_METRICS.values()}
    row[K.KERNEL_METRICS["wf_atom"]] = "3"
    assert K.read_metrics([row]) == ({"ld": 12, "st": 12, "atom": 3}, {"ld": 12, "st": 12, "atom": 12})
    with pytest.raises(BankExplorerError):
        K.read_metrics([{}])
    sass = "        /*0160*/                   STS.128 [R0], R4 ;   /* 0x0000000400007388 */\n  /*0170*/  FADD R1, R2, R3 ;"
    assert K.shared_sass(sass) == ["STS.128 [R0], R4"]


def test_second_run_agrees_with_the_first():
    """Every kernel measured again through verify_on_gpu.py --kernel: the same counts, except one
    atomic wavefront of atomics_per_warp (warps contending for shared atomics vary by one)."""
    again = json.loads((HW / "verify_run.json").read_text())
    first = {**json.loads((HW / "measured.json").read_text()), **json.loads((HW / "more" / "measured.json").read_text())}
    assert set(again) == set(first)
    for name, m in again.items():
        assert m["instructions"] == {k: int(v) for k, v in first[name]["instructions"].items()}, name
        diff = {k: m["wavefronts"][k] - int(first[name]["wavefronts"][k]) for k in m["wavefronts"]}
        assert diff == {"ld": 0, "st": 0, "atom": 1 if name == "atomics_per_warp" else 0}, name
