"""Whole kernels with the compiled hot paths (``sass/_shared.c``, ``sass/_alu.c``) and without:
the same run, field by field (rows, notes, recorded accesses with their taint, buffers, the bytes
whose value timing decided). The kernels are chosen for what the compiled code decides: warps
racing on shared words in a loop (timing taint), CUB's sort (data taint, 2-byte and 16-byte
accesses, the switch to byte stamps), order-free atomics from several warps, and the as-written
build of a bundled example (generic accesses that land in shared memory).
``scripts/compare_compiled.py`` runs every measured kernel so.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from bankexplorer.compiler import nvrtc
from bankexplorer.sass import compiled

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))

import compare_compiled  # noqa: E402  (scripts/compare_compiled.py)

pytestmark = [pytest.mark.skipif(not nvrtc.available(), reason="NVRTC / nvdisasm not installed"),
              pytest.mark.skipif(compiled.shared is None or compiled.alu is None,
                                 reason="the compiled modules were not built")]

KERNELS = ROOT / "resources" / "hardware" / "kernels"
CASES = [
    ("racing loop", ROOT / "scripts" / "bench_loops" / "shared_loop.cu", (256, 1, 1), {"n": 40}, False),
    ("CUB sort", ROOT / "scripts" / "bench_loops" / "cub_sort_passes.cu", (256, 1, 1), {"passes": 2}, False),
    ("order-free atomics", KERNELS / "extra11" / "byte_histogram.cu", None, {}, False),
    ("contended atomics", KERNELS / "extra12" / "cuckoo_hash_two_tables.cu", None, {}, False),
    ("as written", ROOT / "resources" / "examples" / "cuda" / "13_gemm_tile_as_compiled.cu", None, {}, True),
]


@pytest.mark.parametrize("what, path, block, scalars, written", CASES, ids=[c[0] for c in CASES])
def test_compiled_and_numpy_runs_are_the_same(what, path, block, scalars, written):
    from bankexplorer.kernels.cuda_source import compile_text

    if block is None and path.parent.name.startswith("extra"):
        block = tuple(compare_compiled.kernel_manifest.discover()[f"{path.parent.name}/{path.stem}"][1]["block"])
    build = compile_text(path.read_text(), "sm_90", scalars, str(path), optimize=not written)
    fast = compare_compiled.outcome(what, path, block, scalars, written, build)
    with compiled.off():
        slow = compare_compiled.outcome(what, path, block, scalars, written, build)
    assert "error" not in fast, fast.get("error")
    assert fast["access addr"], "the kernel accessed shared memory"
    assert [f for f in set(fast) | set(slow) if fast.get(f) != slow.get(f)] == []


def test_the_integer_forms_run_in_traces(monkeypatch):
    """CUB's sort runs most of its integer instructions through the compiled forms, stretches of
    several in one call (``sass/alu_forms.py``): the path the comparison above holds to numpy's."""
    from bankexplorer.kernels.cuda_source import compile_text
    from bankexplorer.sass import alu_forms

    path, block, scalars = CASES[1][1], CASES[1][2], CASES[1][3]
    taken: list[int] = []
    real = alu_forms.run

    def run(trace, b, S):
        taken.append(trace.m)
        return real(trace, b, S)

    monkeypatch.setattr(alu_forms, "run", run)
    build = compile_text(path.read_text(), "sm_90", scalars, str(path))
    out = compare_compiled.outcome("CUB sort", path, block, scalars, False, build)
    assert "error" not in out, out.get("error")
    assert max(taken) >= 4 and sum(m for m in taken if m > 1) > 0.6 * sum(taken)
