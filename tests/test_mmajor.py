"""M-major (column-major) tiles: vector, ldmatrix and stmatrix accesses along a dimension that is
not the last (issue 19, CUTLASS issue 3172). The bytes a lane reads run from its first element's
address; the access is in bounds when they lie in the array, and the note says which elements
they are. Checked against four ldmatrix.x4.trans reads measured on an H100."""

from dataclasses import replace
import json
import subprocess
import sys

import numpy as np
import pytest

from bankexplorer.io import patternfile as pf
from bankexplorer.model import Instruction, Pattern, SharedArray, analyze
from bankexplorer.model.engine import WarpBatch, count_wavefronts
from bankexplorer.model.libraries import cute
from bankexplorer.model.reference import reference_wavefronts
from bankexplorer.resources import EXAMPLES, HARDWARE

ROWS = HARDWARE / "h100_mmajor_ldmatrix_trans.jsonl"
ISSUE_INDEX = ["(lane / 8) * 8", "lane % 8"]  # lane 8q+j gives row j of matrix q: element (8q, j)


def _issue_pattern(layout: str, dims=None) -> dict:
    m = int(layout.split("(_")[1].split(",")[0])
    return {"format": "bankexplorer-pattern", "version": 1, "block": [32, 1, 1],
            "arrays": [{"name": "A", "type": "half", "dims": dims or [m, 8],
                        "transform": {"kind": "cute-layout", "layout": layout}}],
            "instructions": [{"kind": "ldmatrix", "matrices": 4, "trans": True, "array": "A", "index": ISSUE_INDEX}]}


@pytest.fixture(scope="module")
def rows() -> list[dict]:
    return [json.loads(ln) for ln in ROWS.read_text().splitlines() if ln.strip()]


@pytest.mark.parametrize("layout,wavefronts", [
    ("(_64,_8):(_1,_64)", 32),  # 8 rows 128 bytes apart per matrix: 8-way
    ("Sw<3,3,3> o _0 o (_64,_8):(_1,_64)", 4),
    ("Sw<3,3,3> o _0 o (_128,_8):(_1,_128)", 8),  # bits 6-8 of 8q + 128j hold two bits of j: 2-way
    ("Sw<3,3,4> o _0 o (_128,_8):(_1,_128)", 4),
])
def test_the_issue_layouts(layout, wavefronts):
    an = analyze(pf.loads(json.dumps(_issue_pattern(layout))))
    assert an.instruction_errors == {}
    assert an.result.wavefronts.tolist() == [wavefronts]
    assert an.result.ideal.tolist() == [4]
    assert an.note(0).startswith("each lane's 16 bytes run along dimension 0 of A, not along its last index: "
                                 "from A[0][0] they are A[0..7][0], the next elements of the layout along dimension 0")


def test_the_issue_file_through_the_cli(tmp_path):
    f = tmp_path / "mmajor.json"
    f.write_text(json.dumps(_issue_pattern("Sw<3,3,3> o _0 o (_64,_8):(_1,_64)")))
    p = subprocess.run([sys.executable, "-m", "bankexplorer", "analyze", str(f), "--json"],
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stdout + p.stderr
    (row,) = json.loads(p.stdout)["instructions"]
    assert row["wavefronts"] == 4 and row["n_way"] == 1 and "dimension 0" in row["note"]


def test_measured_rows_have_the_bundled_format(rows):
    assert [r["id"] for r in rows] == [900000, 900001, 900002, 900003]
    for r in rows:
        assert (r["kind"], r["matrices"], r["trans"], r["sass"]) == ("ldmatrix", 4, True, "LDSM.16.MT88.4")
        assert len(r["addresses"]) == 32 and all(isinstance(a, int) and a % 16 == 0 for a in r["addresses"])
        assert isinstance(r["wavefronts"], int) and r["info"]["type"] == "half"


def test_model_reproduces_every_measured_row(rows):
    """From the addresses (engine and per-lane reference), and from the layout + the access as a
    user writes them: the layout puts each lane where the probe put it, and the counts agree."""
    want = [r["wavefronts"] for r in rows]
    assert want == [8, 4, 32, 4]
    assert count_wavefronts(WarpBatch.from_rows(rows)).wavefronts.tolist() == want
    assert [reference_wavefronts("ldmatrix", 16, r["addresses"], matrices=4) for r in rows] == want
    for r in rows:
        an = analyze(pf.loads(json.dumps(_issue_pattern(r["info"]["layout"]))))
        assert an.batch.addr[0].tolist() == r["addresses"], r["id"]
        assert int(an.result.wavefronts[0]) == r["wavefronts"], r["id"]


def test_the_example_is_what_the_gpu_measured(rows):
    an = analyze(pf.load(EXAMPLES / "28_cute_mmajor_ldmatrix_trans.json"))
    assert an.instruction_errors == {}
    assert an.result.wavefronts.tolist() == [8, 4] and an.result.degree.tolist() == [2, 1]
    by_layout = {r["info"]["layout"]: r for r in rows}
    for k, arr in enumerate(an.pattern.arrays):
        r = by_layout[arr.transform.get("layout")]
        assert (an.batch.addr[k] - arr.base).tolist() == r["addresses"]
        assert int(an.result.wavefronts[k]) == r["wavefronts"]


def test_row_major_tiles_are_unchanged():
    """The K-major twins of the issue's tiles (the same bytes, transposed indices) keep their numbers and get
    no note. A float4 across a row's end: an unpadded array is one run of memory (nvcc's own LDS.128 of a
    5x5 filter crosses rows, measured), so only leaving the array is an error; past a padded row's end
    lies padding, out of bounds."""
    for layout, wf in (("(_8,_64):(_64,_1)", 32), ("Sw<3,3,3> o _0 o (_8,_64):(_64,_1)", 4)):
        arr = SharedArray("A", "half", (8, 64), transform=cute.make(layout))
        an = analyze(Pattern(arrays=(arr,), instructions=(
            Instruction("ldmatrix", matrices=4, trans=False, array="A", index=("lane % 8", "(lane / 8) * 8")),)))
        assert an.result.wavefronts.tolist() == [wf] and an.note(0) == ""
    plain = Pattern(arrays=(SharedArray("s", "float", (32, 32)),),
                    instructions=(Instruction("load", width=16, array="s", index=("lane", "28 + lane % 2 * 2")),))
    an = analyze(plain)
    assert an.instruction_errors[0] == ("index: warp 0 lane 31 (thread (31,0,0)): the 16-byte access at s[31][30] "
                                        "reads bytes 4088..4103 of the array, which ends at byte 4095: it leaves "
                                        "float s[32][32]")
    across = Pattern(arrays=(SharedArray("s", "float", (32, 30)),),
                     instructions=(Instruction("load", width=16, array="s", index=("lane % 16 * 2", "28")),))
    an = analyze(across)  # bytes 112..127 of each 240-byte pair of rows: the end of one row, the start of the next
    assert not an.instruction_errors and an.result.wavefronts.tolist() == [4]
    padded = replace(across, arrays=(SharedArray("s", "float", (32, 30), padding=2),))
    assert "(a 16-byte access covers 4 elements)" in analyze(padded).instruction_errors[0]


def test_a_vector_that_really_leaves_the_array_is_an_error():
    # (_4,_8):(_1,_8): 60 halves of memory (120 bytes); A[0][7] is element 56, byte 112: 16 bytes run past 119
    arr = SharedArray("A", "half", (4, 8), transform=cute.make("(_4,_8):(_1,_8)"))
    assert arr.validate() == [] and arr.nbytes == 120
    ins = Instruction("ldmatrix", matrices=1, array="A", index=("0", "lane % 8"))
    an = analyze(Pattern(arrays=(arr,), instructions=(ins,)))
    assert an.instruction_errors[0] == ("index: warp 0 lane 7 (thread (7,0,0)): the 16-byte access at A[0][7] reads bytes "
                                        "112..127 of the array, which ends at byte 119: it leaves half A[4][8]")
    assert (an.result.wavefronts == -1).all()
    # an index outside the tile is still refused by its index
    bad = analyze(pf.loads(json.dumps({**_issue_pattern("(_64,_8):(_1,_64)"), "instructions": [
        {"kind": "ldmatrix", "matrices": 4, "trans": True, "array": "A", "index": ["(lane / 8) * 8 + 40", "lane % 8"]}]})))
    assert "index A[64][0] is out of bounds of half A[64][8]" in bad.instruction_errors[0]


def test_vectors_along_no_dimension_still_get_the_scattered_note():
    # an M-major float tile whose swizzle swaps elements 2 and 3 of every 4: a float4 is a run in no direction
    arr = SharedArray("A", "float", (32, 8), transform=cute.make("Sw<1,0,1> o _0 o (_32,_8):(_1,_32)"))
    an = analyze(Pattern(arrays=(arr,), instructions=(Instruction("load", width=16, array="A", index=("0", "lane % 8")),)))
    assert an.note(0) == ("the 16-byte access at A[0][0] reads bytes 0..15, but this layout puts A[0][1] at byte 128: "
                          "these bytes are not the next elements of the layout along any dimension, so the kernel "
                          "would read other elements than it names")


@pytest.mark.parametrize("name,wavefronts", [
    ("16_atomics_cas_and_loops.json", [1, 4, 2, 2, 2, 4]),
    ("17_generic_pointer_float2.json", [1, 2, 1, 2]),
    ("28_cute_mmajor_ldmatrix_trans.json", [8, 4]),
])
def test_examples_keep_their_numbers(name, wavefronts):
    """(01-15 in test_examples.py, 20-27 in test_library_layouts.py)"""
    an = analyze(pf.load(EXAMPLES / name))
    assert an.instruction_errors == {}
    got = [sorted(set(an.result.wavefronts[an.rows_of(k)].tolist())) for k in range(len(an.pattern.instructions))]
    assert got == [[w] for w in wavefronts]


def test_mmajor_sweeps_from_the_access_helper():
    from bankexplorer.model.libraries.access import fragment_sweep, major, vector_sweep

    arr = SharedArray("A", "half", (128, 8), transform=cute.make("Sw<3,3,3> o _0 o (_128,_8):(_1,_128)"))
    assert major(arr, 8) == "M"
    ins = fragment_sweep(arr, 4, trans=True)
    assert ins.index == ("m + (lane / 8) * 8", "lane % 8") and [lp.values() for lp in ins.loops] == [range(0, 128, 32)]
    assert ins.label == "ldmatrix.x4.trans: 32x8 M-major fragments of A (16-byte rows along dimension 0)"
    an = analyze(Pattern(arrays=(arr,), instructions=(ins,)))
    assert an.result.wavefronts.tolist() == [8, 8, 8, 8]
    li = an.lane_index[:, :32]
    assert sorted(zip(li[:, :, 0].ravel().tolist(), li[:, :, 1].ravel().tolist())) == \
        [(m, k) for m in range(0, 128, 8) for k in range(8)]  # every 16-byte run once
    fixed = SharedArray("A", "half", (128, 8), transform=cute.make("Sw<3,3,4> o _0 o (_128,_8):(_1,_128)"))
    st = fragment_sweep(fixed, 4, kind="stmatrix")
    assert analyze(Pattern(arrays=(fixed,), instructions=(st,))).result.wavefronts.tolist() == [4, 4, 4, 4]
    v = vector_sweep(fixed, 32)
    assert v.index == ("((v + tid) % 16) * 8", "(v + tid) / 16") and v.label.endswith("(M-major: along dimension 0)")
    assert analyze(Pattern(arrays=(fixed,), instructions=(v,))).result.wavefronts.tolist() == [4, 4, 4, 4]
    # the K-major twin (the same bytes, indices swapped) is read K-major and costs the same 2-way
    k_major = SharedArray("A", "half", (8, 128), transform=cute.make("Sw<3,3,3> o _0 o (_8,_128):(_128,_1)"))
    assert major(k_major, 8) == "K"
    twin = fragment_sweep(k_major, 4)
    assert twin.index == ("lane % 8", "k + (lane / 8) * 8")
    assert np.array_equal(analyze(Pattern(arrays=(k_major,), instructions=(twin,))).result.wavefronts, [8, 8, 8, 8])


def test_the_probe_of_example_28_issues_the_measured_instructions(rows):
    """`bankexplorer cuda` on example 28 writes the two reads that were measured (B sits at byte 2048)."""
    from bankexplorer.cuda.probe import cases_from_pattern, model_wavefronts

    cases, _ = cases_from_pattern(pf.load(EXAMPLES / "28_cute_mmajor_ldmatrix_trans.json"), "28")
    assert [c.op.ptx for c in cases] == [rows[0]["ptx"], rows[1]["ptx"]]
    assert [list(c.addresses[0]) for c in cases] == [rows[0]["addresses"], [a + 2048 for a in rows[1]["addresses"]]]
    assert model_wavefronts(cases) == [8, 4]


def test_the_figure_outlines_mmajor_rows_down_the_columns():
    from bankexplorer.export.scene import make_scene
    from bankexplorer.export.tile import access_runs

    p = pf.load(EXAMPLES / "28_cute_mmajor_ldmatrix_trans.json")
    scene = make_scene(p, "default", instruction=0)
    runs = access_runs(scene, p.arrays[0], 8)
    assert len(runs) == 32 and all(r.down and r.length == 8 and r.conflict for r in runs)
    assert {r.lanes[0]: (r.row, r.col) for r in runs}[9] == (8, 1)  # lane 9: A[8..15][1]
    # a K-major read keeps its runs across the row
    k = pf.load(EXAMPLES / "20_cute_sw333_ldmatrix_x4.json")
    assert not any(r.down for r in access_runs(make_scene(k, "default", instruction=0), k.arrays[0], 64))
