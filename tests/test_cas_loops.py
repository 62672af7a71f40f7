"""Compare-and-swap loops (float atomicAdd, 64-bit add/and/or/xor): how many times the loop runs and
what its reloads cost, the vectorized engine against the lane-by-lane reference and the GPU."""

import json
from pathlib import Path

import numpy as np

from bankexplorer.model.engine import WarpBatch, analyze_batch
from bankexplorer.model.reference import reference_cas_loop

ROOT = Path(__file__).resolve().parent.parent


def test_engine_matches_the_reference_lane_by_lane():
    rng = np.random.default_rng(7)
    rows = []
    for k in range(400):
        width = 4 if k % 2 else 8
        words = int(rng.choice([1, 2, 4, 32, 64, 512]))
        addr = [int(x) * width for x in rng.integers(0, words, 32)]
        addr = [a if rng.random() > 0.2 else None for a in addr]
        rows.append({"kind": "atomic", "width": width, "op": "fadd" if width == 4 else "add", "addresses": addr})
    res = analyze_batch(WarpBatch.from_rows(rows), detail=False)
    for i, r in enumerate(rows):
        iters, loads, ideal = reference_cas_loop(r["width"], r["addresses"])
        assert (int(res.executions[i]), int(res.loop_load_wavefronts[i]), int(res.loop_load_ideal[i])) == \
            (iters, loads, ideal), r


def test_float_add_loops_as_measured_on_the_h100():
    """32-bit float adds of the GPU verification: the atomic wavefronts, and the loads the loop
    made (Nsight's load counter) match; iterations follow one lane per bank slot per pass."""
    rows = [json.loads(x) for x in (ROOT / "resources/hardware/h100_verification.jsonl").read_text().splitlines()]
    rows = [r for r in rows if r["ptx"] == "atom.shared.add.f32"]
    assert len(rows) >= 9
    res = analyze_batch(WarpBatch.from_rows(rows), detail=False)
    for i, r in enumerate(rows):
        assert res.wavefronts[i] == r["wavefronts"]
        assert res.loop_load_wavefronts[i] == r["info"]["counters"]["ld"]
    same_word = [i for i, r in enumerate(rows) if len({a for a in r["addresses"] if a is not None}) == 1
                 and all(a is not None for a in r["addresses"])]
    assert same_word and all(res.executions[i] == 32 for i in same_word)


def _fadd(index: str):
    from bankexplorer.model import Instruction, Pattern, SharedArray

    return Pattern(name="fadd", arrays=(SharedArray("s", "float", (1024,)),), block=(32, 1, 1),
                   instructions=(Instruction("atomic", array="s", index=(index,), op="fadd"),))


def test_a_conflict_free_float_add_is_no_bank_conflict():
    """atomicAdd on floats is a load and a compare-and-swap loop. On the GPU the loop's load has its
    own ideal (the source page's LDS row), so 32 lanes on 32 banks are conflict-free: 3 wavefronts,
    ideal 3. Counting the load as excess said 67% efficient, a conflict where there is none."""
    from bankexplorer.model import analyze

    t = analyze(_fadd("lane")).totals()
    assert (t.wavefronts, t.ideal, t.excess, t.efficiency) == (3, 3, 0, 1.0)
    # 32 words on one bank: 32 iterations of 2 passes (ideal 1 each pass: 32 words fit one
    # wavefront), iteration j reloading 32 - j words of that bank (ideal 1): the conflicts stay
    t = analyze(_fadd("lane * 32")).totals()
    assert (t.wavefronts, t.ideal) == (64 + sum(range(1, 33)), 2 + 32)
    assert analyze(_fadd("lane * 32")).result.executions.tolist() == [32]


def test_every_place_adds_the_loop_loads_the_same_way():
    """Example 16 (native atomics, a CAS, a float and a 64-bit CAS loop): the table's rows, the JSON
    rows, the Python result and the advisor's current layout all add up to the totals."""
    import subprocess
    import sys

    from bankexplorer import analyze as bx_analyze, load
    from bankexplorer.advisor.search import advise
    from bankexplorer.model import analyze

    path = ROOT / "resources/examples/16_atomics_cas_and_loops.json"
    pat = load(path)
    t = analyze(pat.to_model() if hasattr(pat, "to_model") else pat).totals()
    assert (t.wavefronts, t.ideal, t.excess) == (18, 15, 3)  # the excess is the 4-way add alone
    out = subprocess.run([sys.executable, "-m", "bankexplorer", "analyze", str(path)], capture_output=True,
                         text=True, check=True).stdout
    rows = [ln.split() for ln in out.splitlines() if ln[:4].strip().isdigit()]
    assert len(rows) == 6
    wf_col = [int(r[-5]) for r in rows]
    ideal_col = [int(r[-4]) for r in rows]
    assert wf_col == [1, 4, 2, 3, 2, 6] and sum(wf_col) == 18 and sum(ideal_col) == 15
    assert "ideal 15, excess 3, efficiency 83%" in out
    js = json.loads(subprocess.run([sys.executable, "-m", "bankexplorer", "analyze", "--json", str(path)],
                                   capture_output=True, text=True, check=True).stdout)
    got = js["instructions"]
    assert sum(g["wavefronts"] + g.get("loop_load_wavefronts", 0) for g in got) == js["totals"]["wavefronts"] == 18
    assert sum(g["ideal"] + g.get("loop_load_ideal", 0) for g in got) == js["totals"]["ideal"] == 15
    r = bx_analyze(pat)
    assert int((r.wavefronts + r.loop_load_wavefronts).sum()) == r.totals["wavefronts"] == 18
    assert int((r.ideal + r.loop_load_ideal).sum()) == r.totals["ideal"] == 15
    cur = advise(analyze(r.analysis.pattern).pattern).current
    assert (cur.wavefronts, cur.ideal) == (18, 15)
