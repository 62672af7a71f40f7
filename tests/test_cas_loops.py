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
        iters, loads = reference_cas_loop(r["width"], r["addresses"])
        assert (int(res.executions[i]), int(res.loop_load_wavefronts[i])) == (iters, loads), r


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
