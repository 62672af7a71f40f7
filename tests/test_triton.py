"""Triton kernels, from the GPU's cache entries and from their source compiled here, against Nsight
Compute's source page (resources/hardware/kernels/triton: 28 Triton 3.6 kernels measured on an H200).

Every SASS instruction's executed warp instructions, threads, predicated-on threads, shared
wavefronts and ideal must equal the measurement, and the arrays after the run the GPU's. The
source tests need Triton (the optional extra); the cache-entry tests do not.
"""

from __future__ import annotations

import functools
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from bankexplorer.cuda.kernels import compare_sass
from bankexplorer.kernels import triton_launch as T
from bankexplorer.kernels.triton_source import available
from bankexplorer.sass.launch import LaunchError
from bankexplorer.sass.run import execute

ROOT = Path(__file__).resolve().parent.parent
HERE = ROOT / "resources" / "hardware" / "kernels" / "triton"
needs_triton = pytest.mark.skipif(not available(), reason="Triton is not installed (pip install 'bankexplorer[triton]')")


@functools.cache
def _family(folder: Path) -> tuple[dict, dict]:
    """A folder of measured Triton kernels: its cases.json and persass.json (heldout/ has its own)."""
    return json.loads((folder / "cases.json").read_text()), json.loads((folder / "persass.json").read_text())


CASES, MEASURED = _family(HERE)


def _inputs(case: str, folder: Path = HERE) -> dict[str, np.ndarray]:
    return {n: np.load(folder / f"{case}.{n}.npy") for n in _family(folder)[0][case]["arrays"]}


def _entry(case: str, folder: Path = HERE) -> str:
    return str(folder / "measured" / case / f"{_family(folder)[0][case]['kernel']}.cubin")


def _check(case: str, launch: T.TritonLaunch, folder: Path = HERE) -> None:
    measured = _family(folder)[1][case]
    run = execute(launch.kernel, launch.cfg)
    cmp = compare_sass(measured["sass"], [r.to_json() for r in run.rows])
    assert cmp.same_code, f"{case}: not the code the GPU ran"
    assert not cmp.differences, f"{case}:\n" + "\n".join(cmp.differences)
    assert cmp.predicted_totals["wavefronts"] == measured["shared_wavefronts"]
    for name, a in _inputs(case, folder).items():
        after = np.load(folder / "measured" / case / f"after.{name}.npy")
        got = np.frombuffer(run.buffers[name][:a.nbytes].tobytes(), a.dtype).reshape(a.shape)
        np.testing.assert_allclose(got.astype(np.float64), after.astype(np.float64), rtol=1e-5, atol=1e-5,
                                   err_msg=f"{case}: {name} after the run")


@pytest.mark.parametrize("case", sorted(CASES))
def test_cache_entry_matches_the_gpu(case):
    values = CASES[case]["defines"]
    _check(case, T.from_entry(_entry(case), _inputs(case), values, python_lines=False))


@needs_triton
@pytest.mark.parametrize("case", sorted(CASES))
def test_source_compiled_here_is_the_gpus_code_and_counts(case):
    spec = CASES[case]
    launch = T.from_source(str(HERE / spec["file"]), spec["kernel"], _inputs(case), spec["defines"])
    gpu = T.from_entry(_entry(case), {}, {}, python_lines=False).kernel

    def instructions(sass: str) -> list[str]:
        return [re.sub(r"\s+", " ", m) for m in re.findall(r"/\*[0-9a-f]{4,6}\*/\s+([^;]*;)", sass)]

    assert instructions(launch.kernel.sass) == instructions(gpu.sass)
    _check(case, launch)


def test_hgmma_costs_one_wavefront_per_128_bytes_of_its_operands():
    """The measured wgmma family (N 16 to 256, K 16 to 128, fp16 and tf32, 32/64/128-byte swizzles,
    one and two warpgroups): Nsight counts (bytes of A + bytes of B) / 128 per warpgroup, as the
    emulator does."""
    seen = 0
    for case, rec in MEASURED.items():
        for row in rec["sass"]:
            m = re.match(r"HGMMA\.64x(\d+)x(\d+)\.F32(\.TF32)?", row["sass"].strip())
            if not m:
                continue
            n, k = int(m.group(1)), int(m.group(2))
            e = 4 if m.group(3) else 2
            groups = row["executed"] // 4
            assert row["wavefronts"] == groups * (64 * k * e + n * k * e) // 128, (case, row["sass"])
            seen += 1
    assert seen >= 40


@needs_triton
def test_python_lines_put_library_code_on_the_kernels_line():
    """tl.sum's shared-memory code lies in triton/language/standard.py; the report shows it on the
    kernel's line 12 (`tl.store(Y + cols, tl.sum(x, axis=0))`)."""
    case = "colsum_8warps"
    spec = CASES[case]
    launch = T.from_source(str(HERE / spec["file"]), spec["kernel"], _inputs(case), spec["defines"])
    run = execute(launch.kernel, launch.cfg)
    shared = [r for r in run.rows if r.wavefronts is not None and r.executed]
    lines = (HERE / "colsum.py").read_text().splitlines()
    assert {r.line for r in shared} == {12}
    assert "tl.sum(x, axis=0)" in lines[11]
    assert launch.kernel.line_file == "colsum.py"
    assert "standard.py" not in launch.kernel.sass  # every instruction on the kernel's own file


def test_cache_entry_launch_checks():
    case = "colsum_8warps"
    with pytest.raises(LaunchError, match="compiled with num_warps=8"):
        T.from_entry(_entry(case), {}, {"num_warps": 4})
    with pytest.raises(LaunchError, match="divisible by 16"):
        T.from_entry(_entry(case), {}, {"M": 100})
    with pytest.raises(LaunchError, match="is a pointer"):
        T.from_entry(_entry(case), {}, {"X": 3})
    k = T.from_entry(_entry(case), {}, {}).kernel
    assert [p.name for p in k.params] == ["X", "Y", "M", "global_scratch", "profile_scratch"]
    assert k.launch.block.value == (256, 1, 1) and k.launch.extern_bytes.value == 2048


def _cli(*args, env=None):
    e = {**os.environ, "PYTHONPATH": str(ROOT)}
    e.update(env or {})
    return subprocess.run([sys.executable, "-m", "bankexplorer", "import-cuda", *args], capture_output=True, text=True,
                          env=e, cwd=HERE, timeout=300)


def _cli_args(case: str) -> list[str]:
    spec = CASES[case]
    return [*(f"--arg={n}={case}.{n}.npy" for n in spec["arrays"]),
            *(x for k, v in spec["defines"].items() for x in ("-D", f"{k}={v}"))]


@needs_triton
def test_command_line_from_source_and_from_the_cache_entry(tmp_path):
    case = "colsum_8warps"
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    p = _cli("colsum.py", "--kernel", "colsum", *_cli_args(case), "--sass-json", str(a))
    assert p.returncode == 0, p.stderr
    p = _cli(_entry(case), *_cli_args(case), "--sass-json", str(b))
    assert p.returncode == 0, p.stderr
    ra, rb = json.loads(a.read_text())["sass"], json.loads(b.read_text())["sass"]
    assert compare_sass(MEASURED[case]["sass"], ra).differences == []
    assert compare_sass(MEASURED[case]["sass"], rb).differences == []
    report = _cli("colsum.py", "--kernel", "colsum", *_cli_args(case))
    assert report.returncode == 0, report.stderr
    assert "worst conflict: line 12 (960 excess wavefronts" in report.stdout
    assert "block 256x1x1 (num_warps=8)" in report.stdout


def test_command_line_errors():
    p = _cli("colsum.py", *_cli_args("colsum"))
    assert p.returncode == 2 and "--kernel FUNCTION" in p.stderr
    p = _cli(_entry("colsum"), "--block", "64", *_cli_args("colsum"))
    assert p.returncode == 2 and "num_warps" in p.stderr
    p = _cli(_entry("colsum"), *_cli_args("colsum"), "-D", "num_warps=8")
    assert p.returncode == 2 and "compiled with num_warps=4" in p.stderr


@needs_triton
def test_source_errors_name_what_is_wrong():
    p = _cli("colsum.py", "--kernel", "nope", *_cli_args("colsum"))
    assert p.returncode == 2 and "no @triton.jit function named 'nope'" in p.stderr and "colsum" in p.stderr
    p = _cli("colsum.py", "--kernel", "colsum", "--arg=X=colsum.X.npy", "-D", "N=64")
    assert p.returncode == 2 and "no value for" in p.stderr and "Y" in p.stderr


def test_without_triton_one_line_says_how_to_get_it(tmp_path, monkeypatch):
    from bankexplorer.kernels import triton_source

    monkeypatch.setattr(triton_source, "available", lambda: False)
    with pytest.raises(triton_source.TritonUnavailable, match=r"pip install 'bankexplorer\[triton\]'"):
        triton_source.compile_file(str(HERE / "colsum.py"), "colsum", {}, {})


@needs_triton
def test_python_api_reads_like_a_triton_launch():
    import bankexplorer as bx

    sys.path.insert(0, str(HERE))
    try:
        from colsum import colsum
    finally:
        sys.path.remove(str(HERE))
    x = np.load(HERE / "colsum_8warps.X.npy")
    pat = bx.from_triton(colsum, args={"X": x, "Y": np.zeros(64, np.float32), "M": 128}, N=64, BLOCK_M=128,
                         num_warps=8)
    t = bx.analyze(pat).totals
    assert (t["wavefronts"], t["ideal"], pat.block) == (1096, 136, (256, 1, 1))
    entry = bx.from_triton(_entry("colsum_8warps"), args={"X": x}, M=128)
    assert bx.analyze(entry).totals["wavefronts"] == 1096
    with pytest.raises(ValueError, match="function="):
        bx.from_triton(str(HERE / "colsum.py"), args={"X": x})
    with pytest.raises(ValueError, match="num_warps=8"):
        bx.from_triton(_entry("colsum_8warps"), args={"X": x}, num_warps=4)


@needs_triton
def test_unmeasured_kernels_compute_what_numpy_does():
    """An attention forward (HGMMA with A in registers: softmax(Q K^T) V over two K/V blocks),
    tl.sort and a 1-D tl.gather, executed from source: their results are numpy's (the attention and
    tl.sort at these sizes are the held-out family's, whose counts tests/test_triton_heldout.py checks
    against the GPU; the 1-D gather is not measured)."""
    src = str(HERE / "heldout" / "wgmma_heldout.py")
    rng = np.random.default_rng(3)

    def out(launch, name, like):
        run = execute(launch.kernel, launch.cfg)
        return np.frombuffer(run.buffers[name][:like.nbytes].tobytes(), like.dtype).reshape(like.shape), run

    q, k, v = (rng.standard_normal((n, 64)).astype(np.float16) for n in (64, 128, 128))
    o = np.zeros((64, 64), np.float32)
    got, run = out(T.from_source(src, "attn_fwd", {"Q": q, "K": k, "V": v, "O": o},
                                 {"L": 128, "D": 64, "BM": 64, "BN": 64, "num_warps": 4}), "O", o)
    s = q.astype(np.float64) @ k.astype(np.float64).T
    p = np.exp(s - s.max(1, keepdims=True))
    np.testing.assert_allclose(got, (p / p.sum(1, keepdims=True)) @ v.astype(np.float64), atol=2e-3)
    reg_a = [r for r in run.rows if re.match(r"HGMMA\S* R\d+, R\d+, gdesc", r.sass) and r.executed]
    assert reg_a and all(r.wavefronts == r.executed // 4 * 64 * 16 * 2 // 128 for r in reg_a)  # B alone
    x = rng.standard_normal(256).astype(np.float32)
    got, _ = out(T.from_source(src, "sort_k", {"X": x, "Y": np.zeros_like(x)}, {"N": 256, "num_warps": 4}), "Y", x)
    np.testing.assert_array_equal(got, np.sort(x))
    i = rng.integers(0, 256, 256).astype(np.int32)
    gather = str(ROOT / "tests" / "data" / "triton_unmeasured.py")
    got, _ = out(T.from_source(gather, "gather_k", {"X": x, "I": i, "Y": np.zeros_like(x)}, {"N": 256, "num_warps": 4}),
                 "Y", x)
    np.testing.assert_array_equal(got, x[i])
