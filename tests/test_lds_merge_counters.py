"""The 8/16-byte load merge against the H100's hardware counter, side by side with the source page.

``resources/hardware/h100_lds_merge_counters.jsonl``: 36 loads (12 ``LDS.64``, 24 ``LDS.128``) each
launched alone and profiled twice in one session (``kernels/extra17/README.md``, and the 16 cases of
``kernels/extra19/lds128_partial_quads_probe``, ``kernels/extra19/README.md``): ``wavefronts`` is
the LSU counter the 1,235 rows were taken with, ``source_page_wavefronts`` what Nsight Compute's
source page (the per-SASS truth of the kernels) gave for the very same instructions. The model
follows the hardware counter; the source page serves a merged phase with a bank conflict per half
(or quarter) instead, and the per-SASS export (which reproduces that page) counts so too.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from bankexplorer.model import hardware as hwr
from bankexplorer.model.engine import WarpBatch, count_wavefronts
from bankexplorer.model.reference import reference_wavefronts

ROWS = [json.loads(line) for line in
        (Path(__file__).resolve().parents[1] / "resources" / "hardware" / "h100_lds_merge_counters.jsonl").open()]


def _batch():
    addr = np.array([[a if a is not None else 0 for a in r["addresses"]] for r in ROWS], np.int64)
    act = np.array([[a is not None for a in r["addresses"]] for r in ROWS])
    kind = np.full(len(ROWS), hwr.KIND_CODE["load"])
    width = np.array([r["width"] for r in ROWS])
    return WarpBatch(kind, width, np.zeros(len(ROWS), np.int64), addr, act)


def test_model_gives_the_hardware_counter():
    got = count_wavefronts(_batch(), hwr.NVIDIA_SM70_SM90, executions=False).wavefronts
    assert [int(g) for g in got] == [int(r["wavefronts"]) for r in ROWS]


def test_reference_agrees():
    for r in ROWS:
        assert reference_wavefronts("load", r["width"], r["addresses"]) == r["wavefronts"], r["info"]


def test_the_source_page_counts_otherwise():
    """The two counters differ on 24 of the 36 (the same launches): a fact of the measurements,
    kept so that nobody fits the model to the source page's numbers by mistake."""
    differ = [r for r in ROWS if r["wavefronts"] != r["source_page_wavefronts"]]
    assert len(differ) == 24
    assert all(r["source_page_wavefronts"] > r["wavefronts"] for r in differ)


#: where the page counts a conflict-free merged LDS.128 one wavefront higher than the hardware served,
#: which the source-page rule does not know (partly active quads: extra19's README)
PAGE_UNEXPLAINED = {f"extra19 lds128_partial_quads_probe case {c}" for c in (0, 7, 8, 9, 10, 15)}


def test_source_page_rule_reproduces_the_source_page():
    """What the per-SASS export reports (Nsight's source-page column): a merged phase with a bank
    conflict counted as its halves. It gives the source page on the 20 loads of extra17's launches
    and 10 of extra19's 16, while the engine's own count stays the hardware's on all 36; on the
    other 6 the page is one higher than the rule, though none has a conflict."""
    from bankexplorer.model.engine import source_page_wavefronts

    b = _batch()
    res = count_wavefronts(b, hwr.NVIDIA_SM70_SM90, executions=False)
    got = source_page_wavefronts(b, res)
    for g, r in zip(got, ROWS):
        off = 1 if r["info"]["case"] in PAGE_UNEXPLAINED else 0
        assert int(g) + off == int(r["source_page_wavefronts"]), r["info"]
    assert [int(g) for g in res.wavefronts] == [int(r["wavefronts"]) for r in ROWS]


# ---- the merge_pairs family: the rule's probe family, half of it set aside before the rule -----
#: ``h200_lds_merge_pairs.jsonl``: 176 one-warp LDS.64/LDS.128 of ``scripts/make_merge_pairs_family.py``
#: (lanes paired by i^1 or i^2, the other partner on a word of the same bank slot or not, lanes
#: off, pairs broken), each measured with both counters on one GPU (an H200, sm_90) in one session:
#: ``wavefronts`` the LSU counter (``verify_on_gpu.py --rows``), ``source_page_wavefronts`` the
#: source page of the same loads in four kernels (``--kernel``). ``held_out`` was drawn with the cases.
PAIRS = [json.loads(line) for line in
         (Path(__file__).resolve().parents[1] / "resources" / "hardware" / "h200_lds_merge_pairs.jsonl").open()]


def _pairs_batch(rows):
    addr = np.array([[a if a is not None else 0 for a in r["addresses"]] for r in rows], np.int64)
    act = np.array([[a is not None for a in r["addresses"]] for r in rows])
    return WarpBatch(np.full(len(rows), hwr.KIND_CODE["load"]), np.array([r["width"] for r in rows]),
                     np.zeros(len(rows), np.int64), addr, act)


def test_the_family_was_drawn_as_designed():
    """At least 160 loads of both widths, both pairings, clashing or not, about half set aside."""
    from collections import Counter

    assert len(PAIRS) >= 160 and all(r["family"] == "merge_pairs" for r in PAIRS)
    shapes = Counter((r["width"], r["info"]["pairing"], r["info"]["clash"]) for r in PAIRS)
    assert len(shapes) == 8 and min(shapes.values()) >= 15
    held = sum(r["held_out"] for r in PAIRS)
    assert 0.4 * len(PAIRS) < held < 0.6 * len(PAIRS)


def test_the_family_file_is_what_the_script_draws():
    """The cases measured are the seeded script's (nobody picked them after seeing the counts)."""
    import importlib.util

    path = Path(__file__).resolve().parents[1] / "scripts" / "make_merge_pairs_family.py"
    spec = importlib.util.spec_from_file_location("make_merge_pairs_family", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    drawn = mod.family()
    assert [(d["addresses"], d["held_out"], d["width"]) for d in drawn] == \
           [(r["addresses"], r["held_out"], r["width"]) for r in PAIRS]


def test_held_out_half_gives_the_hardware_counter():
    """The merge rule (``hardware._pairs_share``) on the rows set aside: every one exact, the 8-byte
    loads paired by i^2 whose neighbours clash in a slot included (the old exception's rows)."""
    held = [r for r in PAIRS if r["held_out"]]
    got = count_wavefronts(_pairs_batch(held), hwr.NVIDIA_SM70_SM90, executions=False).wavefronts
    wrong = [(r["id"], int(g), r["wavefronts"]) for g, r in zip(got, held) if int(g) != r["wavefronts"]]
    assert not wrong
    assert sum(r["width"] == 8 and r["info"]["pairing"] == "i^2" and r["info"]["clash"] for r in held) >= 5


def test_whole_family_gives_the_hardware_counter_and_the_reference_agrees():
    got = count_wavefronts(_pairs_batch(PAIRS), hwr.NVIDIA_SM70_SM90, executions=False).wavefronts
    assert [int(g) for g in got] == [r["wavefronts"] for r in PAIRS]
    for r in PAIRS[::7]:
        assert reference_wavefronts("load", r["width"], r["addresses"]) == r["wavefronts"], r["id"]


def _partial_quad(r) -> bool:
    """A 16-byte load with a quad whose lane 4j+3 is active and lane 4j+2 is not: where extra19's
    probe found the page one higher than the source-page rule (``PAGE_UNEXPLAINED``)."""
    a = r["addresses"]
    return r["width"] == 16 and any(a[4 * j + 3] is not None and a[4 * j + 2] is None for j in range(8))


def test_held_out_half_gives_the_source_page():
    """The source-page layer (``hardware.source_page_cost``) on the same rows gives Nsight's page
    (the clashing i^2 loads are merged by the hardware but counted as halves by the page), on every
    row outside the partly active quads where the page is known to count one more; inside them it
    gives 33 of 35, and the two it misses are one short."""
    from bankexplorer.model.engine import source_page_wavefronts

    for rows in ([r for r in PAIRS if r["held_out"]], PAIRS):
        b = _pairs_batch(rows)
        page = source_page_wavefronts(b, count_wavefronts(b, hwr.NVIDIA_SM70_SM90, executions=False))
        missed = [(r, int(p)) for p, r in zip(page, rows) if int(p) != r["source_page_wavefronts"]]
        assert all(_partial_quad(r) and p + 1 == r["source_page_wavefronts"] for r, p in missed)
        assert len(missed) <= 2
    differ = [r for r in PAIRS if r["wavefronts"] != r["source_page_wavefronts"]]
    assert len(differ) > 40 and all(r["source_page_wavefronts"] > r["wavefronts"] for r in differ)
