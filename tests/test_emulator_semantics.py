"""The emulator's arithmetic, control flow and limits on kernels written for the purpose: results
checked against numpy, errors that name what and where, budgets and Ctrl-C."""

from __future__ import annotations

import json
import re
import signal
import subprocess
import sys
import time
from fractions import Fraction

import numpy as np
import pytest

from bankexplorer.compiler import nvrtc

pytestmark = pytest.mark.skipif(not nvrtc.available(), reason="NVRTC / nvdisasm not installed")


def emulate(src: str, block=(32, 1, 1), budget: int | None = None, **arrays):
    from bankexplorer.sass.launch import LaunchConfig
    from bankexplorer.sass.run import MAX_WARP_INSTRUCTIONS
    from bankexplorer.kernels.cuda_source import emulate as run

    cfg = LaunchConfig(block, arrays={k: np.ascontiguousarray(v).tobytes() for k, v in arrays.items()})
    return run(src, cfg, budget=budget or MAX_WARP_INSTRUCTIONS)


INT_OPS = r"""
__global__ void int_ops(const int *a, const int *b, int *out) {
    int t = threadIdx.x + blockDim.x * threadIdx.y;
    int x = a[t], y = b[t];
    unsigned ux = x, uy = y;
    int n = blockDim.x * blockDim.y;
    out[0 * n + t] = x / y;
    out[1 * n + t] = x % y;
    out[2 * n + t] = (int)(ux / uy);
    out[3 * n + t] = (int)(ux % uy);
    out[4 * n + t] = __mulhi(x, y);
    out[5 * n + t] = (int)__umulhi(ux, uy);
    out[6 * n + t] = __popc(ux) + 100 * __clz(x) ;
    out[7 * n + t] = (int)__brev(ux);
    out[8 * n + t] = x >> (y & 31);
    out[9 * n + t] = (int)(ux >> (uy & 31)) ^ (x << (y & 7));
    out[10 * n + t] = min(x, y) + max(ux, uy);
    long long p = (long long)x * y;
    out[11 * n + t] = (int)(p >> 17);
    out[12 * n + t] = (int)(((unsigned long long)ux * uy + 12345ull) % 1000003ull);
    out[13 * n + t] = __byte_perm(x, y, 0x5140) ;
    out[14 * n + t] = __ffs(x) + 64 * (x == y ? 1 : 0);
}
"""


def _i32(a):
    return np.asarray(a, np.int64).astype(np.int32)


def test_integer_arithmetic_matches_numpy():
    rng = np.random.default_rng(7)
    n = 64
    a = rng.integers(-2**31, 2**31, n).astype(np.int32)
    b = rng.integers(-2**31, 2**31, n).astype(np.int32)
    b[b == 0] = 3
    a[:4] = [7, -7, 2**31 - 1, -2**31]
    b[:4] = [2, 2, -1, 3]
    r = emulate(INT_OPS, (32, 2, 1), a=a, b=b)
    out = r.buffers["out"][:15 * n * 4].view(np.int32).reshape(15, n)
    x, y = a.astype(np.int64), b.astype(np.int64)
    ux, uy = x & 0xFFFFFFFF, y & 0xFFFFFFFF
    q = np.where((x == -2**31) & (y == -1), x, np.trunc(x / y).astype(np.int64))
    exact_q = np.array([int(abs(int(p)) // abs(int(s))) * (1 if (p >= 0) == (s >= 0) else -1) for p, s in zip(x, y)])
    want = [
        _i32(exact_q), _i32(x - exact_q * y), _i32(ux // uy), _i32(ux % uy), _i32((x * y) >> 32),
        _i32((ux * uy) >> 32),
        _i32([bin(int(v)).count("1") for v in ux]) + 100 * _i32([32 - int(v).bit_length() for v in ux]),
        _i32([int(f"{int(v):032b}"[::-1], 2) for v in ux]), _i32(x >> (y & 31)),
        _i32((ux >> (uy & 31)) ^ ((x << (y & 7)) & 0xFFFFFFFF)), _i32(np.minimum(x, y) + np.maximum(ux, uy)),
        _i32((x * y) >> 17), _i32([(int(p) * int(q) + 12345) % 1000003 for p, q in zip(ux, uy)]),
    ]
    assert q is not None
    for k, w in enumerate(want):
        np.testing.assert_array_equal(out[k], w, err_msg=f"row {k}")
    # __byte_perm(x, y, 0x5140): bytes of (y:x) picked by the selector nibbles 0, 4, 1, 5
    xb = a.view(np.uint8).reshape(n, 4)
    yb = b.view(np.uint8).reshape(n, 4)
    pool = np.concatenate([xb, yb], axis=1)
    perm = pool[:, [0, 4, 1, 5]].copy().view(np.int32).reshape(n)
    np.testing.assert_array_equal(out[13], perm)
    ffs = np.array([(int(v) & -int(v)).bit_length() for v in ux])
    np.testing.assert_array_equal(out[14], ffs + 64 * (x == y))


FLOAT_OPS = r"""
__global__ void float_ops(const float *a, const float *b, float *out, double *dout) {
    int t = threadIdx.x;
    float x = a[t], y = b[t];
    out[0 * 32 + t] = x + y;
    out[1 * 32 + t] = x * y;
    out[2 * 32 + t] = fmaf(x, y, 1.25f);
    out[3 * 32 + t] = x / y;
    out[4 * 32 + t] = sqrtf(fabsf(x));
    out[5 * 32 + t] = (float)(int)(x * 1000.f);
    out[6 * 32 + t] = fminf(x, y) - fmaxf(x, y);
    out[7 * 32 + t] = __half2float(__float2half(x));
    dout[t] = (double)x * (double)y + 0.5;
}
"""


def test_float_arithmetic_matches_numpy():
    rng = np.random.default_rng(3)
    a = rng.normal(0, 10, 32).astype(np.float32)
    b = rng.normal(0, 10, 32).astype(np.float32)
    r = emulate(FLOAT_OPS, a=a, b=b)
    out = r.buffers["out"][:8 * 32 * 4].view(np.float32).reshape(8, 32)
    np.testing.assert_array_equal(out[0], a + b)
    np.testing.assert_array_equal(out[1], a * b)
    np.testing.assert_array_equal(out[2], (a.astype(np.float64) * b + 1.25).astype(np.float32))
    np.testing.assert_array_equal(out[3], a / b)  # the compiled division is correctly rounded
    np.testing.assert_allclose(out[4], np.sqrt(np.abs(a)), rtol=2e-7)
    np.testing.assert_array_equal(out[5], np.trunc(a * np.float32(1000)).astype(np.int32).astype(np.float32))
    np.testing.assert_array_equal(out[6], np.minimum(a, b) - np.maximum(a, b))
    np.testing.assert_array_equal(out[7], a.astype(np.float16).astype(np.float32))
    np.testing.assert_array_equal(r.buffers["dout"][:256].view(np.float64), a.astype(np.float64) * b + 0.5)


WARP_OPS = r"""
__global__ void warp_ops(const int *a, int *out) {
    int t = threadIdx.x, v = a[t];
    out[t] = __shfl_sync(0xffffffff, v, (t * 7) & 31);
    out[64 + t] = __shfl_down_sync(0xffffffff, v, 3);
    out[128 + t] = __shfl_xor_sync(0xffffffff, v, 5, 16);
    out[192 + t] = __ballot_sync(0xffffffff, v & 1);
    out[256 + t] = __reduce_add_sync(0xffffffff, v);
    out[320 + t] = __match_any_sync(0xffffffff, v & 3);
    if (t & 1) out[384 + t] = __activemask();
}
"""


def test_warp_instructions_match_their_definitions():
    a = np.random.default_rng(5).integers(0, 1000, 64).astype(np.int32)
    r = emulate(WARP_OPS, (64, 1, 1), a=a)
    out = r.buffers["out"][:448 * 4].view(np.int32)
    lane = np.arange(32)
    for w in range(2):
        v = a[32 * w:32 * w + 32]
        sl = slice(32 * w, 32 * w + 32)
        np.testing.assert_array_equal(out[sl], v[(lane * 7) & 31])
        np.testing.assert_array_equal(out[64:128][sl], np.where(lane + 3 < 32, v[np.minimum(lane + 3, 31)], v))
        np.testing.assert_array_equal(out[128:192][sl], v[(lane & 16) | ((lane ^ 5) & 15)])
        ballot = int(sum(1 << i for i in range(32) if v[i] & 1))
        assert (out[192:256][sl].view(np.uint32) == ballot).all()
        assert (out[256:320][sl] == v.sum()).all()
        match = [sum(1 << j for j in range(32) if v[j] & 3 == v[i] & 3) for i in range(32)]
        np.testing.assert_array_equal(out[320:384][sl].view(np.uint32), np.array(match, np.uint32))
        assert (out[384:448][sl][1::2].view(np.uint32) == 0xAAAAAAAA).all()


def test_an_instruction_without_semantics_is_an_error_naming_it(monkeypatch):
    from bankexplorer.sass import ops
    from bankexplorer.sass.issue import EmulationError

    real = ops.table_for

    def without_imad(arch):
        t = real(arch)
        t.pop("LEA")
        return t

    monkeypatch.setattr("bankexplorer.sass.run.table_for", without_imad)
    with pytest.raises(EmulationError, match=r"line \d+: the SASS instruction 'LEA .*' \(LEA\) is not modelled"):
        emulate("__global__ void k(float *o) { __shared__ float s[64]; s[threadIdx.x * 2] = 1; "
                "__syncthreads(); o[threadIdx.x] = s[threadIdx.x]; }")


ENDLESS = r"""
__global__ void endless(int *out) {
    __shared__ volatile int s[32];
    s[threadIdx.x] = 0;
    while (s[0] >= 0) s[threadIdx.x] += 1;
    out[threadIdx.x] = s[threadIdx.x];
}
"""


def test_an_endless_kernel_stops_at_the_budget_with_a_message():
    from bankexplorer.sass.run import BudgetExceeded

    t0 = time.perf_counter()
    with pytest.raises(BudgetExceeded, match="stopped after 20,000 warp instructions .*line 5"):
        emulate(ENDLESS, budget=20_000)
    assert time.perf_counter() - t0 < 20


def test_a_branch_to_itself_is_an_endless_loop_said_at_once():
    """``for (;;)`` with nothing the compiler must keep is one BRA to its own address: no thread that
    takes it can ever leave, so it is an error at its first issue, not minutes later at the budget."""
    from bankexplorer.sass.issue import EmulationError

    src = ("__global__ void spin(int *o) {\n  __shared__ int s[32];\n  s[threadIdx.x] = 1;\n"
           "  if (threadIdx.x == 7) for (;;) s[threadIdx.x]++;\n  o[threadIdx.x] = s[threadIdx.x ^ 1];\n}\n")
    t0 = time.perf_counter()
    with pytest.raises(EmulationError, match=r"line 4: 'BRA .*' branches to itself.*endless loop"):
        emulate(src, budget=10_000_000)
    assert time.perf_counter() - t0 < 10


def test_another_thread_stops_a_run_within_milliseconds_and_reads_its_progress():
    """The window runs kernels on a worker while the user types: a run whose text changed stops at
    once (an endless loop ran on to its budget, minutes, and every later text waited behind it)."""
    import threading

    from bankexplorer.sass.launch import LaunchConfig
    from bankexplorer.sass.run import Control, Stopped
    from bankexplorer.kernels.cuda_source import emulate as run

    control = Control()
    seen: list = []
    stopped_at: list[float] = []

    def stopper() -> None:
        while control.issued < 50_000:
            time.sleep(0.01)
        seen.append((control.stage, control.issued))
        stopped_at.append(time.perf_counter())
        control.stop()

    threading.Thread(target=stopper, daemon=True).start()
    with pytest.raises(Stopped, match=r"stopped on request after [\d,]+ warp instructions, at line 5"):
        run(ENDLESS, LaunchConfig((32, 1, 1)), control=control)
    assert time.perf_counter() - stopped_at[0] < 0.5
    assert seen[0][0] == "executing" and seen[0][1] >= 50_000
    done = Control()
    done.stop()  # stopped before it starts: the block is never executed
    with pytest.raises(Stopped, match="before the block was executed"):
        run(ENDLESS, LaunchConfig((32, 1, 1)), control=done)


CP_ASYNC = r"""
#include <cuda_pipeline.h>
__global__ void pipe(const float4 *in, float *out) {
    __shared__ float4 s[2][64];
    for (int st = 0; st < 2; ++st)
        __pipeline_memcpy_async(&s[st][threadIdx.x], &in[st * 64 + threadIdx.x], sizeof(float4));
    __pipeline_commit();
    __pipeline_wait_prior(0);
    __syncthreads();
    float4 a = s[1][(threadIdx.x + 1) % 64];
    out[threadIdx.x] = a.x + a.y + a.z + a.w;
}
"""


def test_padding_no_thread_runs_is_no_access_in_the_report(tmp_path):
    """nvcc pads cp.async with '@!PT LDS RZ, [RZ]' (never true): it is executed (the per-SASS
    counts keep it, as Nsight does) but reads nothing, so the per-line report, and the comparison
    with the source as written, do not list "3 x LDS" on the memcpy_async line ("0 wavefronts
    instead of 0")."""
    k = tmp_path / "pipe.cu"
    k.write_text(CP_ASYNC)
    p = _cli("import-cuda", str(k), "--block", "64", "--sass")
    assert p.returncode == 0, p.stderr
    assert "@!PT LDS" not in p.stdout and "x LDS " not in p.stdout.split("as written")[0].replace("LDS.128", "")
    assert "as written vs as compiled: every line executes as written" in p.stdout
    assert "8 wavefronts for 2 shared-memory warp instructions executed" in p.stdout
    out = tmp_path / "o.json"
    assert _cli("import-cuda", str(k), "--block", "64", "--sass-json", str(out)).returncode == 0
    pads = [r for r in json.loads(out.read_text())["sass"] if r["sass"].startswith("@!PT LDS")]
    assert pads and all(r["executed"] == 2 and r["pred_on_threads"] == 0 for r in pads)  # as the GPU counts them


PRINTF = r"""
#include <cstdio>
__global__ void pf(const float *in, int *out) {
    __shared__ float s[64];
    s[threadIdx.x] = in[threadIdx.x] * 0.5f;
    __syncthreads();
    if (threadIdx.x % 16 == 0)
        printf("t=%3d warp %u: s=%6.2f %s %c %lld %x%%\n", threadIdx.x, threadIdx.x / 32, s[threadIdx.x],
               threadIdx.x < 32 ? "lo" : "hi", 'A' + threadIdx.x % 26, -1ll * threadIdx.x, threadIdx.x * 255);
    out[threadIdx.x] = (int)s[63 - threadIdx.x];
}
"""


def test_printf_runs_and_shows_what_it_printed(tmp_path):
    """A debugging printf is a call to the external vprintf: it was 'LEPC is not modelled' and the
    kernel could not be executed. Now each calling thread's line is formatted from the emulated
    stack and strings, in both builds, and the kernel goes on."""
    from bankexplorer.sass.launch import LaunchConfig
    from bankexplorer.kernels.cuda_source import emulate as run

    want = ["t=  0 warp 0: s=  0.00 lo A 0 0%", "t= 16 warp 0: s=  8.00 lo Q -16 ff0%",
            "t= 32 warp 1: s= 16.00 hi G -32 1fe0%", "t= 48 warp 1: s= 24.00 hi W -48 2fd0%"]
    data = np.arange(64, dtype=np.float32)
    for optimize in (True, False):
        r = run(PRINTF, LaunchConfig((64, 1, 1), arrays={"in": data.tobytes()}), optimize=optimize)
        assert [t for _, t in r.printed] == want and {ln for ln, _ in r.printed} == {8}
        assert np.array_equal(r.buffers["out"][:256].view(np.int32), (data[::-1] * 0.5).astype(np.int32))
    k, x = tmp_path / "pf.cu", tmp_path / "in.npy"
    k.write_text(PRINTF)
    np.save(x, data)
    p = _cli("import-cuda", str(k), "--block", "64", "--arg", f"in={x}")
    assert p.returncode == 0, p.stderr
    assert "printf (4 lines, in the order the threads called it):\n    8: t=  0 warp 0: s=  0.00 lo A 0 0%\n" in p.stdout


def test_a_failed_assert_stops_the_kernel_and_names_it():
    """assert() calls __assertfail when it fails: on the GPU the kernel stops (device-side assert).
    It was 'calls a function through its address'; now it names the assertion, line and thread,
    in both builds, and a kernel whose asserts hold runs as before."""
    from bankexplorer.sass.issue import EmulationError
    from bankexplorer.sass.launch import LaunchConfig
    from bankexplorer.kernels.cuda_source import emulate as run

    src = ("#include <cassert>\n__global__ void ak(const int *in, int *out) {\n  __shared__ int s[32];\n"
           "  s[threadIdx.x] = in[threadIdx.x];\n  __syncthreads();\n  assert(s[threadIdx.x] >= 0);\n"
           "  out[threadIdx.x] = s[31 - threadIdx.x];\n}\n")
    good = np.arange(32, dtype=np.int32)
    bad = good.copy()
    bad[[5, 9]] = -1
    for optimize in (True, False):
        r = run(src, LaunchConfig((32, 1, 1), arrays={"in": good.tobytes()}), optimize=optimize)
        assert np.array_equal(r.buffers["out"][:128].view(np.int32), good[::-1])
        with pytest.raises(EmulationError, match=r"line 6: assertion `s\[threadIdx.x\] >= 0` failed in 2 threads "
                                                 r"\(the first: threadIdx 5,0,0\).*device-side assert"):
            run(src, LaunchConfig((32, 1, 1), arrays={"in": bad.tobytes()}), optimize=optimize)


def test_printf_conversions_as_c_writes_them():
    import struct

    from bankexplorer.sass.calls import format_line

    def packed(*items):
        b = b""
        for f, v in items:
            n = struct.calcsize(f)
            b = b.ljust(-(-len(b) // n) * n, b"\0") + struct.pack("<" + f, v)
        return b

    args = packed(("i", -5), ("d", 3.25), ("Q", 0x1000), ("I", 255), ("q", -7), ("i", 65), ("d", float("inf")),
                  ("I", 8), ("i", 42), ("Q", 0))
    text = format_line(b"%d|%.2f|%s|%#x|%lld|%c|%6f|%#o|%-4d|%s|%5.1e|%%", lambda o, n: args[o:o + n],
                       lambda a: b"abc" if a == 0x1000 else b"(null)")
    assert text.startswith("-5|3.25|abc|0xff|-7|A|   inf|010|42  |(null)|")


def test_a_deadlock_is_an_error_that_says_where():
    from bankexplorer.sass.issue import EmulationError

    src = r"""
    __global__ void stuck(int *out) {
        __shared__ int s[64];
        s[threadIdx.x] = threadIdx.x;
        if (threadIdx.x < 32) asm volatile("bar.sync 1, 64;");
        out[threadIdx.x] = s[63 - threadIdx.x];
    }"""
    with pytest.raises(EmulationError, match="never finishes.*BAR.SYNC"):
        emulate(src, (64, 1, 1))


def _cli(*args, **kw):
    return subprocess.run([sys.executable, "-m", "bankexplorer", *args], capture_output=True, text=True, **kw)


def test_cli_budget_and_sass_json(tmp_path):
    k = tmp_path / "endless.cu"
    k.write_text(ENDLESS)
    p = _cli("import-cuda", str(k), "--block", "32", "--max-instructions", "5000")
    assert p.returncode == 2 and "stopped after 5,000 warp instructions" in p.stderr and "Traceback" not in p.stderr
    good = tmp_path / "lookup.cu"
    good.write_text("__global__ void lookup(const int *keys, int *out) {\n  __shared__ int table[256];\n"
                    "  table[threadIdx.x] = threadIdx.x;\n  __syncthreads();\n"
                    "  out[threadIdx.x] = table[keys[threadIdx.x] & 255];\n}\n")
    keys = tmp_path / "keys.npy"
    np.save(keys, (np.arange(64) * 32 % 256).astype(np.int32))
    out = tmp_path / "o.json"
    p = _cli("import-cuda", str(good), "--block", "64", "--arg", f"keys={keys}", "--sass-json", str(out))
    assert p.returncode == 0, p.stderr
    doc = json.loads(out.read_text())
    assert set(doc) >= {"arch", "block", "kernel", "timing_dependent", "sass"}
    assert doc["block"] == [64, 1, 1] and doc["kernel"] == "lookup" and doc["timing_dependent"] is False
    lds = [s for s in doc["sass"] if s["sass"].startswith("LDS")]
    assert lds == [dict(lds[0], executed=2, threads=64, pred_on_threads=64, wavefronts=16, ideal=2, data=["keys"])]
    assert [s["pc"] for s in doc["sass"]] == sorted(s["pc"] for s in doc["sass"])
    p = _cli("import-cuda", str(good), "--block", "64", "--arg", f"nokey={keys}")
    assert p.returncode == 2 and "no parameter named 'nokey'" in p.stderr
    p = _cli("import-cuda", str(good), "--block", "64", "--arg", f"keys={tmp_path / 'missing.npy'}")
    assert p.returncode == 2 and "no such file" in p.stderr


def test_a_long_run_counts_on_a_terminal_and_stays_quiet_in_a_pipe(tmp_path):
    """A terminal sees how far a long run got and how to stop it (a silent one looks hung); the line
    is erased before the message. A pipe gets the message alone."""
    import os
    import pty

    k = tmp_path / "endless.cu"
    k.write_text(ENDLESS)
    # a run of 2.5 s, stopped by the time budget: the line shows after a second of executing, whatever
    # the emulator's speed (an instruction budget ended it before the line came once the emulator got fast)
    args = [sys.executable, "-m", "bankexplorer", "import-cuda", str(k), "--block", "32", "--max-seconds", "2.5",
            "--max-instructions", "1000000000"]
    master, slave = pty.openpty()
    p = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=slave)
    os.close(slave)
    got = b""
    while True:
        try:
            chunk = os.read(master, 4096)
        except OSError:  # the child closed the terminal
            break
        if not chunk:
            break
        got += chunk
    p.wait(timeout=60)
    os.close(master)
    text = got.decode()
    assert p.returncode == 2
    assert re.search(r"\r\S*endless\.cu: executing one block: [\d,]+ warp instructions so far \(Ctrl\+C stops\)", text), text
    assert "\r\x1b[Kbankexplorer: " in text and "stopped after 2.5 s" in text
    piped = _cli("import-cuda", str(k), "--block", "32", "--max-instructions", "60000")
    assert "so far" not in piped.stderr and "stopped after 60,000" in piped.stderr


def test_ctrl_c_stops_a_run_within_a_second(tmp_path):
    k = tmp_path / "endless.cu"
    k.write_text(ENDLESS)
    p = subprocess.Popen([sys.executable, "-m", "bankexplorer", "import-cuda", str(k), "--block", "32",
                          "--max-instructions", "1000000000"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    time.sleep(4)  # compiled and running
    assert p.poll() is None
    t0 = time.perf_counter()
    p.send_signal(signal.SIGINT)
    p.wait(timeout=10)
    assert time.perf_counter() - t0 < 1.0
    assert p.returncode == 130


CONTROL = r"""
__device__ int table[64] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
__device__ int counter;
__constant__ int cst[8] = {3, 1, 4, 1, 5, 9, 2, 6};
__device__ __noinline__ int twice(int x) { return 2 * x + 1; }
__global__ void control(const int *in, int *out) {
    __shared__ int s[256];
    int t = threadIdx.x;
    int loc[8];
    for (int i = 0; i < 8; ++i) loc[i] = in[t] * i + t;
    s[t] = table[t] + cst[t & 7];
    s[t + 64] = loc[(t + in[t]) & 7];
    s[t + 128] = twice(t);
    s[t + 192] = 0;
    __syncthreads();
    int v;
    switch ((t + in[t]) % 7) {
        case 0: v = s[t * 2 % 256]; break;
        case 1: v = s[t * 3 % 256] + 1; break;
        case 2: v = s[t * 5 % 256] * 2; break;
        case 3: v = s[t * 7 % 256] - 3; break;
        case 4: v = s[(t * 11) & 255] ^ 5; break;
        case 5: v = s[(t * 13) & 255] | 9; break;
        default: v = s[255 - t]; break;
    }
    atomicAdd(&counter, 1);
    out[t] = v;
}
"""


def test_switch_tables_device_variables_local_arrays_and_calls():
    """A switch compiled to a jump table (BRX), ``__device__`` and ``__constant__`` data, a local
    array indexed by data (local memory), a ``__noinline__`` call: the results are C's."""
    a = np.random.default_rng(11).integers(0, 50, 64).astype(np.int32)
    r = emulate(CONTROL, (64, 1, 1), **{"in": a})
    out = r.buffers["out"][:256].view(np.int32)
    t = np.arange(64)
    table = np.where(t < 16, t + 1, 0)
    cst = np.array([3, 1, 4, 1, 5, 9, 2, 6])
    s = np.zeros(256, np.int64)
    s[:64] = table + cst[t & 7]
    s[64:128] = a * ((t + a) & 7) + t
    s[128:192] = 2 * t + 1
    c = (t + a) % 7
    want = np.select([c == 0, c == 1, c == 2, c == 3, c == 4, c == 5],
                     [s[t * 2 % 256], s[t * 3 % 256] + 1, s[t * 5 % 256] * 2, s[t * 7 % 256] - 3,
                      s[(t * 11) & 255] ^ 5, s[(t * 13) & 255] | 9], s[255 - t])
    np.testing.assert_array_equal(out, want)
    # the initialised variables, then the zero-initialised ones: table, then counter after every thread
    dev = r.buffers["__device__ variables"][:260].view(np.int32)
    np.testing.assert_array_equal(dev[:64], table)
    assert dev[64] == 64


def test_sums_of_three_64_bit_values_carry_twice():
    """IADD3 of three words can carry twice into the high word: two carry predicates, both added
    by IADD3.X (found by the buffers an H100 left: a long long sum was off by 2^32)."""
    src = r"""
    __global__ void sum3(const long long *a, long long *out) {
        int t = threadIdx.x;
        long long x = a[3 * t], y = a[3 * t + 1], z = a[3 * t + 2];
        out[t] = x + y + z;
        out[32 + t] = (x ^ 0x7fffffff) + (y | 0xf0000000) - z;
    }"""
    rng = np.random.default_rng(2)
    a = rng.integers(-2**62, 2**62, 96, dtype=np.int64)
    a[:6] = [0xF8000000, 0x68000000, 0xE0000000, -1, -1, -1]
    r = emulate(src, a=a)
    out = r.buffers["out"][:512].view(np.int64)
    x, y, z = (a.reshape(32, 3)[:, k].astype(object) for k in range(3))
    wrap = lambda v: np.array([((int(u) + 2**63) % 2**64) - 2**63 for u in v], np.int64)  # noqa: E731
    np.testing.assert_array_equal(out[:32], wrap(x + y + z))
    np.testing.assert_array_equal(out[32:], wrap((x ^ 0x7FFFFFFF) + (y | 0xF0000000) - z))


MINMAX = r"""
__global__ void minmax(const double *a, const double *b, double *out, const float *fa, const float *fb,
                       float *fout) {
    int t = threadIdx.x;
    out[t] = fmax(a[t], b[t]);
    out[32 + t] = fmin(a[t], b[t]);
    fout[t] = fmaxf(fa[t], fb[t]);
    fout[32 + t] = fminf(fa[t], fb[t]);
}
"""


def test_fmax_and_fmin_follow_cuda_with_nans_and_signed_zeros():
    """fmax/fmin of doubles compile to DSETP.MAX/.MIN and two SELs: a number over a NaN, NaN when
    both are, ordinary values compared; the float ones to FMNMX."""
    a = np.array([1.5, -2.0, np.nan, 3.0, np.nan, -0.0, 0.0, 7.25] * 4)
    b = np.array([2.5, -3.0, 4.0, np.nan, np.nan, 0.0, -0.0, 7.25] * 4)
    r = emulate(MINMAX, (32, 1, 1), a=a, b=b, fa=a.astype(np.float32), fb=b.astype(np.float32))
    names = list(r.buffers)
    got = r.buffers[names[2]][:64 * 8].view(np.float64)
    fgot = r.buffers[names[5]][:64 * 4].view(np.float32)
    finite = ~(np.isnan(a) & np.isnan(b))
    for k, fn in ((0, np.fmax), (1, np.fmin)):
        want = fn(a, b)
        assert np.array_equal(got[32 * k:32 * (k + 1)][finite], want[finite])
        assert np.isnan(got[32 * k:32 * (k + 1)][~finite]).all()
        assert np.array_equal(fgot[32 * k:32 * (k + 1)][finite], want[finite].astype(np.float32))
    # the zeros: a value equal to the other, either zero is a right answer; the sign is the GPU's choice
    assert got[5] == 0.0 and got[6] == 0.0


def test_sad_and_usad_are_absolute_differences_plus_an_addend():
    """``__sad`` / ``__usad`` compile to VABSDIFF / VABSDIFF.U32 d, a, b, c = |a - b| + c."""
    src = r"""
    __global__ void sad(const int *a, const int *b, unsigned *out) {
        int t = threadIdx.x;
        out[t] = __sad(a[t], b[t], (unsigned)t * 1000u);
        out[32 + t] = __usad((unsigned)a[t], (unsigned)b[t], 0xfffffff0u + t);
    }"""
    rng = np.random.default_rng(11)
    a = rng.integers(-2**31, 2**31, 32).astype(np.int32)
    b = rng.integers(-2**31, 2**31, 32).astype(np.int32)
    a[:3], b[:3] = [-2**31, 5, 2**31 - 1], [2**31 - 1, -5, -2**31]
    r = emulate(src, a=a, b=b)
    out = r.buffers["out"][:256].view(np.uint32)
    x, y, t = a.astype(np.int64), b.astype(np.int64), np.arange(32, dtype=np.int64)
    np.testing.assert_array_equal(out[:32], ((np.abs(x - y) + t * 1000) & 0xFFFFFFFF).astype(np.uint32))
    ux, uy = x & 0xFFFFFFFF, y & 0xFFFFFFFF
    np.testing.assert_array_equal(out[32:], ((np.abs(ux - uy) + 0xFFFFFFF0 + t) & 0xFFFFFFFF).astype(np.uint32))


def test_simd_video_intrinsics_work_per_byte_and_per_halfword():
    """VABSDIFF4.U8 (``__vabsdiffu4``), VABSDIFF4.U8.ACC (``__vsadu4``), VIADD.16x2 with a
    negated operand (``__vsub2``, each half negated) and VIMNMX.S16x2 / .U16x2 (``__vmins2``...)."""
    src = r"""
    __global__ void video(const unsigned *a, const unsigned *b, unsigned *out) {
        int t = threadIdx.x;
        unsigned x = a[t], y = b[t];
        out[t] = __vabsdiffu4(x, y);
        out[32 + t] = __vsadu4(x, y) + t;
        out[64 + t] = __vadd2(x, y);
        out[96 + t] = __vsub2(x, y);
        out[128 + t] = __vmins2(x, y);
        out[160 + t] = __vmaxu2(x, y);
    }"""
    rng = np.random.default_rng(12)
    a = rng.integers(0, 2**32, 32, dtype=np.uint64).astype(np.uint32)
    b = rng.integers(0, 2**32, 32, dtype=np.uint64).astype(np.uint32)
    b[:2] = [0x00010000, 0x80007FFF]
    r = emulate(src, a=a, b=b)
    out = r.buffers["out"][:192 * 4].view(np.uint32)
    pa, pb = a.view(np.uint8).reshape(32, 4).astype(np.int64), b.view(np.uint8).reshape(32, 4).astype(np.int64)
    d = np.abs(pa - pb)
    np.testing.assert_array_equal(out[:32], d.astype(np.uint8).reshape(-1).view(np.uint32))
    np.testing.assert_array_equal(out[32:64], d.sum(axis=1) + np.arange(32))
    ha, hb = a.view(np.uint16).reshape(32, 2), b.view(np.uint16).reshape(32, 2)
    np.testing.assert_array_equal(out[64:96], (ha + hb).astype(np.uint16).reshape(-1).view(np.uint32))
    np.testing.assert_array_equal(out[96:128], (ha - hb).astype(np.uint16).reshape(-1).view(np.uint32))
    np.testing.assert_array_equal(out[128:160], np.minimum(ha.view(np.int16), hb.view(np.int16)).reshape(-1).view(np.uint32))
    np.testing.assert_array_equal(out[160:192], np.maximum(ha, hb).reshape(-1).view(np.uint32))


def test_a_reduction_with_no_operation_named_is_the_and():
    """``__reduce_and_sync`` disassembles as ``REDUX UR, R`` (the AND, encoded 0, prints no suffix)."""
    src = r"""
    __global__ void red(const unsigned *a, unsigned *out) {
        int t = threadIdx.x;
        out[t] = __reduce_and_sync(0xffffffffu, a[t]) ^ __reduce_or_sync(0xffffffffu, a[t] & 0xf0u);
    }"""
    a = (np.random.default_rng(13).integers(0, 2**32, 64, dtype=np.uint64) | 0x80000101).astype(np.uint32)
    r = emulate(src, (64, 1, 1), a=a)
    out = r.buffers["out"][:256].view(np.uint32)
    for w in range(2):
        v = a[32 * w:32 * w + 32]
        assert (out[32 * w:32 * w + 32] == (np.bitwise_and.reduce(v) ^ np.bitwise_or.reduce(v & 0xF0))).all()


def test_64_bit_division_by_runtime_values_carries_out_of_imad_hi_and_wide():
    """The 64-bit divide subroutine multiplies 64 x 64 bits with IMAD.WIDE.U32 / IMAD.HI.U32 that
    write a carry predicate (``IMAD.HI.U32 R7, P2, R21, R7, R10``) read by a later IADD3.X."""
    src = r"""
    __global__ void div64(const unsigned long long *a, const long long *b, unsigned long long *out) {
        int t = threadIdx.x;
        unsigned long long x = a[t];
        long long y = b[t];
        out[t] = x / (unsigned long long)y;
        out[32 + t] = x % (unsigned long long)y;
        out[64 + t] = (unsigned long long)((long long)x / y);
        out[96 + t] = (unsigned long long)((long long)x % y);
    }"""
    rng = np.random.default_rng(14)
    a = rng.integers(0, 2**64, 32, dtype=np.uint64)
    b = rng.integers(-2**63, 2**63, 32, dtype=np.int64) >> rng.integers(0, 62, 32).astype(np.int64)
    b[b == 0] = 7
    b[:4] = [1 << 24, -1, -26, (1 << 40) + 1]
    r = emulate(src, a=a, b=b)
    out = r.buffers["out"][:128 * 8].view(np.uint64)
    M = 2**64
    for t in range(32):
        x, y = int(a[t]), int(b[t])
        sx = x - M if x >> 63 else x
        q = abs(sx) // abs(y) * (1 if (sx < 0) == (y < 0) else -1)
        assert [int(out[t]), int(out[32 + t]), int(out[64 + t]), int(out[96 + t])] == \
            [x // (y % M), x % (y % M), q % M, (sx - q * y) % M], t


def test_match_all_on_masks_that_differ_between_lanes():
    """``__match_all_sync`` with a per-lane mask in a divergent branch: ``R2UR P1, URZ, R`` (P1:
    the lanes whose mask differs from the first lane's), ``@!P1 BRA.DIV`` taken by the whole
    group, a WARPSYNC.COLLECTIVE loop issuing MATCH.ALL once per mask (``MATCH.ALL P0, R7, R8``)
    whose result covers only the lanes of that mask."""
    src = r"""
    __global__ void mall(const int *a, int *out) {
        int t = threadIdx.x, lane = t & 31;
        int v = a[t], d = -1;
        if (v % 3 != 0) {
            unsigned m = __activemask();
            int pred, g = a[t & ~7] + (((lane >> 3) & 1) ? (lane & 1) : 0);
            unsigned mm = __match_all_sync(m & (0xffu << (lane & 24)), g, &pred);
            d = (int)mm ^ (pred << 31);
        }
        out[t] = d;
    }"""
    a = np.random.default_rng(15).integers(0, 1000, 64).astype(np.int32)
    r = emulate(src, (64, 1, 1), a=a)
    out = r.buffers["out"][:256].view(np.uint32)
    for w in range(2):
        v = a[32 * w:32 * w + 32]
        act = v % 3 != 0
        m = sum(1 << ln for ln in range(32) if act[ln])
        for ln in range(32):
            if not act[ln]:
                assert out[32 * w + ln] == 0xFFFFFFFF
                continue
            mask = m & (0xFF << (ln & 24))
            g = [int(v[k & ~7]) + ((k & 1) if (k >> 3) & 1 else 0) for k in range(32) if mask >> k & 1]
            want = (mask | 1 << 31) if len(set(g)) == 1 else 0
            assert out[32 * w + ln] == want, (w, ln)


# ---- rounding, conversions and signed zeros as the H100 computes them ------------------------
def _round_frac(q: Fraction, dtype, mode: str) -> float:
    """The exact value q rounded to dtype in mode (the reference: rational arithmetic)."""
    with np.errstate(over="ignore"):
        return _round_frac_(q, dtype, mode)


def _round_frac_(q: Fraction, dtype, mode: str) -> float:
    near = np.float64(float(q))  # float(q) is RN
    if dtype is not np.float64:
        with np.errstate(over="ignore"):
            near = np.asarray(float(q)).astype(dtype)[()]
        # float(q) rounded to double first: fix the double rounding by comparing exactly
        if np.isinf(near):  # past the largest finite value: RN and the mode toward it overflow
            top = np.finfo(dtype).max * np.sign(near)
            return near if mode == "RN" or (mode == "RP") == (q > 0) and mode != "RZ" else dtype(top)
        for cand in (np.nextafter(near, dtype(-np.inf)), np.nextafter(near, dtype(np.inf))):
            if np.isfinite(cand) and abs(Fraction(float(cand)) - q) < abs(Fraction(float(near)) - q):
                near = cand
    fn = Fraction(float(near))
    if mode == "RN" or fn == q:
        return near
    if mode == "RZ":
        return np.nextafter(near, dtype(0)) if abs(fn) > abs(q) else near
    if mode == "RM":
        return np.nextafter(near, dtype(-np.inf)) if fn > q else near
    return np.nextafter(near, dtype(np.inf)) if fn < q else near


DIRECTED_F32 = r"""
__global__ void directed_f32(const float *a, const float *b, const float *c, float *out) {
    int t = threadIdx.x;
    float x = a[t], y = b[t], z = c[t];
    out[t] = __fadd_ru(x, y);
    out[32 + t] = __fadd_rd(x, y);
    out[64 + t] = __fadd_rz(x, y);
    out[96 + t] = __fmaf_rn(x, y, z);
    out[128 + t] = __fmaf_ru(x, y, z);
    out[160 + t] = __fmaf_rz(x, y, z);
}
"""


def test_directed_float_rounding_of_sums_far_apart_in_magnitude():
    """__fadd_ru(1, 1e-20) is the float after 1: the sum is carried exactly (two-sum) and rounded
    once, not first to double (where the small addend vanishes and no step is made)."""
    rng = np.random.default_rng(11)
    a = rng.normal(0, 4, 32).astype(np.float32)
    b = (rng.normal(0, 1, 32) * 10.0 ** rng.integers(-30, -8, 32)).astype(np.float32)
    c = (rng.normal(0, 1, 32) * 10.0 ** rng.integers(-30, 2, 32)).astype(np.float32)
    a[:4], b[:4] = [1, -1, 3, -3], [1e-20, 1e-20, -1e-25, -1e-25]
    r = emulate(DIRECTED_F32, a=a, b=b, c=c)
    out = r.buffers["out"][:6 * 32 * 4].view(np.float32).reshape(6, 32)
    F = Fraction
    for t in range(32):
        s = F(float(a[t])) + F(float(b[t]))
        f = F(float(a[t])) * F(float(b[t])) + F(float(c[t]))
        want = [_round_frac(s, np.float32, "RP"), _round_frac(s, np.float32, "RM"), _round_frac(s, np.float32, "RZ"),
                _round_frac(f, np.float32, "RN"), _round_frac(f, np.float32, "RP"), _round_frac(f, np.float32, "RZ")]
        assert [float(v) for v in out[:, t]] == [float(w) for w in want], t


DIRECTED_F64 = r"""
__global__ void directed_f64(const double *a, const double *b, const double *c, double *out) {
    int t = threadIdx.x;
    double x = a[t], y = b[t], z = c[t];
    out[t] = __fma_rd(x, y, z);
    out[32 + t] = __fma_ru(x, y, z);
    out[64 + t] = __dadd_rz(x, z);
    out[96 + t] = __dmul_ru(x, y);
    out[128 + t] = __dmul_rd(x, y);
    out[160 + t] = fma(x, y, z);
}
"""


def test_double_fma_add_mul_round_once_in_the_named_mode():
    """DFMA.RM/.RP, DADD.RZ, DMUL.RP/.RM: the exact result (product split exactly, sums exact)
    rounded once in the mode; DFMA without a mode rounds the exact a*b+c to nearest."""
    rng = np.random.default_rng(5)
    a, b = rng.normal(0, 3, 32), rng.normal(0, 3, 32)
    c = rng.normal(0, 1, 32) * 10.0 ** rng.integers(-20, 1, 32)
    r = emulate(DIRECTED_F64, a=a, b=b, c=c)
    out = r.buffers["out"][:6 * 32 * 8].view(np.float64).reshape(6, 32)
    F = Fraction
    for t in range(32):
        x, y, z = F(float(a[t])), F(float(b[t])), F(float(c[t]))
        want = [_round_frac(x * y + z, np.float64, "RM"), _round_frac(x * y + z, np.float64, "RP"),
                _round_frac(x + z, np.float64, "RZ"), _round_frac(x * y, np.float64, "RP"),
                _round_frac(x * y, np.float64, "RM"), _round_frac(x * y + z, np.float64, "RN")]
        assert [float(v) for v in out[:, t]] == [float(w) for w in want], t


def test_double_division_by_an_immediate_reads_its_high_word():
    """``x / 3.0`` starts with ``MUFU.RCP64H R, 3``: the immediate is the double 3.0, whose high word
    0x40080000 the approximation reads (not the float 3.0's bits); the quotient is correctly rounded."""
    src = r"""
    __global__ void div3(const double *a, double *out) {
        int t = threadIdx.x;
        out[t] = a[t] / 3.0;
        out[32 + t] = (double)(float)(a[t] / 7.0);
    }"""
    a = np.random.default_rng(9).normal(0, 5, 32)
    r = emulate(src, a=a)
    out = r.buffers["out"][:64 * 8].view(np.float64)
    np.testing.assert_array_equal(out[:32], a / 3.0)
    np.testing.assert_array_equal(out[32:], (a / 7.0).astype(np.float32).astype(np.float64))


INT64_CONV = r"""
__global__ void conv64(const unsigned long long *u, const long long *s, unsigned long long *out) {
    int t = threadIdx.x;
    out[t] = __double_as_longlong(__ull2double_rd(u[t]));
    out[32 + t] = __double_as_longlong(__ull2double_ru(u[t]));
    out[64 + t] = __float_as_uint(__ll2float_rz(s[t]));
    out[96 + t] = __float_as_uint(__ull2float_rn(u[t]));
    out[128 + t] = __float2ull_ru(__ull2float_rn(u[t]) * 2.5f);
    out[160 + t] = (unsigned long long)__double2ll_rd((double)s[t] * 1e10);
    out[192 + t] = __double2ull_rz(-(double)u[t]);
}
"""


def test_64_bit_integer_conversions_round_once_and_saturate():
    """I2F from 64-bit integers rounds the integer itself in the mode (not a double's rounding of
    it); F2I to 64 bits saturates to the largest value (not a wrapped 2^64) and clamps below."""
    rng = np.random.default_rng(4)
    u = rng.integers(0, 2**64 - 1, 32, dtype=np.uint64, endpoint=True)
    s = rng.integers(-2**63, 2**63 - 1, 32, dtype=np.int64, endpoint=True)
    u[:3] = [2**64 - 1, (1 << 63) + 1, (1 << 53) + 1]
    s[:3] = [-2**63, 2**63 - 1, -(1 << 60) - 1]
    r = emulate(INT64_CONV, u=u, s=s)
    out = r.buffers["out"][:7 * 32 * 8].view(np.uint64).reshape(7, 32)
    F = Fraction
    big = 2**64 - 1
    for t in range(32):
        fu, fs = F(int(u[t])), F(int(s[t]))
        f_rn = np.float32(_round_frac(fu, np.float32, "RN"))
        prod = F(float(np.float32(f_rn * np.float32(2.5))))
        ll = F(float(s[t]) * 1e10)
        want = [np.float64(_round_frac(fu, np.float64, "RM")).view(np.uint64),
                np.float64(_round_frac(fu, np.float64, "RP")).view(np.uint64),
                int(np.float32(_round_frac(fs, np.float32, "RZ")).view(np.uint32)),
                int(f_rn.view(np.uint32)),
                min(big, -(-prod.numerator // prod.denominator)),
                max(-2**63, min(2**63 - 1, ll.numerator // ll.denominator)) % 2**64,
                0]
        assert [int(v) for v in out[:, t]] == [int(w) for w in want], t


HALF_CONV = r"""
#include <cuda_fp16.h>
#include <cuda_bf16.h>
__global__ void half_conv(const float *a, float *out, unsigned short *bits) {
    int t = threadIdx.x;
    float x = a[t];
    bits[t] = __half_as_ushort(__float2half_rd(x));
    bits[32 + t] = __half_as_ushort(__float2half_ru(x));
    bits[64 + t] = __half_as_ushort(__float2half_rz(x));
    bits[96 + t] = __bfloat16_as_ushort(__float2bfloat16_rz(x));
    bits[128 + t] = __bfloat16_as_ushort(__float2bfloat16_rd(x));
    bits[160 + t] = __bfloat16_as_ushort(__float2bfloat16_ru(x));
    out[t] = (float)__half2int_rn(__float2half_rn(x * 0.01f)) + 1000.0f * (float)__half2int_rz(__float2half_rn(x * 0.01f));
}
"""


def test_half_and_bfloat16_conversions_in_every_rounding_mode():
    """F2F.F16.F32.RM/.RP, F2FP.F16.F32.PACK_AB.RZ, F2FP.BF16.F32.PACK_AB.RZ and the bfloat16
    directed modes round in their mode (overflow: RZ and the mode toward zero give the largest
    finite); F2I.F16 reads a half."""
    rng = np.random.default_rng(8)
    a = (rng.normal(0, 1, 32) * 10.0 ** rng.integers(-6, 6, 32)).astype(np.float32)
    a[:4] = [1e6, -1e6, 65519.0, -3.0e-8]
    r = emulate(HALF_CONV, a=a)
    bits = r.buffers["bits"][:6 * 32 * 2].view(np.uint16).reshape(6, 32)
    F = Fraction

    def bf16(q, mode):  # bfloat16 values are the float32s with 16 low zero bits
        v = np.float32(_round_frac(q, np.float32, "RZ")).view(np.uint32)
        lo = int(v) >> 16 << 16
        lo_v = F(float(np.uint32(lo).view(np.float32)))
        if lo_v == q:
            return lo >> 16
        up = (lo >> 16) + 1  # one step away from zero
        if mode == "RZ" or (mode == "RM") == (q > 0):
            return lo >> 16
        return up

    for t in range(32):
        q = F(float(a[t]))
        want = [np.float16(_round_frac(q, np.float16, m)).view(np.uint16) for m in ("RM", "RP", "RZ")]
        want += [bf16(q, m) for m in ("RZ", "RM", "RP")]
        assert [int(v) for v in bits[:, t]] == [int(w) for w in want], t
    h = (a * np.float32(0.01)).astype(np.float16).astype(np.float64)
    want = np.rint(h) + 1000 * np.trunc(h)
    np.testing.assert_array_equal(r.buffers["out"][:128].view(np.float32), want.astype(np.float32))


def test_half_fma_rounds_once_and_max_prefers_plus_zero():
    """HFMA2 rounds a*b+c once to half (through float32 it rounds twice: 2050 + (1+2^-10)(1-2^-10)
    is 2050, not 2052); HMNMX2's max of -0 and +0 is +0, its min -0 (as the H100 left them)."""
    src = r"""
    #include <cuda_fp16.h>
    __global__ void hf(const __half2 *a, const __half2 *b, const __half2 *c, float *out) {
        int t = threadIdx.x;
        __half2 r = __hfma2(a[t], b[t], c[t]);
        __half2 m = __hmax2(a[t], b[t]), n = __hmin2(a[t], b[t]);
        out[t] = __low2float(r);
        out[32 + t] = __high2float(r);
        out[64 + t] = __low2float(m);
        out[96 + t] = __low2float(n);
    }"""
    a = np.array([[1 + 2**-10, -0.0]] * 32, np.float16)
    b = np.array([[1 - 2**-10, 0.0]] * 32, np.float16)
    c = np.array([[2050.0, 1.0]] * 32, np.float16)
    a[1::2, 0], b[1::2, 0] = 0.0, -0.0
    r = emulate(src, a=a, b=b, c=c)
    out = r.buffers["out"][:128 * 4].view(np.float32).reshape(4, 32)
    assert (out[0, ::2] == 2050).all() and (out[1] == 1).all()
    assert (out[2, 1::2] == 0).all() and not np.signbit(out[2, 1::2]).any()  # max(+0, -0) = +0
    assert np.signbit(out[3, 1::2]).all()  # min = -0


def test_global_store_of_lanes_on_one_address_keeps_the_lowest_lane():
    """Lanes of one STG on the same bytes: the H100 kept the lowest lane's value (extra18's
    transpose_int2_1024_threads: lanes 2m and 2m+1 storing one int2, 2,048 slots, every one the
    even lane's), where a numpy assignment keeps the last."""
    src = r"""
    __global__ void dup_store(const int *a, int2 *out) {
        int t = threadIdx.x;
        out[t / 2] = make_int2(a[t], t);
    }"""
    a = np.arange(100, 132, dtype=np.int32)
    r = emulate(src, a=a)
    got = r.buffers["out"][:16 * 8].view(np.int32).reshape(16, 2)
    np.testing.assert_array_equal(got, np.stack([a[::2], np.arange(0, 32, 2)], 1))


ORDER_FREE_ATOMICS = r"""
__global__ void order_free(const int *in, int *out) {
    __shared__ int h[8];
    __shared__ unsigned m[8];
    __shared__ int x[8];
    __shared__ int tab[300];
    int t = threadIdx.x;
    if (t < 8) { h[t] = 0; m[t] = 0; x[t] = -1; }
    for (int i = t; i < 300; i += 256) tab[i] = 3 * i;
    __syncthreads();
    atomicAdd(&h[in[t] & 7], 1);                                          // 8 warps, one word: any order
    atomicMax(&m[t & 7], (unsigned)in[t]);
    if (MODE == 2 && t == 40) h[3] = 100;                                 // a store racing the adds
    __syncthreads();
    out[t] = tab[h[t & 7]];                                               // counts as addresses
    out[256 + t] = (int)m[t & 7] + x[t & 7];
}
"""


@pytest.mark.parametrize("mode", [0, 2])
def test_order_free_atomics_of_several_warps_are_not_timing(mode):
    """Integer atomic adds (and max) of 8 warps on one word: the counts after the barrier are the
    same in any order, so neither the addresses made of them nor the buffer depend on timing; a
    plain store from another warp between the adds still makes them timing's."""
    from bankexplorer.sass.launch import LaunchConfig
    from bankexplorer.kernels.cuda_source import emulate as run

    data = np.random.default_rng(5).integers(0, 1000, 256).astype(np.int32)
    r = run(ORDER_FREE_ATOMICS.replace("MODE", str(mode)), LaunchConfig((256, 1, 1), arrays={"in": data.tobytes()}))
    out = r.buffers["out"][:2048].view(np.int32)
    h = np.bincount(data & 7, minlength=8)
    m = np.array([data[k::8].max() for k in range(8)])
    if mode == 0:
        assert not r.timing_dependent and not any(v.any() for v in r.timing_bytes.values())
        assert (out[:256] == 3 * h[np.arange(256) & 7]).all()
        assert (out[256:512] == m[np.arange(256) & 7] - 1).all()
    else:  # the store among the adds: the counts made addresses depend on timing
        assert r.timing_dependent


def test_a_min_or_max_of_three_works_per_halfword():
    """VIMNMX3.S16x2 / .U16x2 (the max or min of three operands per 16-bit half, as CUB's ``short``
    reductions compile): each half on its own, signed unless U16x2 (extra20's short reduction and
    scan: one 32-bit max gave 97 for the GPU's 99)."""
    src = r"""
    __global__ void three(const unsigned *a, const unsigned *b, const unsigned *c, unsigned *out) {
        int t = threadIdx.x;
        unsigned x = a[t], y = b[t], z = c[t];
        out[t] = __vmaxs2(__vmaxs2(x, y), z);
        out[32 + t] = __vminu2(__vminu2(x, y), z);
        out[64 + t] = __vmins2(__vmins2(x, y), z);
    }"""
    from bankexplorer.kernels.cuda_source import compile_text as build

    assert "VIMNMX3.S16x2" in build(src).sass
    rng = np.random.default_rng(14)
    a, b, c = (rng.integers(0, 2**32, 32, dtype=np.uint64).astype(np.uint32) for _ in range(3))
    a[:2], b[:2], c[:2] = [0x00017FFF, 0x8000FFFF], [0xFFFF0000, 0x7FFF8000], [0x00020001, 0x00000001]
    out = emulate(src, a=a, b=b, c=c).buffers["out"][:96 * 4].view(np.uint32)
    h = [v.view(np.uint16).reshape(32, 2) for v in (a, b, c)]
    s = [v.view(np.int16) for v in h]
    np.testing.assert_array_equal(out[:32], np.maximum(np.maximum(s[0], s[1]), s[2]).reshape(-1).view(np.uint32))
    np.testing.assert_array_equal(out[32:64], np.minimum(np.minimum(h[0], h[1]), h[2]).reshape(-1).view(np.uint32))
    np.testing.assert_array_equal(out[64:96], np.minimum(np.minimum(s[0], s[1]), s[2]).reshape(-1).view(np.uint32))


def test_a_zero_or_denormal_dividend_takes_the_division_slow_path():
    """FCHK is true for a zero (or denormal) dividend: the H100 called the float division's slow
    path for ``0 / b`` (extra20's cyclic reduction: exactly the threads whose c[i] was 0, every
    step), so the CALL counts those threads; normal dividends stay on the fast path."""
    src = r"""
    __global__ void quot(const float *a, const float *b, float *out) {
        int t = threadIdx.x;
        out[t] = a[t] / b[t];
    }"""
    a = np.linspace(0.5, 20.0, 32).astype(np.float32)
    a[[3, 17]] = 0.0
    a[9] = np.float32(1e-40)  # denormal
    b = np.full(32, 3.0, np.float32)
    r = emulate(src, a=a, b=b)
    np.testing.assert_array_equal(r.buffers["out"][:128].view(np.float32), a / b)
    calls = [row for row in r.rows if row.sass.startswith("CALL")]
    assert calls and calls[0].threads == 3


def test_dpx_add_min_max_and_relu_forms_work_per_halfword():
    """Hopper's DPX instructions: VIADDMNMX.S16x2 / .U16x2 (``__viaddmax_s16x2``: the sums wrap in
    16 bits, then the max or min with c per half) and the ``.RELU`` forms of VIMNMX, VIMNMX3 and
    VIADDMNMX (a negative result becomes 0), besides their 32-bit forms."""
    src = r"""
    __global__ void dpx(const unsigned *a, const unsigned *b, const unsigned *c, unsigned *out) {
        int t = threadIdx.x;
        unsigned x = a[t], y = b[t], z = c[t];
        out[t] = __viaddmax_s16x2(x, y, z);
        out[32 + t] = __viaddmin_u16x2(x, y, z);
        out[64 + t] = __viaddmax_s32((int)x, (int)y, (int)z);
        out[96 + t] = __vimax3_s16x2_relu(x, y, z);
        out[128 + t] = __vimax_s16x2_relu(x, y);
        out[160 + t] = __vimax3_u32(x, y, z);
        out[192 + t] = (unsigned)__vimin3_s32((int)x, (int)y, (int)z);
        out[224 + t] = (unsigned)__vimax_s32_relu((int)x, (int)y);
        out[256 + t] = (unsigned)__viaddmax_s32_relu((int)x, (int)y, (int)z);
    }"""
    rng = np.random.default_rng(3)
    a, b, c = (rng.integers(0, 2**32, 32, dtype=np.uint64).astype(np.uint32) for _ in range(3))
    out = emulate(src, a=a, b=b, c=c).buffers["out"][:288 * 4].view(np.uint32)

    def s16(v):
        return v.view(np.int16).reshape(32, 2).astype(np.int64)

    def u16(v):
        return v.view(np.uint16).reshape(32, 2).astype(np.int64)

    def join(x):
        return (np.asarray(x) & 0xFFFF).astype(np.uint16).reshape(-1).view(np.uint32)

    def word(x):
        return (np.asarray(x) & 0xFFFFFFFF).astype(np.uint32)

    i32 = [v.view(np.int32).astype(np.int64) for v in (a, b, c)]
    wrap32 = (i32[0] + i32[1] + 2**31) % 2**32 - 2**31
    want = [join(np.maximum((s16(a) + s16(b) + 0x8000) % 0x10000 - 0x8000, s16(c))),
            join(np.minimum((u16(a) + u16(b)) % 0x10000, u16(c))),
            word(np.maximum(wrap32, i32[2])),
            join(np.maximum(np.maximum(np.maximum(s16(a), s16(b)), s16(c)), 0)),
            join(np.maximum(np.maximum(s16(a), s16(b)), 0)),
            np.maximum(np.maximum(a, b), c),
            word(np.minimum(np.minimum(i32[0], i32[1]), i32[2])),
            word(np.maximum(np.maximum(i32[0], i32[1]), 0)),
            word(np.maximum(np.maximum(wrap32, i32[2]), 0))]
    for k, w in enumerate(want):
        np.testing.assert_array_equal(out[32 * k:32 * k + 32], w, err_msg=f"form {k}")


def test_warps_storing_the_same_byte_do_not_race():
    """Several warps storing the value a byte already holds from another warp (a BFS marking its
    next frontier with 1s): the byte ends the same in any order, so nothing depends on timing;
    different values do, also when the warps issue the one store together (then too the GPU runs
    them in some order)."""
    src = r"""
    __global__ void flags(const int *nb, int *out) {
        __shared__ unsigned char f[64];
        __shared__ int g[64];
        int t = threadIdx.x;
        if (t < 64) { f[t] = 0; g[t] = 0; }
        __syncthreads();
        f[nb[t]] = 1;
        if (%s) g[nb[t]] = t;
        __syncthreads();
        if (t < 64) out[t] = f[t] + 256 * g[t];
    }"""
    nb = (np.arange(256) * 7 % 64).astype(np.int32)
    same = emulate(src % "false", (256, 1, 1), nb=nb)
    assert not same.timing_dependent and not same.timing_bytes
    assert (same.buffers["out"][:256].view(np.int32) == 1).all()  # g stays 0
    differ = emulate(src % "true", (256, 1, 1), nb=nb)
    assert differ.timing_bytes["out"][:256].all()  # one store instruction of several warps: timing decides


def test_a_long_loop_of_one_thread_is_not_a_spin_wait():
    """One thread's long loop (past the starvation limit) while the rest of its warp only waits at
    the barrier counts the same in any order (extra20's Robin Hood build was said to depend on the
    scheduling); a thread that spins until another lane of its warp stores a flag still does."""
    long_loop = r"""
    __global__ void build(const int *a, int *out) {
        __shared__ int s[256];
        int t = threadIdx.x;
        s[t] = a[t];
        __syncthreads();
        if (t == 0) {
            int x = 0;
            for (int i = 0; i < 6000; ++i) { x += s[(x + i) & 255]; s[i & 255] = x & 1023; }
            out[32] = x;
        }
        __syncthreads();
        out[t & 31] = s[t & 255];
    }"""
    r = emulate(long_loop, (64, 1, 1), a=np.arange(256, dtype=np.int32))
    assert r.warp_instructions > 20_000 and not r.timing_dependent
    spin = r"""
    __global__ void spin(int *out) {
        __shared__ volatile int flag;
        int t = threadIdx.x;
        if (t == 0) flag = 0;
        __syncwarp();
        if (t == 0) { while (flag == 0) {} out[0] = 1; }
        else if (t == 1) { for (int i = 0; i < 3; ++i) out[1 + i] = i; flag = 1; }
    }"""
    assert emulate(spin).timing_dependent
