"""The manifest of measured kernels (``resources/hardware/kernels/manifest.json``) is in step with the
files: every truth file's kernels, their sources, inputs, blocks, measured totals, and the status
tests/test_emulator.py holds each to. A new batch folder is found without naming it anywhere."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))
import kernel_manifest  # noqa: E402

MANIFEST = kernel_manifest.load()
KERNELS = {k["name"]: k for k in MANIFEST["kernels"]}


def test_the_manifest_is_in_step_with_the_files():
    fresh = kernel_manifest.dumps(kernel_manifest.build_manifest(previous=MANIFEST))
    assert fresh == kernel_manifest.MANIFEST.read_text(), \
        "resources/hardware/kernels/manifest.json is out of step: run scripts/kernel_manifest.py"


def test_every_kernel_source_and_input_is_on_disk_and_every_source_is_listed():
    root = kernel_manifest.KERNELS
    for k in KERNELS.values():
        if k["source"] is None:  # a case of a batch's shared source (Triton's cases.json)
            assert k["topic"] == "Triton", k["name"]
            continue
        src = root / k["source"]
        assert src.is_file(), k["name"]
        for param, npy in k["inputs"].items():
            assert (src.parent / npy).is_file(), f"{k['name']}: input {param} = {npy} is missing"
        assert k["status"] in kernel_manifest.STATUSES
        assert (k["status"] in ("xfail", "totals-only", "refused")) == ("reason" in k), k["name"]
    listed = {k["source"] for k in KERNELS.values() if (k["source"] or "").endswith(".cu")}
    listed |= set(MANIFEST["not_kernels"])
    on_disk = {p.relative_to(root).as_posix() for p in root.rglob("*.cu")}
    assert on_disk == listed
    for p in MANIFEST["not_kernels"]:  # what is not a measured kernel is a program with a main()
        assert "int main(" in (root / p).read_text(), p


def test_the_statuses_are_the_emulator_tests_expectations():
    expect = kernel_manifest.expectations()
    by = {s: {n for n, k in KERNELS.items() if k["status"] == s} for s in kernel_manifest.STATUSES}
    assert by["xfail"] == set(expect.KNOWN)
    assert by["timing"] >= set(expect.TIMING)
    assert by["refused"] == set(expect.REFUSED)
    assert all(KERNELS[n]["code"] == "other" for n in by["totals-only"])
    assert all(KERNELS[n]["code"] == "same" for n in by["exact"])
    assert all(KERNELS[n]["code"] is None for n in by["unchecked"])
    if any(k["code"] for k in KERNELS.values()):  # findings say which compiler they hold for
        assert MANIFEST["nvrtc"]


def test_measured_totals_are_the_truth_files():
    root = kernel_manifest.KERNELS
    k = KERNELS["extra11/cub_radix_sort_pairs"]
    rec = json.loads((root / k["truth"]).read_text())["extra11/cub_radix_sort_pairs"]
    assert k["measured"]["shared_wavefronts"] == rec["shared_wavefronts"] == \
        sum(r.get("wavefronts") or 0 for r in rec["sass"])
    assert k["measured"]["executed"] == sum(r["executed"] for r in rec["sass"])
    assert k["topic"] == "CUB" and k["folder"] == "extra11"


def _kernel(root: Path, folder: str, name: str, text: str, executed: int = 4) -> dict:
    (root / folder).mkdir(parents=True, exist_ok=True)
    (root / folder / f"{name}.cu").write_text(text)
    return {f"{folder}/{name}": {"block": [32, 1, 1], "shared_executed": 1, "shared_wavefronts": 2,
                                 "sass": [{"sass": "LDS R0, [R1]", "executed": executed, "threads": 32,
                                           "pred_on_threads": 32, "wavefronts": 2}]}}


class _Expect:
    KNOWN = {"cute/b": "measured, not matched: the reason"}
    TIMING = set()
    REFUSED = {}


def test_a_new_folder_is_found_with_its_topic_and_status(tmp_path):
    (tmp_path / "cute").mkdir()
    (tmp_path / "cute" / "README.md").write_text("# CuTe tiles\n")
    truth = _kernel(tmp_path, "cute", "a", "__global__ void a(int *p) {}\n")
    truth.update(_kernel(tmp_path, "cute", "b", "// input: p = x.npy\n__global__ void b(int *p) {}\n"))
    truth.update(_kernel(tmp_path, "misc", "c", "#include <cub/cub.cuh>\n__global__ void c(int *p) {}\n"))
    (tmp_path / "cute" / "persass.json").write_text(json.dumps(truth))
    m = kernel_manifest.build_manifest(tmp_path, expect=_Expect)
    got = {k["name"]: (k["topic"], k["status"], k["inputs"], k["truth"]) for k in m["kernels"]}
    assert got == {"cute/a": ("CuTe", "unchecked", {}, "cute/persass.json"),
                   "cute/b": ("CuTe", "xfail", {"p": "x.npy"}, "cute/persass.json"),
                   "misc/c": ("CUB", "unchecked", {}, "cute/persass.json")}
    m = kernel_manifest.build_manifest(tmp_path, expect=_Expect, code={"cute/a": "same", "misc/c": "other"})
    assert [k["status"] for k in m["kernels"]] == ["exact", "xfail", "totals-only"]
    assert m["batches"]["cute"] == "CuTe tiles"
    assert json.loads(kernel_manifest.dumps(m)) == m


def test_one_kernel_in_two_truth_files_must_agree(tmp_path):
    a = _kernel(tmp_path, "x", "k", "__global__ void k(int *p) {}\n")
    (tmp_path / "persass.json").write_text(json.dumps(a))
    (tmp_path / "x" / "persass.json").write_text(json.dumps(a))
    assert list(kernel_manifest.discover(tmp_path)) == ["x/k"]
    (tmp_path / "x" / "persass.json").write_text(json.dumps(_kernel(tmp_path, "x", "k", "", executed=5)))
    with pytest.raises(kernel_manifest.ManifestError, match=r"x/k: .*persass.json and .*persass.json hold different"):
        kernel_manifest.discover(tmp_path)
