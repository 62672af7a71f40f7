"""The held-out wgmma family (resources/hardware/kernels/triton/heldout, drawn by
scripts/make_wgmma_family.py before it was measured): 12 Triton 3.6 kernels measured on an H200
that the HGMMA wavefront rule was not written from (bf16, K-major B and M-major A, A in registers,
two warpgroups splitting N) and tl.sort, tl.gather and an attention forward.

Every SASS instruction's counts must equal Nsight's source page and the arrays the GPU's, from the
GPU's cache entries and (with Triton installed) from the source compiled here.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from bankexplorer.kernels import triton_launch as T

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the sibling module's helpers
from test_triton import HERE as TRITON, _check, _entry, _family, _inputs, needs_triton  # noqa: E402

HERE = TRITON / "heldout"
CASES, MEASURED = _family(HERE)
HGMMA = re.compile(r"HGMMA\.64x(\d+)x(\d+)\.F32(\.BF16|\.TF32)?\s+R\d+,\s+(R\d+,\s+)?gdesc")


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
    launch = T.from_entry(_entry(case, HERE), _inputs(case, HERE), CASES[case]["defines"], python_lines=False)
    _check(case, launch, HERE)


@needs_triton
@pytest.mark.parametrize("case", sorted(CASES))
def test_source_compiled_here_counts_as_the_gpu(case):
    spec = CASES[case]
    launch = T.from_source(str(HERE / spec["file"]), spec["kernel"], _inputs(case, HERE), spec["defines"],
                           python_lines=False)
    _check(case, launch, HERE)


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
