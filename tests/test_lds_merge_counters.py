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
