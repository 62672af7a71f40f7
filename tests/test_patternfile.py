"""Pattern files: round trips, and every kind of bad file gets a precise, located message."""

import json

import pytest

from bankexplorer.io import patternfile as pf
from bankexplorer.model.errors import FileFormatError
from bankexplorer.resources import examples

BASE = {"format": "bankexplorer-pattern", "version": 1,
        "arrays": [{"name": "s", "type": "float", "dims": [32, 32]}],
        "block": [32, 1, 1],
        "instructions": [{"kind": "load", "array": "s", "index": ["lane", "0"]}]}


def problems_of(d):
    with pytest.raises(FileFormatError) as ei:
        pf.from_dict(d)
    return ei.value.problems


def with_(path, value):
    d = json.loads(json.dumps(BASE))
    cur = d
    keys = path.split(".")
    for k in keys[:-1]:
        cur = cur[int(k)] if k.isdigit() else cur[k]
    last = keys[-1]
    if value is ...:
        del cur[last]
    else:
        cur[int(last) if last.isdigit() else last] = value
    return d


@pytest.mark.parametrize("path", examples(), ids=lambda p: p.name)
def test_examples_round_trip(path, tmp_path):
    p = pf.load(path)
    out = tmp_path / "x.json"
    pf.save(p, out)
    assert pf.load(out) == p
    assert pf.loads(pf.dumps(p)) == p


def test_explicit_only_file_is_valid():
    p = pf.from_dict({"format": "bankexplorer-pattern", "version": 1,
                      "instructions": [{"kind": "load", "width": 4, "addresses": [0] * 32},
                                       {"kind": "ldmatrix", "matrices": 2, "trans": True, "addresses": [16 * i for i in range(32)]}]})
    assert len(p.instructions) == 2 and p.instructions[1].trans


@pytest.mark.parametrize("mutation,where,fragment", [
    (("instructions.0.width", 3), "instructions[0].width", "must be one of 1, 2, 4, 8, 16"),
    (("instructions.0.kind", "lod"), "instructions[0].kind", "must be one of load"),
    (("instructions.0.colour", 1), "instructions[0].colour", "unknown key"),
    (("extra", 1), "extra", "unknown key"),
    (("format", "other"), "format", "bankexplorer-pattern"),
    (("version", 99), "version", "newer than this BankExplorer"),
    (("version", "1"), "version", "must be an integer"),
    (("arrays.0.dims", [32, -1]), "arrays[0].dims[1]", "positive integer"),
    (("arrays.0.dims", [10**9]), "arrays[0].dims[0]", "absurdly large"),
    (("arrays.0.dims", [4096, 4096]), "arrays[0].dims", "too many"),
    (("arrays.0.padding", -1), "arrays[0].padding", "at least 0"),
    (("arrays.0.type", "float3"), "arrays[0].type", "unknown element type"),
    (("arrays.0.transform", {"kind": "magic"}), "arrays[0].transform.kind", "unknown transform"),
    (("block", [2048, 1, 1]), "block[0]", "more than a block can have"),
    (("block", [64, 32, 1]), "block", "2,048 threads"),
    (("block", "32"), "block", "list of 1 to 3"),
    (("instructions.0.index", ["lane"]), "instructions[0].index", "2 dimension(s), got 1"),
    (("instructions.0.index", ["lane +", "0"]), "instructions[0].index[0]", "expected a number"),
    (("instructions.0.index", ["__import__('os').system('x')", "0"]), "instructions[0].index[0]", "unexpected character"),
    (("instructions.0.array", "t"), "instructions[0].array", "unknown array 't'"),
    (("instructions.0.repeat", 0), "instructions[0].repeat", "at least 1"),
    (("instructions.0.loops", [{"var": "k", "start": 0, "stop": 10**6}]), "instructions[0].loops", "too many"),
    (("instructions.0.loops", [{"var": "lane", "stop": 2}]), "instructions[0].loops[0].var", "cannot be a loop variable"),
    (("instructions.0.active", "lane <"), "instructions[0].active", "expected a number"),
    (("instructions", {}), "instructions", "must be a list"),
    (("instructions", ...), "instructions", "is required"),
    (("hardware", {"preset": "nvidia-sm70-sm90", "banks": 16}), "hardware.preset", "generic"),
    (("hardware", {"preset": "generic", "banks": 3}), "hardware.banks", "must be one of"),
])
def test_bad_files_name_the_path(mutation, where, fragment):
    problems = problems_of(with_(*mutation))
    assert any(w == where and fragment in m for w, m in problems), problems


def test_too_many_warp_instructions_in_one_pass():
    """Each number within its own bound, together 32 warps x 4,096 loop steps: the window's
    analysis would take tens of seconds per edit (a fuzz walk over the side panel found it)."""
    d = with_("instructions.0.loops", [{"var": "k", "start": 0, "stop": 4096}])
    d["block"] = [1024, 1, 1]
    problems = problems_of(d)
    assert ("instructions", "131,072 warp instructions in one pass of the block is too many (at most 65,536): "
            "fewer threads, loop iterations or instructions") in problems
    d["block"] = [512, 1, 1]
    assert pf.from_dict(d).warps == 16  # 65,536: allowed


def test_all_problems_are_reported_at_once():
    d = with_("instructions.0.width", 3)
    d["arrays"][0]["padding"] = -2
    d["extra"] = True
    with pytest.raises(FileFormatError) as ei:
        pf.from_dict(d, "p.json")
    e = ei.value
    assert {w for w, _ in e.problems} >= {"instructions[0].width", "arrays[0].padding", "extra"}
    assert str(e).startswith("p.json: ") and "more problems" in str(e)


@pytest.mark.parametrize("text,fragment", [
    ('{"format": "bankexplorer-pattern", "version": 1, "instr', "not valid JSON"),
    ("[1, 2]", "top level must be a JSON object"),
    ("", "not valid JSON"),
    ("[" * 100000, "nested too deeply"),
])
def test_malformed_json(text, fragment, tmp_path):
    f = tmp_path / "bad.json"
    f.write_text(text)
    with pytest.raises(FileFormatError, match=fragment) as ei:
        pf.load(f)
    assert "bad.json" in str(ei.value)


def test_missing_file_binary_file_and_directory(tmp_path):
    with pytest.raises(FileFormatError, match="no such file"):
        pf.load(tmp_path / "nope.json")
    (tmp_path / "bin.json").write_bytes(b"\xff\xfe\x00")
    with pytest.raises(FileFormatError, match=r"line 1: a NUL byte .*binary file"):
        pf.load(tmp_path / "bin.json")
    (tmp_path / "latin1.json").write_bytes(b'{"name": "\xe9"}')
    with pytest.raises(FileFormatError, match="not UTF-8"):
        pf.load(tmp_path / "latin1.json")
    with pytest.raises(FileFormatError, match="directory"):
        pf.load(tmp_path)


def test_save_is_atomic(tmp_path, monkeypatch):
    p = pf.from_dict(BASE)
    target = tmp_path / "keep.json"
    pf.save(p, target)
    before = target.read_bytes()

    def boom(*a, **k):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(pf.os, "fsync", boom)
    with pytest.raises(OSError):
        pf.save(p, target)
    assert target.read_bytes() == before  # the old file is intact
    assert [f.name for f in tmp_path.iterdir()] == ["keep.json"]  # no temporary left behind


def test_schema_accepts_examples_and_rejects_bad():
    jsonschema = pytest.importorskip("jsonschema")
    from bankexplorer.resources import SCHEMA

    schema = json.loads(SCHEMA.read_text())
    v = jsonschema.Draft202012Validator(schema)
    for path in examples():
        errs = list(v.iter_errors(json.loads(path.read_text())))
        assert errs == [], (path.name, errs[0].message)
    assert list(v.iter_errors(with_("instructions.0.width", 3)))
    assert list(v.iter_errors(with_("extra", 1)))


def test_save_gives_normal_permissions_and_keeps_existing_ones(tmp_path):
    import os

    p = pf.from_dict(BASE)
    old = os.umask(0o022)
    try:
        pf.save(p, tmp_path / "new.json")
        assert (tmp_path / "new.json").stat().st_mode & 0o777 == 0o644  # not mkstemp's 0600
        (tmp_path / "mine.json").write_text("{}")
        os.chmod(tmp_path / "mine.json", 0o640)
        pf.save(p, tmp_path / "mine.json")
        assert (tmp_path / "mine.json").stat().st_mode & 0o777 == 0o640
    finally:
        os.umask(old)
