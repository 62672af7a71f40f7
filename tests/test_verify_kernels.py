"""The whole-kernel GPU check without a GPU: the launcher it builds, how it reads Nsight Compute's
source page (four pages recorded on an H100 with scripts/verify_on_gpu.py's profiler command, two
of them by the script itself, --measure-only, byte_histogram fed its input file; and one made here
from a truth file's rows), its per-SASS-instruction comparison with the emulator, and the second
H100 run against the first."""

import base64
import csv
import io
import json
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from bankexplorer.compiler import nvrtc
from bankexplorer.cuda import kernels as K
from bankexplorer.model.errors import BankExplorerError

ROOT = Path(__file__).resolve().parent.parent
HW = ROOT / "resources" / "hardware" / "kernels"
PAGES = Path(__file__).resolve().parent / "data" / "ncu_source_page"
TRUTH = {**json.loads((HW / "persass_resources.json").read_text()), **json.loads((HW / "extra11" / "persass.json").read_text())}
needs_compiler = pytest.mark.skipif(not nvrtc.available(), reason="NVRTC / nvdisasm not installed")


def test_launcher_gives_buffers_scalars_inputs_and_the_block():
    text = "// block: 32, 8\n// extern-size: 4096\n__global__ void k(const float *a, int n, float s, half *h) {}\n"
    src, name = K.launcher_source(text, K.block_of(text), {"n": 7}, {"a": "in.bin"}, "out/k")
    assert name == "k"
    assert "#line 1\n// block: 32, 8" in src  # the file's own line numbers in -lineinfo
    assert "k<<<1, dim3(32, 8, 1), 4096>>>(a0, 7, 64, a3);" in src  # scalars 64, as the emulator gives them
    assert "float *a0; cudaMalloc(&a0, 16777216)" in src and "half *a3;" in src
    assert 'fopen("in.bin", "rb")' in src and "cudaMemcpy(a0, h, n, cudaMemcpyHostToDevice)" in src
    assert 'fopen("out/k.arg0.bin", "wb")' in src and 'fopen("out/k.arg3.bin", "wb")' in src
    assert src.index("cudaDeviceSynchronize") < src.index("out/k.arg0.bin")  # dumped after the run
    with pytest.raises(BankExplorerError, match="no such pointer"):
        K.launcher_source(text, (32, 1, 1), inputs={"n": "x.bin"})
    with pytest.raises(BankExplorerError):
        K.launcher_source("__device__ int f() { return 1; }", (32, 1, 1))
    with pytest.raises(BankExplorerError):
        K.block_of("// block: 64, 32\n")
    assert K.inputs_of("// input: in = floats_1024.npy\n") == {"in": "floats_1024.npy"}


@pytest.mark.parametrize("name", ["matmul_tiled", "histogram_atomics", "extra11/byte_histogram",
                                  "extra5/cp_async_transpose"])
def test_a_recorded_source_page_reads_as_the_truth_file(name):
    """The page ncu printed for the kernel (profiler and program output before it) reads into the
    same rows as the truth file recorded from an earlier run."""
    rows = K.parse_source_page((PAGES / f"{name.rsplit('/', 1)[-1]}.csv").read_text())
    want = TRUTH[name]["sass"]
    assert [r["pc"] for r in rows] == [w["pc"] for w in want]
    assert [K.normalize_sass(r["sass"]) for r in rows] == [K.normalize_sass(w["sass"]) for w in want]
    for r, w in zip(rows, want):
        assert {k: r.get(k) for k in K.COUNTS} == {k: w.get(k) for k in K.COUNTS}, r["sass"]
    comparison = K.compare_sass(rows, [dict(w, line=0) for w in want])
    assert comparison.same_code and comparison.ok and not comparison.differences


@needs_compiler
@pytest.mark.parametrize("name", ["matmul_tiled", "extra11/byte_histogram", "extra5/cp_async_transpose"])
def test_a_recorded_page_matches_the_emulator_instruction_by_instruction(name):
    """What verify_on_gpu.py --kernel does after profiling: the page against the emulator's run of
    the same block, the same input. cp_async_transpose: ncu prints LDGSTS's addresses the other way
    round, and its '@!PT LDS' padding has no address space."""
    path = HW / f"{name}.cu"
    text = path.read_text()
    data = {n: np.load(path.parent / f).tobytes() for n, f in K.inputs_of(text).items()}
    measured = K.parse_source_page((PAGES / f"{path.stem}.csv").read_text())
    c = K.compare_sass(measured, K.predict(text, K.block_of(text), str(path), arrays=data))
    assert c.same_code and c.ok and not c.differences, c.differences[:3]
    assert c.measured_totals == c.predicted_totals


def _page(rows: list[dict], kernel: str) -> str:
    """A source page in ncu's CSV layout, from truth rows (numbers with thousands separators, '-'
    where a column does not apply, as ncu writes them)."""
    head = ["Address", "Source", "Warp Stall Sampling (All Samples)", "Instructions Executed",
            "Thread Instructions Executed", "Predicated-On Thread Instructions Executed", "Address Space",
            "Access Operation", "L1 Wavefronts Shared", "L1 Wavefronts Shared Ideal"]
    out = io.StringIO()
    w = csv.writer(out, quoting=csv.QUOTE_ALL, lineterminator="\n")
    out.write("==PROF== Connected to process 1 (./k)\nno error\n")
    w.writerow(["Kernel Name", kernel, ""])
    w.writerow(head)
    for r in rows:
        shared = "wavefronts" in r
        w.writerow([hex(0x7F0000001000 + r["pc"]), "      " + r["sass"], "0", f"{r['executed']:,}", f"{r['threads']:,}",
                    f"{r['pred_on_threads']:,}", "Shared" if shared else "-", "Load" if shared else "-",
                    f"{r['wavefronts']:,}" if shared else "0", f"{r['ideal']:,}" if shared else "0"])
    return out.getvalue()


@needs_compiler
def test_a_data_dependent_kernel_compares_instruction_by_instruction():
    """byte_histogram: its atomics land where its input says; with the same input file the
    emulator's rows equal the page's, and a changed count shows up on its instruction."""
    name = "extra11/byte_histogram"
    path = HW / f"{name}.cu"
    text = path.read_text()
    data = {n: np.load(path.parent / f).tobytes() for n, f in K.inputs_of(text).items()}
    measured = K.parse_source_page(_page(TRUTH[name]["sass"], "byte_histogram"))
    predicted = K.predict(text, K.block_of(text), str(path), arrays=data)
    c = K.compare_sass(measured, predicted)
    assert c.same_code and c.ok, c.differences[:3]
    k = next(i for i, r in enumerate(measured) if r.get("wavefronts") and "ATOMS" in r["sass"])
    measured[k]["wavefronts"] += 3
    c = K.compare_sass(measured, predicted)
    assert not c.ok and len(c.differences) == 1
    assert re.search(r"wavefronts [\d,]+ \(measured [\d,]+\)", c.differences[0]) and "ATOMS" in c.differences[0]
    # zero-filled instead of the input: the atomics' addresses change, and so do their wavefronts
    assert not K.compare_sass(measured, K.predict(text, K.block_of(text), str(path))).ok


def test_other_code_compares_the_shared_totals():
    rows = K.parse_source_page((PAGES / "matmul_tiled.csv").read_text())
    other = [dict(r) for r in rows]
    other.insert(3, {"pc": 0, "sass": "IMAD.MOV.U32 R0, RZ, RZ, R0", "executed": 8, "threads": 256, "pred_on_threads": 256})
    c = K.compare_sass(rows, other)
    assert not c.same_code and c.ok and c.measured_totals["wavefronts"] == 832
    other[-20]["wavefronts"] = (other[-20].get("wavefronts") or 0) + 1
    assert not K.compare_sass(rows, other).ok
    # padding NOPs at the end are the same code
    assert K.compare_sass(rows, rows + [{"pc": 0, "sass": "NOP", "executed": 0, "threads": 0,
                                         "pred_on_threads": 0}]).same_code


@needs_compiler
def test_the_same_instructions_laid_out_otherwise_are_other_code():
    """A branch that goes elsewhere (another compiler release's layout) makes the per-instruction
    counts incomparable: only the totals are held, as for other code."""
    name = "extra/bitonic_sort"
    path = HW / f"{name}.cu"
    text = path.read_text()
    measured = K.parse_source_page(_page(TRUTH[name]["sass"], "bitonic_sort"))
    predicted = K.predict(text, K.block_of(text), str(path))
    assert K.compare_sass(measured, predicted).same_code
    k = next(i for i, r in enumerate(predicted) if r["sass"].startswith("BSSY"))
    assert K.branch_targets(measured)[k] == predicted[k]["target"] > predicted[k]["pc"]
    moved = [dict(r) for r in predicted]
    moved[k]["target"] += 16
    c = K.compare_sass(measured, moved)
    assert not c.same_code and c.ok


def test_a_page_without_the_counters_says_so():
    with pytest.raises(BankExplorerError, match="source page"):
        K.parse_source_page("==PROF== nothing\n")
    with pytest.raises(BankExplorerError, match="Instructions Executed"):
        K.parse_source_page('"Address","Source"\n"0x10","NOP"\n')


def test_persass_record_has_the_truth_files_shape():
    rows = K.parse_source_page((PAGES / "histogram_atomics.csv").read_text())
    rec = K.persass_record((64, 1, 1), rows, {"arg1": base64.b64encode(b"\1").decode()}, "no error")
    assert set(rec) == set(TRUTH["histogram_atomics"])
    assert rec["shared_wavefronts"] == TRUTH["histogram_atomics"]["shared_wavefronts"]
    assert rec["shared_executed"] == TRUTH["histogram_atomics"]["shared_executed"]


def test_the_script_says_what_is_missing_without_a_gpu():
    import shutil

    if shutil.which("nvcc") and shutil.which("ncu"):
        pytest.skip("this machine has the CUDA tools")
    p = subprocess.run([sys.executable, str(ROOT / "scripts" / "verify_on_gpu.py"), "--kernel",
                        str(HW / "matmul_tiled.cu")], capture_output=True, text=True, timeout=120,
                       env={"PATH": "/usr/bin:/bin"})
    assert p.returncode == 3 and "cannot measure" in p.stderr
    p = subprocess.run([sys.executable, str(ROOT / "scripts" / "verify_on_gpu.py"), "--kernel", "no/such.cu"],
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 2


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
