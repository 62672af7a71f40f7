"""Write the case arrays of resources/hardware/kernels/extra17/: the LDS.64 / LDS.128 merge probes.

Each array holds cases of 32 lane indices (int32, -1: the lane loads nothing); probe kernel K
loads ``xs[k]`` for every case, one predicated shared load per case. For the 8-byte probes an
index is an 8-byte word of a ``double[1024]`` (bank slot = index % 16), for the 16-byte probe a
16-byte word of a ``double2[512]`` (slot = index % 8). The hand-made cases vary one thing at a
time: the wavefronts each half (8-byte) or quarter (16-byte) costs alone, whether the halves'
slots overlap, whether they hold the same words, whether neighbours are inactive or equal; the
random ones (fixed seed) draw sparse and paired lane sets with conflicts.

usage: python scripts/kernel_inputs.py extra17 [--out DIR]  (default: this folder)
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

import kernel_inputs  # scripts/kernel_inputs.py: what every batch's recipe shares


def case(d: dict[int, int]) -> list[int]:
    c = [-1] * 32
    for lane, word in d.items():
        c[lane] = word
    return c


def pairs(words: list[int]) -> dict[int, int]:
    """16 pair words -> lanes 2k and 2k+1 on word k (a full warp whose neighbours agree)."""
    return {lane: words[lane // 2] for lane in range(32)}


def lds64_a() -> list[list[int]]:
    """Hand-made 8-byte cases: halves' costs (h0, h1), their slots disjoint or shared."""
    A = {0: 135, 3: 234, 8: 427, 11: 402, 13: 243, 17: 440, 18: 7, 21: 3, 23: 456, 27: 261, 28: 145, 31: 379}
    cs = [
        {0: 0, 16: 1, 18: 17},                                  # (1,2) disjoint slots
        {0: 0, 2: 16, 16: 1},                                   # (2,1) disjoint
        {0: 0, 2: 16, 4: 2, 16: 1, 18: 17, 20: 34},             # (2,2) shared slot 2 (words 2, 34): union 2
        {0: 0, 2: 16, 16: 1, 18: 17},                           # (2,2) disjoint
        {0: 0, 2: 16, 16: 32, 18: 0},                           # (2,2) one slot, words {0,16} and {32,0}: union 3
        {0: 0, 16: 0, 18: 16},                                  # (1,2) half 1 holds half 0's word
        {0: 0, 2: 16, 4: 32, 16: 1, 18: 17, 20: 33},            # (3,3) disjoint
        {0: 0, 16: 1, 18: 17, 20: 33},                          # (1,3) disjoint
        {0: 0, 2: 16, 4: 32, 16: 1},                            # (3,1) disjoint
        {0: 0, 2: 16, 4: 32, 16: 1, 18: 17},                    # (3,2) disjoint
        pairs([0, 16, 2, 3, 4, 5, 6, 7, 8, 24, 10, 11, 12, 13, 14, 15]),      # full pairs (2,2) disjoint
        pairs([0, 16, 1, 3, 4, 5, 6, 7, 8, 24, 17, 11, 12, 13, 14, 15]),      # full pairs (2,2) slot 1 shared (1 / 17)
        pairs([0, 16, 1, 3, 4, 5, 6, 7, 8, 24, 1, 11, 12, 13, 14, 15]),       # full pairs (2,2) slot 1 same word
        {**A, 4: 250},                                          # probe16 case A plus a lane: (2,2) union 2
        {0: 0, 1: 16, 2: 0, 3: 16, 16: 1, 17: 17, 18: 1, 19: 17},  # i^2 agree, pairs clash (fft-like) (2,2)
        {0: 0, 1: 16, 16: 1, 17: 17},                           # pairs clash, i^2 inactive
        {0: 0, 2: 16, 16: 1, 18: 17, 20: 2, 22: 3, 24: 4, 26: 5, 28: 6, 30: 7},  # (2,2) disjoint, 2 vs 8 lanes
        {0: 0, 2: 16, 4: 32, 16: 0, 18: 16, 20: 32},            # (3,3) same words both halves
        {0: 0, 2: 16, 4: 32, 16: 48, 18: 64, 20: 80},           # (3,3) one slot, all different: union 6
        {0: 0, 2: 16, 4: 32, 6: 48, 16: 1, 18: 17},             # (4,2) disjoint
        {0: 0, 2: 16, 16: 0, 18: 17},                           # (2,2) slot 0 shared {0,16} vs {0}, slot 1 {17}
        {0: 5, 8: 21, 16: 6, 24: 22},                           # (2,2) disjoint, lanes 0/8 and 16/24
        {1: 0, 3: 16, 17: 1, 19: 17},                           # (2,2) disjoint, odd lanes
        {0: 0, 2: 16, 4: 2, 6: 18, 16: 1, 18: 17, 20: 3, 22: 19},  # (2,2) disjoint, two slots each
    ]
    return [case(d) for d in cs]


def lds64_b(rng: np.random.Generator) -> list[list[int]]:
    """Random 8-byte cases: sparse lanes (neighbours i^1 inactive) and full pairs, words in a few
    slots so that halves conflict; plus repeats of two hand-made cases."""
    out = []
    for k in range(20):
        if k < 12:
            lanes = [2 * p + int(rng.integers(0, 2)) for p in range(16) if rng.random() < 0.6]
            span = [32, 48, 64][k % 3]
            out.append(case({lane: int(rng.integers(0, span)) for lane in lanes}))
        else:
            span = [40, 64][k % 2]
            out.append(case(pairs([int(rng.integers(0, span)) for _ in range(16)])))
    out += lds64_a()[:2] + lds64_a()[13:15]
    return out


def lds128(rng: np.random.Generator) -> list[list[int]]:
    """16-byte cases (slot = word % 8); quarters q0..q3 are lanes 0-7, 8-15, 16-23, 24-31."""
    cs = [
        {0: 0, 8: 8, 10: 1, 12: 9},                 # half-warp 0: (1,2), q1's slot 0 word differs from q0's
        {0: 0, 8: 1, 10: 9},                        # (1,2) disjoint
        {0: 0, 2: 8, 8: 1},                         # (2,1) disjoint
        {0: 0, 2: 8, 8: 16},                        # (2,1) shared slot 0
        {0: 0, 2: 8, 4: 2, 8: 1, 10: 9, 12: 10},    # (2,2) shared slot 2 (2 / 10): union 2
        {0: 0, 2: 8, 4: 16, 8: 1, 10: 9},           # (3,2) disjoint
        {0: 0, 8: 1, 10: 9, 16: 2, 24: 3},          # half 0 (1,2), half 1 (1,1)
        {0: 0, 8: 1, 10: 9, 16: 2, 18: 10, 24: 3, 26: 11},  # (1,2) and (2,2)
        {0: 0, 2: 8, 8: 1, 10: 9},                  # (2,2) disjoint
        {0: 0, 8: 0, 10: 8},                        # (1,2) q1 holds q0's word
    ]
    out = [case(d) for d in cs]
    for k in range(6):
        lanes = [2 * p + int(rng.integers(0, 2)) for p in range(16) if rng.random() < 0.6]
        out.append(case({lane: int(rng.integers(0, 24)) for lane in lanes}))
    return out


def lds64_repeat() -> list[list[int]]:
    """lds64_repeat_probe: 8 cases, each loaded 8 times in a row (as the probes of the measured
    rows were): rows 952, 955, 989 and 961 of h100_shared_wavefronts.jsonl (byte address / 8), and
    four cases of lds64_merge_probe_a (10, 3, 17, 0) that one load each did not merge."""
    import json

    rows = {}
    with open(kernel_inputs.REPO / "resources" / "hardware" / "h100_shared_wavefronts.jsonl") as f:
        for line in f:
            r = json.loads(line)
            if r["id"] in (952, 955, 989, 961):
                rows[r["id"]] = [-1 if a is None else a // 8 for a in r["addresses"]]
    a = lds64_a()
    return [rows[952], rows[955], rows[989], rows[961], a[10], a[3], a[17], a[0]]


def lds128_repeat(rng: np.random.Generator) -> list[list[int]]:
    """lds128_repeat_probe: rows 999, 1002 and 1017 of h100_shared_wavefronts.jsonl (byte address
    / 16) and cases 0, 4, 5 and 1 of lds128_merge_probe, each loaded 8 times in a row."""
    import json

    rows = {}
    with open(kernel_inputs.REPO / "resources" / "hardware" / "h100_shared_wavefronts.jsonl") as f:
        for line in f:
            r = json.loads(line)
            if r["id"] in (999, 1002, 1017):
                rows[r["id"]] = [-1 if a is None else a // 16 for a in r["addresses"]]
    a = lds128(rng)
    return [rows[999], rows[1002], rows[1017], a[0], a[4], a[5], a[1], a[8]]


def make(out: Path) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(20260301)
    cases = {"lds64_cases_a": lds64_a(), "lds64_cases_b": lds64_b(rng), "lds128_cases": lds128(rng),
             "lds64_repeat_cases": lds64_repeat(),
             "lds128_repeat_cases": lds128_repeat(np.random.default_rng(20260301))}
    return kernel_inputs.save(out, {k: np.array(cs, np.int32).reshape(-1) for k, cs in cases.items()})

