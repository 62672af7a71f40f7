"""Big traces: the streaming analyze path (.json of explicit addresses, .jsonl traces), its
summary, convert, and the bad inputs it must refuse cleanly."""

import io
import json
import subprocess
import sys

import numpy as np
import pytest

from bankexplorer.cli import main
from bankexplorer.io import patternfile, trace
from bankexplorer.io.stream import Streamer
from bankexplorer.model.analysis import analyze
from bankexplorer.model.reference import reference_wavefronts

HEAD = {"format": "bankexplorer-pattern", "version": 1}
TRACE_HEAD = {"format": "bankexplorer-trace", "version": 1, "hardware": {"preset": "nvidia-sm70-sm90"}}


def mixed(n: int, seed: int = 7) -> list[dict]:
    """Every kind and width, atomics of several ops, generic loads, inactive lanes, labels, pcs."""
    rng = np.random.default_rng(seed)
    out = []
    lanes = np.arange(32)
    for i in range(n):
        kind = ["load", "store", "atomic", "ldmatrix", "stmatrix"][i % 5]
        d: dict = {"kind": kind}
        if kind in ("ldmatrix", "stmatrix"):
            d["matrices"], d["trans"], w = int(rng.choice([1, 2, 4])), bool(i % 2), 16
        else:
            w = int(rng.choice([4, 8])) if kind == "atomic" else int(rng.choice([1, 2, 4, 8, 16]))
            d["width"] = w
        if kind == "atomic":
            d["op"] = str(rng.choice(["add", "exch", "cas", "fadd", "min"]))
        if kind == "load" and i % 3 == 0:
            d["space"] = "generic"
        style = i % 4
        if style == 0:
            a = rng.integers(0, 4096 // w, 32) * w
        elif style == 1:
            a = lanes * int(rng.integers(0, 40)) * w
        elif style == 2:
            a = lanes // 2 * int(rng.integers(1, 9)) * w
        else:
            a = rng.integers(0, 8, 32) * w * 32
        addrs = a.tolist()
        if kind not in ("ldmatrix", "stmatrix") and i % 7 == 0:
            for lane in np.flatnonzero(rng.random(32) < 0.3):
                addrs[lane] = None
        d["addresses"] = addrs
        if i % 11 == 0:
            d["label"] = f"loop{i % 3}"
        if i % 13 == 0:
            d["pc"] = 16 * (i % 4)
        if i % 17 == 0:
            d["repeat"] = 5
        out.append(d)
    return out


def _stream(d: dict) -> dict:
    buf = io.StringIO()
    Streamer(trace.from_pattern_dict(json.loads(json.dumps(d)), "t.json", batch=700), buf, True).run()
    return json.loads(buf.getvalue())


def test_streaming_equals_in_memory_and_reference():
    instrs = mixed(3000)
    instrs[5]["addresses"] = instrs[5]["addresses"][:20]  # an instruction error: wrong count
    instrs[6]["addresses"][4] = 240_000  # past 228 KB: an error of that instruction
    d = {**HEAD, "instructions": instrs}
    an = analyze(patternfile.from_dict(json.loads(json.dumps(d))), detail=False)
    ref = an.to_json()
    ref["summary"] = an.summary().to_json(an.where)
    got = _stream(d)
    assert len(got["instructions"]) == 3000
    assert got["instructions"] == ref["instructions"]
    assert got["totals"] == ref["totals"]
    assert got["summary"] == ref["summary"]
    assert got["totals"]["invalid"] == 2 and got["totals"]["instructions"] == 3000
    assert got["instructions"][5]["error"] == "needs 32 addresses (one per lane), got 20"
    assert got["instructions"][6]["error"].startswith("lane 4: address 240,000 is past the end of shared memory")
    # the per-lane reference, row by row
    for k, (x, row) in enumerate(zip(instrs, got["instructions"])):
        if k in (5, 6):
            continue
        want = reference_wavefronts(x["kind"], x.get("width", 16), x["addresses"], matrices=x.get("matrices", 0),
                                    space=x.get("space", "shared"), op=x.get("op", "add"))
        assert row["wavefronts"] == want, (k, x)


def test_summary_exact_numbers(tmp_path, capsys):
    a32 = [lane * 128 for lane in range(32)]  # one bank: 32-way
    flat = [lane * 4 for lane in range(32)]
    lines = [TRACE_HEAD,
             {"kind": "load", "width": 4, "addresses": a32, "label": "A", "pc": 16},
             {"kind": "load", "width": 4, "addresses": flat, "label": "B"},
             {"kind": "store", "width": 4, "addresses": a32, "label": "A", "repeat": 2, "pc": 32}]
    f = tmp_path / "t.jsonl"
    f.write_text("\n".join(json.dumps(x) for x in lines) + "\n\n")
    assert main(["analyze", str(f), "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert [r["wavefronts"] for r in d["instructions"]] == [32, 1, 32]
    t = d["totals"]
    assert (t["instructions"], t["wavefronts"], t["ideal"], t["kernel_wavefronts"], t["worst_degree"]) == \
        (3, 65, 3, 97, 32)
    s = d["summary"]
    assert s["n_way_histogram"] == {"1": 1, "32": 2}
    assert [w["instruction"] for w in s["worst"]] == [0, 2, 1]
    assert s["by_label"] == [
        {"label": "A", "instructions": 2, "wavefronts": 64, "ideal": 2, "excess": 62, "kernel_wavefronts": 96},
        {"label": "B", "instructions": 1, "wavefronts": 1, "ideal": 1, "excess": 0, "kernel_wavefronts": 1}]
    assert [(g["pc"], g["wavefronts"]) for g in s["by_pc"]] == [(16, 32), (32, 32)]
    assert main(["analyze", str(f)]) == 0
    out = capsys.readouterr().out
    assert "N-way histogram (warp instructions): 1-way 1, 32-way 2" in out
    assert "per label" in out and "total: 65 wavefronts for 3 warp instructions" in out


def test_jsonl_same_as_pattern_and_convert_round_trip(tmp_path, capsys):
    d = {**HEAD, "name": "mix", "instructions": mixed(1200)}
    pj = tmp_path / "p.json"
    pj.write_text(json.dumps(d))
    tj = tmp_path / "p.jsonl"
    back = tmp_path / "back.json"
    assert main(["convert", str(pj), str(tj)]) == 0
    assert main(["convert", str(tj), str(back)]) == 0
    capsys.readouterr()
    lines = tj.read_text().splitlines()
    assert len(lines) == 1201 and json.loads(lines[0])["format"] == "bankexplorer-trace"
    outs = []
    for f in (pj, tj, back):
        assert main(["analyze", str(f), "--json"]) == 0
        outs.append(json.loads(capsys.readouterr().out))
    assert outs[0] == outs[1] == outs[2]
    assert json.loads(back.read_text())["instructions"] == d["instructions"]


def test_explicit_addresses_have_no_size_bound(tmp_path, capsys):
    """70,000 explicit instructions: more than the 65,536 per pass patterns with expressions may have."""
    row = {"kind": "load", "width": 4, "addresses": [lane * 8 for lane in range(32)]}  # 2-way
    f = tmp_path / "big.json"
    f.write_text(json.dumps({**HEAD, "instructions": [row] * 70_000}))
    assert main(["analyze", str(f), "--json"]) == 0
    t = json.loads(capsys.readouterr().out)["totals"]
    assert (t["instructions"], t["wavefronts"], t["ideal"]) == (70_000, 140_000, 70_000)
    # expressions keep their bound (it protects the window)
    g = tmp_path / "expr.json"
    g.write_text(json.dumps({**HEAD, "block": [1024, 1, 1], "arrays": [{"name": "s", "type": "float", "dims": [32]}],
                             "instructions": [{"kind": "load", "array": "s", "index": ["lane"],
                                               "loops": [{"var": "k", "start": 0, "stop": 4096}]}] * 1}))
    p = subprocess.run([sys.executable, "-m", "bankexplorer", "analyze", str(g)], capture_output=True, text=True)
    assert p.returncode == 2 and "at most 65,536" in p.stderr


def cli(*args):
    return subprocess.run([sys.executable, "-m", "bankexplorer", *map(str, args)], capture_output=True, text=True,
                          timeout=60)


HUGE = "9" * 5000
ROW = '{"kind": "load", "width": 4, "addresses": [%s]}' % ", ".join(["0"] * 32)


@pytest.mark.parametrize("name,text,fragment", [
    ("repeat.json", '{"format": "bankexplorer-pattern", "version": 1, "instructions": '
                    '[{"kind": "load", "width": 4, "repeat": %s, "addresses": [0]}]}' % HUGE,
     "instructions[0].repeat: must be at most 1,000,000,000,000, got a 5,000-digit number"),
    ("addr.json", '{"format": "bankexplorer-pattern", "version": 1, "instructions": '
                  '[{"kind": "load", "width": 4, "addresses": [-%s]}]}' % HUGE,
     "instructions[0].addresses[0]: must be a byte offset from 0 to 2^40 or null, got a 5,000-digit negative number"),
    ("dims.json", '{"format": "bankexplorer-pattern", "version": 1, "arrays": [{"name": "s", "dims": [%s]}], '
                  '"instructions": [{"kind": "load", "array": "s", "index": ["lane"]}]}' % HUGE,
     "arrays[0].dims[0]: a 5,000-digit number is absurdly large"),
    ("banks.json", '{"format": "bankexplorer-pattern", "version": 1, "hardware": {"preset": "generic", "banks": %s}, '
                   '"instructions": [%s]}' % (HUGE, ROW),
     "hardware.banks: must be one of 1, 2, 4, 8, 16, 32, 64"),
    ("width.jsonl", json.dumps(TRACE_HEAD) + "\n" + ROW + "\n" +
     '{"kind": "load", "width": %s, "addresses": [0]}\n' % HUGE, "line 3: width: must be one of 1, 2, 4, 8, 16"),
    ("pc.jsonl", json.dumps(TRACE_HEAD) + "\n" + ROW.replace('"kind"', '"pc": %s, "kind"' % ("1" * 40)) + "\n",
     "line 2: pc: must be at most 9,223,372,036,854,775,807, got 1,111,111,111,111,111,111,111,111,111,111,111,111,111"),
    ("kind.jsonl", json.dumps(TRACE_HEAD) + "\n\n" + ROW + "\n" + ROW.replace("load", "lod") + "\n",
     "line 4: kind: must be one of load, store, atomic, ldmatrix, stmatrix"),
    ("syntax.jsonl", json.dumps(TRACE_HEAD) + "\n" + ROW + "\n{\n", "line 3: not valid JSON"),
    ("header.jsonl", json.dumps({**TRACE_HEAD, "format": "x"}) + "\n" + ROW + "\n",
     "line 1: format: must be 'bankexplorer-trace'"),
    ("smem.json", '{"format": "bankexplorer-pattern", "version": 1, "hardware": {"preset": "generic", '
                  '"shared_bytes": %s}, "instructions": [%s]}' % (HUGE, ROW),
     "hardware.shared_bytes: must be at most 1,073,741,824, got a 5,000-digit number"),
])
def test_bad_input_exit_2_names_the_field(tmp_path, name, text, fragment):
    f = tmp_path / name
    f.write_text(text)
    p = cli("analyze", f)
    assert p.returncode == 2, p.stderr
    assert fragment in p.stderr and "Traceback" not in p.stderr
    assert len(p.stderr.strip().splitlines()) == 1


def test_address_past_shared_memory_is_an_instruction_error(tmp_path):
    ok = [lane * 4 for lane in range(32)]
    far = list(ok)
    far[3] = 1 << 30  # 1 GiB
    edge = list(ok)
    edge[0] = 233_472 - 4  # the last word of 228 KB: fine
    f = tmp_path / "far.json"
    f.write_text(json.dumps({**HEAD, "instructions": [{"kind": "load", "width": 4, "addresses": a}
                                                       for a in (ok, far, edge)]}))
    p = cli("analyze", f, "--json")
    assert p.returncode == 1
    rows = json.loads(p.stdout)["instructions"]
    assert rows[1]["wavefronts"] is None
    assert rows[1]["error"] == ("lane 3: address 1,073,741,824 is past the end of shared memory "
                                "(233,472 bytes on NVIDIA sm_70–sm_90)")
    assert rows[0]["wavefronts"] == 1 and rows[2]["wavefronts"] == 2
    # the generic preset's size is the file's to set
    g = tmp_path / "generic.json"
    far2 = list(ok)
    far2[3] = 1 << 29  # 512 MiB, inside the 1 GiB the file gives
    g.write_text(json.dumps({**HEAD, "hardware": {"preset": "generic", "shared_bytes": 1 << 30},
                             "instructions": [{"kind": "load", "width": 4, "addresses": a} for a in (far2, far)]}))
    p = cli("analyze", g, "--json")
    rows = json.loads(p.stdout)["instructions"]
    assert p.returncode == 1 and rows[0]["wavefronts"] == 2
    assert rows[1]["error"] == ("lane 3: address 1,073,741,824 is past the end of shared memory "
                                "(1,073,741,824 bytes on Generic (set your own numbers))")
    # the in-memory path (a pattern that also has expressions) says the same
    h = tmp_path / "mixed.json"
    h.write_text(json.dumps({**HEAD, "arrays": [{"name": "s", "type": "float", "dims": [32]}],
                             "instructions": [{"kind": "load", "array": "s", "index": ["lane"]},
                                              {"kind": "load", "width": 4, "addresses": far}]}))
    p = cli("analyze", h, "--json")
    assert p.returncode == 1
    assert json.loads(p.stdout)["instructions"][1]["error"].startswith("lane 3: address 1,073,741,824 is past")


def test_addresses_cut_from_the_text_match_the_parsed_path(tmp_path, capsys):
    """The command line reads a pattern file's address lists straight from its text (io/addresses.py);
    the numbers must be those of the parsed path, pretty-printed files and odd rows included."""
    instrs = mixed(2500, seed=5)
    instrs[3]["addresses"] = instrs[3]["addresses"][:7]
    instrs[4]["label"] = 'a "quoted" label with [brackets]'
    d = {**HEAD, "instructions": instrs}
    want = _stream(d)
    for indent in (None, 2):
        f = tmp_path / f"p{indent}.json"
        f.write_text(json.dumps(d, indent=indent))
        raw = f.read_bytes()
        from bankexplorer.io.addresses import cut

        assert cut(raw) is not None  # the fast path is taken
        assert main(["analyze", str(f), "--json"]) == 1  # row 3 has 7 addresses
        assert json.loads(capsys.readouterr().out) == want


@pytest.mark.parametrize("addresses,fragment", [
    ("[1.5, 0]", "instructions[1].addresses[0]: must be a byte offset from 0 to 2^40 or null, got 1.5"),
    ("[true, 0]", "instructions[1].addresses[0]: must be a byte offset from 0 to 2^40 or null, got True"),
    ('["4", 0]', "instructions[1].addresses[0]: must be a byte offset from 0 to 2^40 or null, got '4'"),
    ("[0, -4]", "instructions[1].addresses[1]: must be a byte offset from 0 to 2^40 or null, got -4"),
    ("[[0], 0]", "instructions[1].addresses[0]: must be a byte offset from 0 to 2^40 or null, got [0]"),
    ("[123456789012345678901234567890]", "instructions[1].addresses[0]: must be a byte offset from 0 to 2^40 or "
                                         "null, got 123456789012345678901234567890"),
    ("[]", "instructions[1].addresses: must be a list of byte offsets (null = inactive lane)"),
])
def test_odd_address_lists_keep_exact_messages(tmp_path, addresses, fragment):
    f = tmp_path / "odd.json"
    f.write_text('{"format": "bankexplorer-pattern", "version": 1, "instructions": [%s, '
                 '{"kind": "load", "width": 4, "addresses": %s}]}' % (ROW, addresses))
    p = cli("analyze", f)
    assert p.returncode == 2 and fragment in p.stderr and "Traceback" not in p.stderr, p.stderr


def test_key_inside_a_string_is_not_cut(tmp_path, capsys):
    row = {"kind": "load", "width": 4, "addresses": [lane * 4 for lane in range(32)],
           "label": 'x\\"addresses\\": [1, 2]'}
    f = tmp_path / "s.json"
    f.write_text(json.dumps({**HEAD, "instructions": [row, {**row, "label": '"addresses": [7]'}]}))
    assert main(["analyze", str(f), "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)["instructions"]
    assert [r["label"] for r in rows] == [row["label"], '"addresses": [7]']
    assert [r["wavefronts"] for r in rows] == [1, 1]
