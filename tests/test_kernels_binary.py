"""The binary front end and what CuTe kernels contain, against the GPU.

``resources/hardware/kernels/cute/`` holds eight kernels measured on the GPU machine (nvcc 13.0
-O3 -lineinfo, Nsight Compute's source page, one block): six CuTe kernels (an SM80 tiled MMA fed by
cp.async and ldmatrix on four shared layouts, an stmatrix epilogue, a swizzled transpose copy, a TF32
MMA) and every ldmatrix/stmatrix form, with the nvcc-built cubins the GPU ran and the buffers it
wrote. Executed from those cubins, every SASS instruction's counts must equal the measurement and
the outputs the GPU's (TF32 within the documented tolerance). ``tests/data/binaries`` holds the
ldmatrix kernel as the other containers nvcc makes (an executable, a shared library with compressed
code, a fatbin) and the bad inputs the messages are for.
"""

from __future__ import annotations

import base64
import json
import re
import struct
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from bankexplorer.compiler import nvrtc

ROOT = Path(__file__).resolve().parent.parent
CUTE = ROOT / "resources" / "hardware" / "kernels" / "cute"
BINS = Path(__file__).resolve().parent / "data" / "binaries"
TRUTH = json.loads((CUTE / "persass.json").read_text())

pytestmark = pytest.mark.skipif(nvrtc.find_tool("nvdisasm") is None, reason="nvdisasm not installed")


def _inputs(name: str) -> dict[str, bytes]:
    text = (CUTE / f"{name}.cu").read_text()
    return {n: np.ascontiguousarray(np.load(CUTE / f)).tobytes()
            for n, f in re.findall(r"//\s*input:\s*(\w+)\s*=\s*(\S+)", text)}


def _run(kernel, name: str):
    from bankexplorer.sass.launch import LaunchConfig
    from bankexplorer.sass.run import execute

    return execute(kernel, LaunchConfig(tuple(TRUTH[name]["block"]), arrays=_inputs(name)))


@pytest.mark.parametrize("name", sorted(TRUTH))
def test_nvcc_cubins_match_the_gpu_in_every_sass_instruction(name):
    from bankexplorer.cuda.kernels import compare_sass
    from bankexplorer.kernels.binary import load

    k = load(str(CUTE / f"{name}.cubin"))
    assert k.origin == "cubin" and k.line_file == f"{name}.cu"
    decl = re.search(r"__global__ void \w+\(([^)]*)\)", (CUTE / f"{name}.cu").read_text()).group(1)
    assert [p.name for p in k.params] == [re.findall(r"\w+", d)[-1] for d in decl.split(",")]  # the source beside it
    r = _run(k, name)
    cmp = compare_sass(TRUTH[name]["sass"], [row.to_json() for row in r.rows])
    assert cmp.same_code and cmp.ok and not cmp.differences, cmp.differences[:5]
    assert sum(row.wavefronts or 0 for row in r.rows) == TRUTH[name]["shared_wavefronts"]


def test_the_issue_s_four_tiles_cost_what_the_gpu_measured():
    """2,048 / 256 / 512 / 256 wavefronts: ldmatrix's eight 128-byte rows in one bank group (8-way),
    padded rows and Swizzle<3,3,3> conflict-free, Swizzle<2,3,3> 2-way."""
    from bankexplorer.kernels.binary import load

    got = {n: sum(r.wavefronts or 0 for r in _run(load(str(CUTE / f"{n}.cubin")), n).rows)
           for n in ("mma_cpasync_ldsm_plain", "mma_cpasync_ldsm_padded", "mma_cpasync_ldsm_swizzle233",
                     "mma_cpasync_ldsm_swizzle333")}
    assert list(got.values()) == [2048, 256, 512, 256]


@pytest.mark.parametrize("name", sorted(TRUTH))
def test_outputs_are_the_gpu_s(name):
    """What the block wrote: byte for byte, but TF32 sums, which the tensor core rounds its own way:
    within 2**-22 of the sum of the products' magnitudes (measured: 2**-22.9 at most)."""
    from bankexplorer.kernels.binary import load

    k = load(str(CUTE / f"{name}.cubin"))
    r = _run(k, name)
    names = [p.name for p in k.params]
    for key, b64 in TRUTH[name]["buffers_after"].items():
        gpu = base64.b64decode(b64)
        mine = r.buffers[names[int(key[3:])]][:len(gpu)].tobytes()
        if name != "mma_tf32_lds" or key != "arg2":
            assert mine == gpu, (name, key)
            continue
        a, b = (np.load(CUTE / f"{x}_32x32_f32.npy") for x in "ab")
        tf32 = (lambda x: (x.view(np.uint32) & np.uint32(0xFFFFE000)).view(np.float32).astype(np.float64))
        bound = np.abs(tf32(a)) @ np.abs(tf32(b)).T * 2.0 ** -22
        g = np.frombuffer(gpu, np.float32)[:1024].reshape(32, 32)
        m = np.frombuffer(mine, np.float32)[:1024].reshape(32, 32)
        assert (np.abs(g.astype(np.float64) - m) <= bound).all()
        assert (m != g).any()  # the tolerance is needed: the emulator does not copy the GPU's rounding


@pytest.mark.parametrize("file,origin", [("ldsm_stsm_forms.exe", "executable"),
                                         ("libldsm_stsm_forms.so", "shared library"),
                                         ("ldsm_stsm_forms.fatbin", "fatbin")])
def test_every_container_gives_the_measured_kernel(file, origin):
    """The executable (cudart shared), the shared library (its code Zstandard-compressed) and the
    fatbin (SASS and PTX for sm_90) hold the cubin the GPU ran; parameters by position."""
    from bankexplorer.cuda.kernels import compare_sass
    from bankexplorer.kernels.binary import load

    k = load(str(BINS / file))
    assert k.origin == origin
    assert k.cubin == (CUTE / "ldsm_stsm_forms.cubin").read_bytes()
    assert k.params[0].type == "unsigned int const*" and k.params[0].pointer and k.params[0].name is None
    from bankexplorer.sass.launch import LaunchConfig
    from bankexplorer.sass.run import execute

    r = execute(k, LaunchConfig((64, 1, 1), arrays={"0": _inputs("ldsm_stsm_forms")["in"]}))
    cmp = compare_sass(TRUTH["ldsm_stsm_forms"]["sass"], [row.to_json() for row in r.rows])
    assert cmp.same_code and not cmp.differences


def _message(data: bytes, name: str, kernel: str | None = None) -> str:
    from bankexplorer.kernels.binary import from_binary
    from bankexplorer.kernels.fatbin import BinaryError
    from bankexplorer.sass.launch import LaunchError

    with pytest.raises((BinaryError, LaunchError)) as e:
        from_binary(data, kernel, name)
    return str(e.value)


def test_bad_binaries_are_named_and_said_what_to_do():
    exe = (BINS / "ldsm_stsm_forms.exe").read_bytes()
    fat = (BINS / "ldsm_stsm_forms.fatbin").read_bytes()
    cub = (CUTE / "ldsm_stsm_forms.cubin").read_bytes()
    for data, name in ((exe, "a.exe"), (fat, "a.fatbin"), (cub, "a.cubin")):
        for cut in (len(data) // 3, len(data) - 50):
            assert re.search(r"truncated|ends|past (its|the) end", _message(data[:cut], name)), (name, cut)
    m = _message((BINS / "stride2_sm80.cubin").read_bytes(), "k.cubin")
    assert m == "k.cubin: no sm_90 code (it has SASS for sm_80); rebuild it with nvcc -arch=sm_90"
    m = _message((BINS / "ldsm_stsm_forms_ptx.fatbin").read_bytes(), "p.fatbin")
    assert m.startswith("p.fatbin: no sm_90 code (it has PTX for compute_90); only PTX") and "nvcc -arch=sm_90" in m
    m = _message(cub, "a.cubin", "gemm")
    assert m == "a.cubin: no kernel named 'gemm' (its kernels: ldsm_stsm_forms (_Z15ldsm_stsm_formsPKjPj))"
    assert "not a cubin, a fatbin" in _message(b"\x7fELF" + b"\0" * 8, "x") or "truncated" in \
        _message(b"\x7fELF" + b"\0" * 8, "x")


def test_kernels_are_picked_by_symbol_name_or_signature():
    from bankexplorer.kernels.binary import load

    path = str(CUTE / "ldsm_stsm_forms.cubin")
    for name in ("ldsm_stsm_forms", "_Z15ldsm_stsm_formsPKjPj", "ldsm_stsm_forms(unsigned int const*, unsigned int*)"):
        assert load(path, name).symbol == "_Z15ldsm_stsm_formsPKjPj"


def test_lz4_entries_of_older_toolkits_decompress():
    from bankexplorer.kernels.fatbin import BinaryError, lz4_block

    # "abcabcabcabc!": 3 literals, a match of 9 at distance 3 (overlapping), then the last literal
    block = bytes([0x35]) + b"abc" + bytes([3, 0]) + bytes([0x10]) + b"!"
    assert lz4_block(block, 13) == b"abcabcabcabc!"
    with pytest.raises(BinaryError, match="cannot be read"):
        lz4_block(bytes([0x05]) + bytes([9, 0]), 20)  # a match before any literal


def test_import_cuda_takes_a_binary_with_parameters_by_position(tmp_path):
    np.save(tmp_path / "in.npy", np.load(CUTE / "in_64x64_f32.npy"))
    out = tmp_path / "o.json"
    cmd = [sys.executable, "-m", "bankexplorer", "import-cuda", str(BINS / "libldsm_stsm_forms.so"),
           "--arg", f"0={tmp_path / 'in.npy'}", "--block", "64", "--sass-json", str(out)]
    p = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert p.returncode == 0, p.stderr
    from bankexplorer.cuda.kernels import compare_sass

    got = json.loads(out.read_text())
    assert got["kernel"] == "ldsm_stsm_forms"
    assert not compare_sass(TRUTH["ldsm_stsm_forms"]["sass"], got["sass"]).differences
    p = subprocess.run(cmd[:4] + [str(BINS / "stride2_sm80.cubin")], capture_output=True, text=True, cwd=ROOT,
                       timeout=120)
    assert p.returncode == 2 and "no sm_90 code (it has SASS for sm_80)" in p.stderr and "Traceback" not in p.stderr
    p = subprocess.run(cmd[:4] + [str(CUTE / "ldsm_stsm_forms.cubin"), "-D", "0=5"], capture_output=True, text=True,
                       cwd=ROOT, timeout=120)
    assert p.returncode == 2 and "-D 0: the parameter is a pointer (const unsigned *)" in p.stderr


def test_a_binary_s_launch_bounds_and_cluster_are_its_defaults():
    """The block comes from __launch_bounds__ (EIATTR_MAX_THREADS); the cluster shape is read."""
    from bankexplorer.kernels.binary import elf_kernels
    from bankexplorer.kernels.binary import _launch_defaults

    cub = (BINS / "stride2_sm80.cubin").read_bytes()
    sym = next(s for s in elf_kernels(cub) if "stride2" in s)
    d = _launch_defaults(cub, sym)
    assert d.block.value == (64, 1, 1) and d.cluster is None


TENSOR = r"""
// every HMMA shape: D = A x B + C through mma.sync, one warp, fragments from and to global memory
__global__ void mma_forms(const unsigned *a, const unsigned *b, const unsigned *c, unsigned *d) {
    unsigned t = threadIdx.x;
    unsigned A[4], B[2], C[4], D[4];
    for (int k = 0; k < 4; ++k) { A[k] = a[k * 32 + t]; C[k] = c[k * 32 + t]; }
    for (int k = 0; k < 2; ++k) B[k] = b[k * 32 + t];
#define OUT(n) for (int k = 0; k < 4; ++k) d[(n) * 128 + k * 32 + t] = D[k];
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"
        : "=r"(D[0]), "=r"(D[1]), "=r"(D[2]), "=r"(D[3]) : "r"(A[0]), "r"(A[1]), "r"(A[2]), "r"(A[3]),
          "r"(B[0]), "r"(B[1]), "r"(C[0]), "r"(C[1]), "r"(C[2]), "r"(C[3])); OUT(0)
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%7,%8,%9,%10};"
        : "=r"(D[0]), "=r"(D[1]), "=r"(D[2]), "=r"(D[3]) : "r"(A[0]), "r"(A[1]), "r"(B[0]),
          "r"(C[0]), "r"(C[1]), "r"(C[2]), "r"(C[3])); OUT(1)
    D[2] = D[3] = 0;
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f16.f16.f16.f16 {%0,%1}, {%2,%3}, {%4}, {%5,%6};"
        : "=r"(D[0]), "=r"(D[1]) : "r"(A[0]), "r"(A[1]), "r"(B[0]), "r"(C[0]), "r"(C[1])); OUT(2)
    asm volatile("mma.sync.aligned.m16n8k4.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%7,%8,%9,%10};"
        : "=r"(D[0]), "=r"(D[1]), "=r"(D[2]), "=r"(D[3]) : "r"(A[0]), "r"(A[1]), "r"(B[0]),
          "r"(C[0]), "r"(C[1]), "r"(C[2]), "r"(C[3])); OUT(3)
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%7,%8,%9,%10};"
        : "=r"(D[0]), "=r"(D[1]), "=r"(D[2]), "=r"(D[3]) : "r"(A[0]), "r"(A[1]), "r"(B[0]),
          "r"(C[0]), "r"(C[1]), "r"(C[2]), "r"(C[3])); OUT(4)
}
"""


@pytest.mark.skipif(not nvrtc.available(), reason="NVRTC not installed")
def test_every_hmma_shape_computes_the_ptx_fragment_layouts():
    """m16n8k16 BF16, m16n8k8 F16 (F32 and F16 accumulators), m16n8k4 TF32, m16n8k8 BF16: D as
    numpy computes it from the fragments PTX's mma layouts give each lane (g = lane/4, q = lane%4)."""
    from bankexplorer.sass.launch import LaunchConfig
    from bankexplorer.kernels.cuda_source import emulate

    rng = np.random.default_rng(41)
    halves = rng.integers(-16, 17, (6, 32, 2)) / 8  # bfloat16 pairs; the F16 and TF32 forms read the same bits
    bf = ((halves.astype(np.float32).view(np.uint32) >> 16) & 0xFFFF).astype(np.uint32)
    pairs = bf[..., 0] | bf[..., 1] << 16
    a_bf, b_bf = pairs[:4], pairs[4:]
    c = rng.integers(-4, 5, (4, 32)).astype(np.float32)
    r = emulate(TENSOR, LaunchConfig((32, 1, 1), arrays={
        "a": a_bf.tobytes(), "b": b_bf.tobytes(), "c": c.view(np.uint32).tobytes()}))
    ops = {row.sass.split()[0] for row in r.rows if row.sass.startswith("HMMA")}
    assert {"HMMA.16816.F32.BF16", "HMMA.1688.F32", "HMMA.1688.F16", "HMMA.1684.F32.TF32",
            "HMMA.1688.F32.BF16"} <= ops, ops
    d = r.buffers["d"][:5 * 128 * 4].view(np.uint32).reshape(5, 4, 32)
    g, q = np.arange(32) // 4, np.arange(32) % 4

    def bf16(v, h):
        return ((v >> (16 * h)) & 0xFFFF).astype(np.uint32) << 16

    def f16(v, h):
        return ((v >> (16 * h)) & 0xFFFF).astype(np.uint16).view(np.float16).astype(np.float64)

    def cmat():
        m = np.zeros((16, 8))
        for k in range(4):
            m[g + 8 * (k // 2), 2 * q + k % 2] = c[k]
        return m

    def f32_out(k_out):
        m = np.zeros((16, 8))
        for k in range(4):
            m[g + 8 * (k // 2), 2 * q + k % 2] = d[k_out, k].view(np.float32)
        return m

    A = np.zeros((16, 16))
    B = np.zeros((16, 8))
    for k in range(4):
        for h in (0, 1):
            A[g + 8 * (k % 2), 2 * q + h + 8 * (k // 2)] = bf16(a_bf[k], h).view(np.float32)
    for k in range(2):
        for h in (0, 1):
            B[2 * q + h + 8 * k, g] = bf16(b_bf[k], h).view(np.float32)
    assert np.array_equal(f32_out(0), (A @ B + cmat()).astype(np.float32))
    A8, B8 = np.zeros((16, 8)), np.zeros((8, 8))  # m16n8k8 BF16: the first two A registers, one B
    for k in range(2):
        for h in (0, 1):
            A8[g + 8 * k, 2 * q + h] = bf16(a_bf[k], h).view(np.float32)
    for h in (0, 1):
        B8[2 * q + h, g] = bf16(b_bf[0], h).view(np.float32)
    assert np.array_equal(f32_out(4), (A8 @ B8 + cmat()).astype(np.float32))
    Af, Bf = np.zeros((16, 8)), np.zeros((8, 8))  # m16n8k8 F16 reads the same bits as halves
    for k in range(2):
        for h in (0, 1):
            Af[g + 8 * k, 2 * q + h] = f16(a_bf[k], h)
    for h in (0, 1):
        Bf[2 * q + h, g] = f16(b_bf[0], h)
    assert np.allclose(f32_out(1), (Af @ Bf + cmat()).astype(np.float32), rtol=2e-7, atol=0, equal_nan=True)
    c16 = np.zeros((16, 8))  # F16 accumulators: C's first two registers as half pairs, D likewise
    out16 = np.zeros((16, 8))
    for k in range(2):
        for h in (0, 1):
            c16[g + 8 * k, 2 * q + h] = f16(c[k].view(np.uint32), h)
            out16[g + 8 * k, 2 * q + h] = f16(d[2, k], h)
    assert np.array_equal(out16, (Af @ Bf + c16).astype(np.float16).astype(np.float64))
    At, Bt = np.zeros((16, 4)), np.zeros((4, 8))  # m16n8k4 TF32: a float per register, 13 bits dropped
    trunc = (lambda v: (v & np.uint32(0xFFFFE000)).view(np.float32).astype(np.float64))
    for k in range(2):
        At[g + 8 * k, q] = trunc(a_bf[k])
    Bt[q, g] = trunc(b_bf[0])
    assert np.allclose(f32_out(3), (At @ Bt + cmat()), rtol=2e-7, atol=1e-30, equal_nan=True)


def test_python_api_takes_a_binary():
    import pathlib

    import bankexplorer.api as bx

    p = bx.from_cuda(pathlib.Path(CUTE / "mma_cpasync_ldsm_swizzle233.cubin"), block=128,
                     args={"A": np.load(CUTE / "a_64x64_f16.npy")})
    assert int(bx.analyze(p).wavefronts.sum()) == 512  # names from the source beside the cubin
    p = bx.from_cuda(pathlib.Path(BINS / "libldsm_stsm_forms.so"), block=64,
                     args={0: np.load(CUTE / "in_64x64_f32.npy")})
    assert int(bx.analyze(p).wavefronts.sum()) == TRUTH["ldsm_stsm_forms"]["shared_wavefronts"]
    with pytest.raises(ValueError, match="no sm_90 code"):
        bx.from_cuda(pathlib.Path(BINS / "stride2_sm80.cubin"))


def test_import_cuda_dialog_opens_a_binary(qtbot):
    """Opened (or dropped) in Import CUDA, a cubin runs as built: its source beside it is shown
    read-only, its parameters by name, and its counts are the GPU's; a binary without sm_90 code is
    said in the dialog."""
    from bankexplorer.gui.app import new_pattern
    from bankexplorer.gui.cuda_dialog import CudaImportDialog
    from bankexplorer.gui.document import Document

    d = CudaImportDialog(Document(new_pattern()))
    qtbot.addWidget(d)
    d.open_path(str(CUTE / "mma_cpasync_ldsm_swizzle233.cubin"))
    assert d.editor.isReadOnly() and "#include <cute/tensor.hpp>" in d.editor.toPlainText()
    assert d.wait_compiled(60000)
    assert "<b>512</b> shared-memory wavefronts" in d.summary.text()
    with pytest.raises(ValueError, match="no sm_90 code"):
        d.open_path(str(BINS / "stride2_sm80.cubin"))
    d.open_path(str(BINS / "stride2.cu"))
    assert not d.editor.isReadOnly() and d.binary is None
    assert d.wait_compiled(60000)


@pytest.mark.skipif(not nvrtc.available(), reason="NVRTC not installed")
@pytest.mark.parametrize("name,same_code", [("ldsm_stsm_forms", True), ("mma_cpasync_ldsm_swizzle333", True),
                                            ("mma_cpasync_ldsm_swizzle233", False)])
def test_from_source_nvrtc_matches_the_gpu(name, same_code):
    """CuTe from source: NVRTC 13.5 with CCCL 3.5 and the two CuTe headers of
    bankexplorer/compiler/include. Where it makes nvcc's instructions (5 of the 8 measured kernels),
    every SASS instruction matches the GPU; where it makes other code (the plain, padded and
    Swizzle<2,3,3> tiles: one more instruction per warp), the shared-memory wavefronts do. A tiled
    MMA takes 20-40 s to compile (the tests run without the compile cache)."""
    from bankexplorer.cuda.kernels import compare_sass
    from bankexplorer.sass.launch import LaunchConfig
    from bankexplorer.kernels.cuda_source import emulate

    path = CUTE / f"{name}.cu"
    r = emulate(path.read_text(), LaunchConfig(tuple(TRUTH[name]["block"]), arrays=_inputs(name)), path=str(path))
    cmp = compare_sass(TRUTH[name]["sass"], [row.to_json() for row in r.rows])
    assert cmp.same_code == same_code and cmp.ok and not cmp.differences, cmp.differences[:5]
    assert cmp.predicted_totals["wavefronts"] == TRUTH[name]["shared_wavefronts"]


def test_nothing_is_compiled_twice(monkeypatch, tmp_path):
    """The second compile of the same text, options and headers comes from the cache (memory, then
    disk); another option, header text or source is another key; a compile stopped by its budget
    is not kept; BANKEXPLORER_CACHE=off compiles every time (the other tests run so)."""
    from bankexplorer.compiler import cache

    monkeypatch.setenv("BANKEXPLORER_CACHE", str(tmp_path))
    cache.clear_memory()
    calls = []
    real = nvrtc._in_child

    def counting(request, seconds, memory):
        calls.append(request["source"])
        if "stop" in request["source"]:
            return nvrtc.CompileOutput(False, "nvrtc: stopped after 1 s, the compile's time budget")
        return nvrtc.CompileOutput(True, "", b"\x7fELF" + request["source"].encode())

    monkeypatch.setattr(nvrtc, "_in_child", counting)
    nvrtc.compile_cuda("__global__ void k() {}", headers={"a.h": "1"})
    nvrtc.compile_cuda("__global__ void k() {}", headers={"a.h": "1"})
    assert len(calls) == 1
    cache.clear_memory()  # a new process: from the disk
    assert nvrtc.compile_cuda("__global__ void k() {}", headers={"a.h": "1"}).cubin.endswith(b"k() {}")
    assert len(calls) == 1
    nvrtc.compile_cuda("__global__ void k() {}", headers={"a.h": "2"})
    nvrtc.compile_cuda("__global__ void k() {}", headers={"a.h": "1"}, options=("-DX=1",))
    assert len(calls) == 3
    for _ in range(2):
        assert not nvrtc.compile_cuda("__global__ void stop() {}").ok
    assert len(calls) == 5
    monkeypatch.setenv("BANKEXPLORER_CACHE", "off")
    nvrtc.compile_cuda("__global__ void k() {}", headers={"a.h": "1"})
    assert len(calls) == 6
    monkeypatch.setattr(nvrtc, "_in_child", real)


STRUCT = r"""
struct Args { float *out; int stride; int pad[3]; };
__global__ void with_struct(Args a, float *o) {
    __shared__ float s[1024];
    s[threadIdx.x * a.stride] = threadIdx.x;
    __syncthreads();
    o[threadIdx.x] = s[threadIdx.x];
}
"""


@pytest.mark.skipif(not nvrtc.available(), reason="NVRTC not installed")
def test_a_structure_parameter_takes_its_bytes():
    """A structure passed by value (a PyTorch accessor, CuTe's params) gets the bytes given for it
    (--arg NAME=FILE.npy, or by position for a binary); without them it is zero-filled and the
    run says so."""
    from bankexplorer.sass.launch import LaunchConfig, LaunchError
    from bankexplorer.kernels.cuda_source import emulate

    r = emulate(STRUCT, LaunchConfig((32, 1, 1)))
    assert any("a (Args, 24 bytes) is zero-filled" in m for _l, m in r.notes)
    assert sum(x.wavefronts or 0 for x in r.rows) == 2  # stride 0: one word for every lane
    r = emulate(STRUCT, LaunchConfig((32, 1, 1), arrays={"a": np.array([0, 0, 32, 0, 0, 0], np.int32).tobytes()}))
    assert sum(x.wavefronts or 0 for x in r.rows) == 33  # stride 32: the store 32-way, the load 1
    with pytest.raises(LaunchError, match="28 bytes for a 24-byte structure"):
        emulate(STRUCT, LaunchConfig((32, 1, 1), arrays={"a": bytes(28)}))
