"""The held-out wgmma family (resources/hardware/kernels/triton/heldout, drawn by
scripts/make_wgmma_family.py before it was measured): 12 Triton 3.6 kernels measured on an H200
that the HGMMA wavefront rule was not written from (bf16, K-major B and M-major A, A in registers,
two warpgroups splitting N) and tl.sort, tl.gather and an attention forward.

Every SASS instruction's counts must equal Nsight's source page and the arrays the GPU's, from the
GPU's cache entries and (with Triton installed) from the source compiled here.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest

from bankexplorer.cuda.kernels import compare_sass
from bankexplorer.kernels import triton_launch as T
from bankexplorer.kernels.triton_source import available
from bankexplorer.sass.run import execute

HERE = Path(__file__).resolve().parent.parent / "resources" / "hardware" / "kernels" / "triton" / "heldout"
CASES = json.loads((HERE / "cases.json").read_text())
MEASURED = json.loads((HERE / "persass.json").read_text())
needs_triton = pytest.mark.skipif(not available(),
                                  reason="Triton is not installed (pip install 'bankexplorer[triton]')")
HGMMA = re.compile(r"HGMMA\.64x(\d+)x(\d+)\.F32(\.BF16|\.TF32)?\s+R\d+,\s+(R\d+,\s+)?gdesc")


def _inputs(case: str) -> dict[str, np.ndarray]:
    return {n: np.load(HERE / f"{case}.{n}.npy") for n in CASES[case]["arrays"]}


def _entry(case: str) -> str:
    return str(HERE / "measured" / case / f"{CASES[case]['kernel']}.cubin")


def _check(case: str, launch: T.TritonLaunch) -> None:
    run = execute(launch.kernel, launch.cfg)
    cmp = compare_sass(MEASURED[case]["sass"], [r.to_json() for r in run.rows])
    assert cmp.same_code, f"{case}: not the code the GPU ran"
    assert not cmp.differences, f"{case}:\n" + "\n".join(cmp.differences)
    assert cmp.predicted_totals["wavefronts"] == MEASURED[case]["shared_wavefronts"]
    for name, a in _inputs(case).items():
        after = np.load(HERE / "measured" / case / f"after.{name}.npy")
        got = np.frombuffer(run.buffers[name][:a.nbytes].tobytes(), a.dtype).reshape(a.shape)
        # exact but for float rounding (MUFU's exp2 and the order of an attention's sums): 2e-6 at most
        np.testing.assert_allclose(got.astype(np.float64), after.astype(np.float64), rtol=1e-5, atol=1e-5,
                                   err_msg=f"{case}: {name} after the run")


def test_the_family_is_what_the_script_draws(tmp_path):
    """The cases and inputs are the seeded draw of scripts/make_wgmma_family.py, byte for byte."""
    import importlib.util

    script = HERE.parents[4] / "scripts" / "make_wgmma_family.py"
    spec = importlib.util.spec_from_file_location("make_wgmma_family", script)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    mod.main(["--out", str(tmp_path)])
    assert (tmp_path / "cases.json").read_text() == (HERE / "cases.json").read_text()
    for f in tmp_path.glob("*.npy"):
        assert f.read_bytes() == (HERE / f.name).read_bytes(), f.name
    assert all(c["held_out"] for c in CASES.values()) and set(MEASURED) == set(CASES)


@pytest.mark.parametrize("case", sorted(CASES))
def test_cache_entry_matches_the_gpu(case):
    _check(case, T.from_entry(_entry(case), _inputs(case), CASES[case]["defines"], python_lines=False))


@needs_triton
@pytest.mark.parametrize("case", sorted(CASES))
def test_source_compiled_here_counts_as_the_gpu(case):
    spec = CASES[case]
    _check(case, T.from_source(str(HERE / spec["file"]), spec["kernel"], _inputs(case), spec["defines"],
                               python_lines=False))


def test_hgmma_rule_held_out_score():
    """The rule written from the 14 wgmma kernels, scored on every HGMMA of this family: one wavefront
    per 128 bytes of the operands it reads through descriptors (A only when it is not in registers),
    per warpgroup."""
    rows = [row for rec in MEASURED.values() for row in rec["sass"] if HGMMA.search(row["sass"])]
    kinds = set()
    for row in rows:
        m = HGMMA.search(row["sass"])
        n, k = int(m.group(1)), int(m.group(2))
        e = 4 if m.group(3) == ".TF32" else 2
        a_in_registers = m.group(4) is not None
        kinds.add((a_in_registers, ".tnspA" in row["sass"], ".tnspB" in row["sass"]))
        groups = row["executed"] // 4
        assert row["wavefronts"] == groups * ((0 if a_in_registers else 64 * k * e) + n * k * e) // 128, row["sass"]
    assert len(rows) == 36 and kinds == {(True, False, True), (True, False, False), (False, False, True),
                                         (False, True, True), (False, False, False)}
