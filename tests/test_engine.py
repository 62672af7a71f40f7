"""The vectorized engine against the plain per-lane reference, on random instructions."""

import numpy as np
import pytest

from bankexplorer.model.engine import WarpBatch, analyze_batch, count_wavefronts
from bankexplorer.model.hardware import GENERIC, KEPLER_8BYTE, KINDS, NVIDIA_SM70_SM90
from bankexplorer.model.reference import reference_wavefronts


def random_rows(n, seed, span=2048):
    rng = np.random.default_rng(seed)
    rows = []
    for _ in range(n):
        kind = KINDS[rng.integers(len(KINDS))]
        if kind in ("ldmatrix", "stmatrix"):
            width, m = 16, int(rng.choice([1, 2, 4]))
        elif kind == "atomic":
            width, m = 4, 0
        else:
            width, m = int(rng.choice([1, 2, 4, 8, 16])), 0
        style = rng.integers(4)
        if style == 0:
            a = rng.integers(0, span // width, 32) * width
        elif style == 1:
            a = (np.arange(32) * int(rng.integers(0, 40))) * width
        elif style == 2:  # pairs / quads sharing addresses
            a = (np.arange(32) // int(rng.choice([2, 4])) * int(rng.integers(1, 9))) * width
        else:
            a = rng.integers(0, 8, 32) * width * 32
        addrs = [int(x) for x in a]
        if rng.random() < 0.4 and kind not in ("ldmatrix", "stmatrix"):
            for lane in np.flatnonzero(rng.random(32) < 0.3):
                addrs[lane] = None
        rows.append({"kind": kind, "width": width, "matrices": m, "trans": False, "addresses": addrs})
    return rows


@pytest.mark.parametrize("hw", [NVIDIA_SM70_SM90, KEPLER_8BYTE, GENERIC.with_numbers(16, 4, 32)], ids=lambda h: h.preset)
def test_engine_equals_reference(hw):
    rows = random_rows(3000, seed=hash(hw.preset) % 1000)
    b = WarpBatch.from_rows(rows)
    full = analyze_batch(b, hw)
    fast = count_wavefronts(b, hw)
    ref = np.array([reference_wavefronts(r["kind"], r["width"], r["addresses"], hw, r["matrices"]) for r in rows])
    assert (full.wavefronts == ref).all()
    assert (fast.wavefronts == ref).all()
    assert (fast.ideal == full.ideal).all()
    assert (fast.degree == full.degree).all()


def test_stride_table_matches_timing_data():
    """h100_timing.txt: lane i reads word i*stride -> way = gcd(stride, 32) wavefronts."""
    from math import gcd

    strides = [0, 1, 2, 3, 4, 8, 16, 32, 33]
    rows = [{"kind": "load", "width": 4, "matrices": 0, "addresses": [i * s * 4 for i in range(32)]} for s in strides]
    got = analyze_batch(WarpBatch.from_rows(rows)).wavefronts
    assert list(got) == [1 if s == 0 else gcd(s, 32) for s in strides] == [1, 1, 2, 1, 4, 8, 16, 32, 1]


def test_misaligned_and_out_of_range_are_errors_not_counts():
    rows = [
        {"kind": "load", "width": 16, "matrices": 0, "addresses": [i * 16 + (8 if i == 5 else 0) for i in range(32)]},
        {"kind": "load", "width": 4, "matrices": 0, "addresses": [-4] + [0] * 31},
        {"kind": "load", "width": 4, "matrices": 0, "addresses": [4 * i for i in range(32)]},
    ]
    res = analyze_batch(WarpBatch.from_rows(rows))
    assert res.wavefronts[0] == -1 and "lane 5" in res.error[0] and "misaligned" in res.error[0]
    assert res.wavefronts[1] == -1 and "outside" in res.error[1]
    assert res.wavefronts[2] == 1 and res.error[2] is None
    fast = count_wavefronts(WarpBatch.from_rows(rows))
    assert list(fast.wavefronts) == [-1, -1, 1]


def test_inactive_warp_costs_nothing_and_broadcast_flags():
    rows = [
        {"kind": "load", "width": 4, "matrices": 0, "addresses": [None] * 32},
        {"kind": "store", "width": 4, "matrices": 0, "addresses": [0] * 16 + [4 * i for i in range(16)]},
        {"kind": "atomic", "width": 4, "matrices": 0, "addresses": [0] * 32},
    ]
    res = analyze_batch(WarpBatch.from_rows(rows))
    assert list(res.wavefronts) == [0, 1, 32]
    # store: lanes 0-15 and lane 16 all write word 0 (shared); lanes 17.. alone
    assert res.lane_shared[1, :17].all() and not res.lane_shared[1, 17:].any()
    # atomics on one address: every lane its own wavefront, all in one bank
    assert sorted(res.lane_wave[2]) == list(range(32)) and res.degree[2] == 32


def test_ideal_for_wide_accesses():
    rows = [{"kind": "load", "width": 16, "matrices": 0, "addresses": [16 * i for i in range(32)]},
            {"kind": "store", "width": 8, "matrices": 0, "addresses": [8 * i for i in range(32)]}]
    res = analyze_batch(WarpBatch.from_rows(rows))
    assert list(res.wavefronts) == [4, 2] and list(res.ideal) == [4, 2]
    assert list(res.lanes_per_phase) == [8, 16]


def test_empty_batch():
    b = WarpBatch.from_rows([])
    assert len(count_wavefronts(b).wavefronts) == 0 and len(analyze_batch(b).wavefronts) == 0


def test_an_8_byte_load_shared_by_lanes_i_and_i_xor_2_merges_whatever_its_pairs_hold():
    """An LDS.64 whose lanes i and i^2 read one address merges its two half-warps into one phase
    (8 distinct words in distinct slots: 1 wavefront), also when neighbours 2k, 2k+1 hold two words
    of one bank slot (the FFT's twiddle read: 0x600 and 0x680 alternating: 2 wavefronts served, as
    the merge_pairs family measured with the hardware counter); Nsight's source page counts that
    merged phase, which has a conflict, as its halves: 4. The reference agrees."""
    from bankexplorer.model import reference
    from bankexplorer.model.engine import WarpBatch, count_wavefronts, source_page_wavefronts
    from bankexplorer.model.hardware import NVIDIA_SM70_SM90 as HW, kind_code

    merged = [8 * (2 * (i // 4) + (i & 1)) for i in range(32)]  # 0, 8, 0, 8, 16, 24, 16, 24, ...
    clash = [0x600 if i % 2 == 0 else 0x680 for i in range(32)]
    for addrs, want, page in ((merged, 1, 1), (clash, 2, 4)):
        batch = WarpBatch(np.array([kind_code("load", 8, "shared")]), np.array([8]), np.array([0]),
                          np.array([addrs], np.int64), np.ones((1, 32), bool))
        res = count_wavefronts(batch, HW)
        assert int(res.wavefronts[0]) == want
        assert int(source_page_wavefronts(batch, res)[0]) == page
        assert reference.reference_wavefronts("load", 8, addrs, HW) == want
