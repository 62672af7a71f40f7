"""Advisor search: the best layouts for the classic cases, rejection of bad candidates, the
one-batch costs agreeing with a full analysis of the applied layout, and the advise command."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from bankexplorer.advisor import advise
from bankexplorer.advisor.search import Candidate, extra_bytes, plain
from bankexplorer.cli import main
from bankexplorer.io import patternfile
from bankexplorer.model import BankExplorerError, Instruction, Pattern, SharedArray, analyze
from bankexplorer.resources import EXAMPLES


def example(name: str) -> Pattern:
    return patternfile.load(EXAMPLES / name)


def test_transpose_column_read_best_is_free_xor_then_padding_1():
    adv = advise(example("06_transpose_32x32.json"))
    assert adv.current.wavefronts == 1056 and adv.ideal == 64
    best = adv.best
    assert best.family == "xor" and best.label == "XOR col ^= row"
    assert (best.wavefronts, best.ideal, best.extra_bytes) == (64, 64, 0)
    pad = [r for r in adv.ranked if r.family == "padding" and r.conflict_free]
    assert pad[0].label == "padding 1: float tile[32][33]" and pad[0].extra_bytes == 128
    # ranked: wavefronts first, bytes second
    keys = [(r.wavefronts, r.extra_bytes) for r in adv.ranked]
    assert keys == sorted(keys)
    assert adv.reaches_ideal and "reaches the ideal of 64" in adv.summary()


def test_padding_only_gives_padding_1():
    adv = advise(example("06_transpose_32x32.json"), families=("padding",))
    assert adv.best.label == "padding 1: float tile[32][33]"
    assert (adv.best.wavefronts, adv.best.extra_bytes, adv.best.shared_bytes) == (64, 128, 4224)
    # padding 0 is the current layout, merged into it rather than listed twice
    assert not any(r.label.startswith("no padding") for r in adv.ranked)
    assert [r.label for r in adv.ranked if r.wavefronts == 1056] == ["current layout", "padding 32: float tile[32][64]"]
    assert adv.generated == 33


def test_ldmatrix_finds_conflict_free_cute_swizzle():
    p = example("14_ldmatrix_x4_unswizzled.json")
    adv = advise(p)
    assert adv.current.wavefronts == 32
    cute = [r for r in adv.ranked if r.family == "cute" and r.conflict_free]
    assert cute, "no conflict-free Swizzle<B,M,S>"
    t = cute[0].candidate.changes[0][1].transform
    assert (t.get("B"), t.get("M"), t.get("S"), t.get("unit")) == (3, 3, 3, "element")
    assert cute[0].label == "Swizzle<3,3,3> on elements (= Swizzle<3,4,3> on bytes)"
    assert (cute[0].wavefronts, cute[0].extra_bytes) == (4, 0)
    applied = cute[0].candidate.apply(p)
    assert analyze(applied).totals().kernel_wavefronts == 4


def test_nothing_reaches_ideal_is_said():
    # every lane atomically updates one counter: no layout separates lanes on one address
    p = Pattern(name="one bin", arrays=(SharedArray("h", "int", (32, 32)),), block=(32, 1, 1),
                instructions=(Instruction(kind="atomic", array="h", index=("0", "0")),))
    adv = advise(p)
    assert not adv.reaches_ideal
    assert (adv.best.wavefronts, adv.ideal) == (32, 1)
    assert adv.summary().startswith("No candidate reaches the ideal of 1 wavefronts")


def test_not_ideal_but_better_names_the_best():
    # explicit addresses (a 32-way conflict no layout moves) plus a fixable column read
    explicit = Instruction(kind="load", width=4, addresses=tuple(128 * i for i in range(32)))
    column = Instruction(kind="load", array="s", index=("lane", "0"))
    p = Pattern(arrays=(SharedArray("s", "float", (32, 32)),), block=(32, 1, 1), instructions=(explicit, column))
    adv = advise(p)
    assert adv.current.wavefronts == 64 and adv.ideal == 2
    assert adv.best.wavefronts == 33 and not adv.best.conflict_free
    assert adv.summary() == ("No candidate reaches the ideal of 2 wavefronts. The best, XOR col ^= row, takes 33 "
                             "(16.50x the ideal); the current layout takes 64.")


def test_misaligning_candidates_are_rejected():
    p = example("12_float4_loads.json")  # float4 loads of float sh[8][128]
    adv = advise(p, families=("padding",), max_padding=8)
    labels = [r.label for r in adv.ranked]
    assert "padding 4: float sh[8][132]" in labels
    assert not any(lbl.startswith(f"padding {k}:") for k in (1, 2, 3, 5, 6, 7) for lbl in labels)
    assert adv.rejected == 6
    # XOR swizzles of the column move whole float4 vectors (multiples of 4), never split them
    xors = advise(p, families=("xor",)).ranked
    assert xors and all("* " in r.label or not r.label.startswith("XOR col") for r in xors)


@pytest.mark.parametrize("name", ["06_transpose_32x32.json", "11_lane_column_8warps.json",
                                  "12_float4_loads.json", "13_double_loads_merge.json",
                                  "14_ldmatrix_x4_unswizzled.json", "10_remap_i_plus_i_div_32.json"])
def test_batched_costs_match_full_analysis(name):
    """The one-batch cost of every shortlisted candidate equals analyzing the applied pattern."""
    p = example(name)
    adv = advise(p)
    for r in adv.shortlist(None):
        applied = r.candidate.apply(p)
        t = analyze(applied, detail=False).totals()
        assert t.invalid == 0, r.label
        assert (t.kernel_wavefronts, t.kernel_ideal) == (r.wavefronts, r.ideal), r.label
        assert extra_bytes(applied) == r.extra_bytes and t.shared_bytes == r.shared_bytes


def test_repeat_counts_are_included():
    adv = advise(example("11_lane_column_8warps.json"))
    assert adv.current.wavefronts == 8 * 10_000 * 32
    assert adv.best.wavefronts == adv.ideal == 8 * 10_000


def test_two_arrays_combined_and_later_array_moves_by_bank_rows():
    a = SharedArray("a", "float", (32, 32))
    b = SharedArray("b", "float", (32, 32), base=4096)
    p = Pattern(arrays=(a, b), block=(32, 1, 1), instructions=(
        Instruction(kind="load", array="a", index=("lane", "0")),
        Instruction(kind="load", array="b", index=("lane", "1")),
    ))
    adv = advise(p)
    assert adv.current.wavefronts == 64
    assert adv.best.family == "combined" and adv.best.wavefronts == 2 and adv.best.extra_bytes == 0
    pad = advise(p, families=("padding",))
    assert pad.best.family == "combined" and pad.best.wavefronts == 2 and pad.best.extra_bytes == 256
    applied = pad.best.candidate.apply(p)
    assert [x.base for x in applied.arrays] == [0, 4096 + 128]
    assert applied.shared_bytes() == 4096 + 128 + 4224
    # one array padded alone: the other keeps its cost, and moves without changing banks
    one = Candidate("padding", "a padded", ((0, replace(a, padding=1)),)).apply(p)
    assert one.arrays[1].base == 4096 + 128
    assert analyze(one).totals().wavefronts == 1 + 32


def test_broken_instruction_is_an_error_not_a_ranking():
    p = Pattern(arrays=(SharedArray("s", "float", (32, 32)),), block=(32, 1, 1),
                instructions=(Instruction(kind="load", array="s", index=("lane + 1", "0")),))
    with pytest.raises(BankExplorerError) as e:
        advise(p)
    assert e.value.where == "instructions[0]" and "out of bounds" in e.value.message


def test_current_layout_misaligned_is_fixed_by_candidates():
    p = example("12_float4_loads.json")
    p = p.with_array(0, replace(p.arrays[0], padding=1))  # rows start misaligned for float4
    adv = advise(p)
    assert adv.current is None
    assert adv.best.wavefronts == 32 and adv.best.extra_bytes == 0


def test_cli_table_and_json(capsys):
    f = str(EXAMPLES / "06_transpose_32x32.json")
    assert main(["advise", f, "--top", "4"]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[1] == "Best: XOR col ^= row reaches the ideal of 64 wavefronts (now 1,056) for no extra memory."
    assert "  1 XOR col ^= row" in out and "padding 1: float tile[32][33]" in out
    assert main(["advise", f, "--json", "--gpu", "a100"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["gpu"]["key"] == "a100" and d["ideal"] == 64 and d["reaches_ideal"] is True
    first = d["candidates"][0]
    assert (first["label"], first["wavefronts"], first["extra_bytes"], first["blocks_per_sm"]) == ("XOR col ^= row", 64, 0, 8)
    assert first["arrays"][0]["transform"] == {"kind": "xor", "expr": "row", "target": 1}
    assert d["current"]["wavefronts"] == 1056


def test_cli_bad_input_is_one_line(capsys, tmp_path):
    f = str(EXAMPLES / "06_transpose_32x32.json")
    assert main(["advise", str(tmp_path / "missing.json")]) == 2
    assert main(["advise", f, "--only", "padding,foo"]) == 2
    assert main(["advise", f, "--top", "0"]) == 2
    assert main(["advise", f, "--gpu", "gtx480"]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and "unknown kind 'foo'" in err


def _two_arrays() -> Pattern:
    a = SharedArray("a", "float", (32, 32))
    b = SharedArray("b", "half", (16, 64), base=4096)
    return Pattern(arrays=(a, b), block=(32, 1, 1), instructions=(
        Instruction(kind="load", array="a", index=("lane", "0")),
        Instruction(kind="ldmatrix", matrices=4, array="b", index=("lane % 16", "lane / 16 * 8")),
    ))


@pytest.mark.parametrize("name", ["06_transpose_32x32.json", "08_xor_swizzle_col.json", "10_remap_i_plus_i_div_32.json",
                                  "14_ldmatrix_x4_unswizzled.json", "26_triton_swizzled_ldmatrix_float4.json", "two"])
def test_sizes_of_every_candidate_match_the_applied_pattern(name):
    """The ranking counts bytes without building each pattern; building it must agree."""
    p = _two_arrays() if name == "two" else example(name)
    adv = advise(p)
    assert len(adv.ranked) > 20
    for r in adv.ranked:
        q = r.candidate.apply(p)
        assert (r.extra_bytes, r.shared_bytes) == (extra_bytes(q), q.shared_bytes()), r.label
    for name_, pts in adv.curves.items():
        k = [a.name for a in p.arrays].index(name_)
        for pt in pts:
            q = Candidate("padding", "", ((k, replace(plain(p.arrays[k]), padding=pt.padding)),)).apply(p)
            assert pt.shared_bytes == q.shared_bytes()
