"""The GPU side: the rules the H100 verification run added, its data file, the probe program
generator, and the readers of Nsight Compute / cuobjdump output (checked on real output kept in
tests/data, so none of this needs a GPU)."""

import json
import re
import shutil
import subprocess
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from bankexplorer.cuda import measure
from bankexplorer.cuda.ops import op_for
from bankexplorer.cuda.probe import cases_from_pattern, generate_source, model_wavefronts, plan_launches
from bankexplorer.io import patternfile
from bankexplorer.model import analyze
from bankexplorer.model.engine import WarpBatch, count_wavefronts
from bankexplorer.model.errors import FileFormatError
from bankexplorer.model.layout import SharedArray
from bankexplorer.model.pattern import Instruction, Pattern
from bankexplorer.model.reference import reference_wavefronts

ROOT = Path(__file__).resolve().parent.parent
VERIFICATION = ROOT / "resources" / "hardware" / "h100_verification.jsonl"
EXAMPLES = ROOT / "resources" / "examples"
DATA = Path(__file__).resolve().parent / "data"


@pytest.fixture(scope="module")
def verification_rows() -> list[dict]:
    return [json.loads(ln) for ln in VERIFICATION.read_text().splitlines() if ln.strip()]


def _wavefronts(rows: list[dict]) -> list[int]:
    """Model wavefronts per row, summed over a multi-warp row's warps (as the probe measures)."""
    flat, owner = [], []
    for k, r in enumerate(rows):
        for w in r.get("warp_addresses") or [r["addresses"]]:
            flat.append({**r, "addresses": w})
            owner.append(k)
    wf = count_wavefronts(WarpBatch.from_rows(flat)).wavefronts
    return np.bincount(owner, weights=wf, minlength=len(rows)).astype(int).tolist()


# --- the verification data --------------------------------------------------------------------

def test_verification_data_is_what_the_readme_says(verification_rows):
    assert len(verification_rows) == 1825
    fam = Counter(r["family"] for r in verification_rows)
    assert fam["resample"] == 1235 and fam["example"] == 91
    assert sum(len(r.get("warp_addresses") or [0]) for r in verification_rows) == 2483
    assert Counter(r.get("verdict") for r in verification_rows if r.get("emulated"))["CAS loop retried"] == 23


def test_model_reproduces_every_verified_instruction(verification_rows):
    """Every measured case but the retried compare-and-swap loops: exact, warps summed."""
    rows = [r for r in verification_rows if r.get("verdict") != "CAS loop retried"]
    got = _wavefronts(rows)
    want = [round(r.get("wavefronts_block", r["wavefronts"])) for r in rows]
    wrong = [(r["id"], r["ptx"], r["family"], g, w) for r, g, w in zip(rows, got, want) if g != w]
    assert wrong == []
    assert all(float(r["wavefronts"]).is_integer() for r in rows if not r.get("warps"))


def test_retried_cas_loops_cost_at_least_one_iteration(verification_rows):
    """The model's one uncontended iteration is a lower bound, except for min/max, which skip the swap."""
    rows = [r for r in verification_rows if r.get("verdict") == "CAS loop retried"]
    got = _wavefronts(rows)
    for r, g in zip(rows, got):
        if r["ptx"].split(".")[2] in ("min", "max"):
            continue
        assert r["wavefronts"] >= g, r["id"]


def test_resampled_rows_agree_with_the_bundled_data(verification_rows, hardware_rows):
    by_id = {r["id"]: r for r in hardware_rows}
    again = [r for r in verification_rows if r["family"] == "resample"]
    assert {r["info"]["row"] for r in again} == set(by_id)
    assert all(r["wavefronts"] == by_id[r["info"]["row"]]["wavefronts"] for r in again)


def test_reference_implements_the_same_new_rules(verification_rows):
    rows = [r for r in verification_rows if r.get("verdict") != "CAS loop retried" and not r.get("warps")
            and r["kind"] in ("load", "store", "atomic")]
    for r in rows:
        parts = r["ptx"].split(".")
        op = ("fadd" if parts[2] == "add" and parts[-1].startswith("f") else parts[2]) if r["kind"] == "atomic" else "add"
        got = reference_wavefronts(r["kind"], r["width"], r["addresses"], space=r.get("space", "shared"), op=op)
        assert got == r["wavefronts"], (r["id"], r["ptx"])


# --- the rules, on patterns a user writes ---------------------------------------------------

def _one(ins: Instruction, dtype: str = "int", n: int = 1024) -> dict:
    p = Pattern(arrays=(SharedArray("s", dtype, (n,)),), instructions=(ins,))
    assert p.validate() == []
    return analyze(p).to_json()["instructions"][0]


def test_compare_and_swap_goes_through_the_banks_twice():
    assert _one(Instruction("atomic", array="s", index=("lane",)))["wavefronts"] == 1
    cas = _one(Instruction("atomic", array="s", index=("lane",), op="cas"))
    assert cas["wavefronts"] == 2 and cas["ideal"] == 2 and cas["n_way"] == 1
    assert _one(Instruction("atomic", array="s", index=("0",), op="cas"))["wavefronts"] == 64


def test_64_bit_atomics_are_served_per_half_warp():
    # every third lane, stride 8 bytes: no bank is hit twice in the warp, but two half-warps
    r = _one(Instruction("atomic", array="s", index=("lane",), op="exch", active="lane % 3 == 0"), "uint64")
    assert r["wavefronts"] == 2 and r["phases"] == 2


def test_float_and_64_bit_add_are_cas_loops_with_a_note():
    f = _one(Instruction("atomic", array="s", index=("lane",)), "float")
    assert f["op"] == "fadd" and f["wavefronts"] == 2 and "ATOMS.CAST.SPIN" in f["note"]
    i = _one(Instruction("atomic", array="s", index=("lane",)), "int")
    assert i["op"] == "add" and "note" not in i
    d = _one(Instruction("atomic", array="s", index=("lane",)), "double")
    assert d["wavefronts"] == 4 and "64-bit fadd" in d["note"]


def test_generic_address_loads_do_not_merge_half_warps():
    shared = _one(Instruction("load", array="s", index=("lane / 2",)), "float2")
    generic = _one(Instruction("load", array="s", index=("lane / 2",), space="generic"), "float2")
    assert (shared["wavefronts"], generic["wavefronts"]) == (1, 2)
    assert generic["space"] == "generic"
    # stores never merged anyway: the same either way
    st = [_one(Instruction("store", array="s", index=("lane / 2",), space=sp), "float2")["wavefronts"]
          for sp in ("shared", "generic")]
    assert st == [2, 2]


def test_examples_16_and_17_numbers():
    a = analyze(patternfile.load(EXAMPLES / "16_atomics_cas_and_loops.json"))
    assert a.result.wavefronts.tolist() == [1, 4, 2, 2, 2, 4]
    b = analyze(patternfile.load(EXAMPLES / "17_generic_pointer_float2.json"))
    assert b.result.wavefronts.tolist() == [1, 2, 1, 2]


def test_space_and_op_round_trip_and_validation(tmp_path):
    p = patternfile.load(EXAMPLES / "16_atomics_cas_and_loops.json")
    path = tmp_path / "p.json"
    patternfile.save(p, path)
    assert patternfile.load(path) == p
    d = json.loads(path.read_text())
    assert [i.get("op", "add") for i in d["instructions"]] == ["add", "add", "cas", "add", "exch", "add"]
    bad = {"format": "bankexplorer-pattern", "version": 1, "arrays": [{"name": "s", "type": "int", "dims": [64]}],
           "instructions": [{"kind": "load", "array": "s", "index": ["lane"], "op": "cas"},
                            {"kind": "atomic", "array": "s", "index": ["lane"], "space": "generic"},
                            {"kind": "atomic", "array": "s", "index": ["lane"], "op": "mul"}]}
    with pytest.raises(FileFormatError) as e:
        patternfile.from_dict(bad)
    msg = "\n".join(f"{path}: {m}" for path, m in e.value.problems)
    assert "instructions[0].op" in msg and "only atomics" in msg
    assert "instructions[1].space" in msg and "not atomic" in msg
    assert "instructions[2].op" in msg and "'mul'" in msg


# --- the probe program -------------------------------------------------------------------------

def test_instructions_map_to_the_ptx_that_was_measured():
    assert op_for("atomic", 4, op="cas").ptx == "atom.shared.cas.b32"
    assert op_for("atomic", 4, op="fadd").sass == "ATOMS.CAST.SPIN"
    assert op_for("atomic", 8, op="fadd").ptx == "atom.shared.add.f64"
    assert op_for("atomic", 8, op="exch").sass == "ATOMS.EXCH.64"
    assert op_for("load", 8, space="generic").ptx == "ld.v2.u32"
    assert op_for("store", 16).sass == "STS.128"


def _all_example_cases():
    cases = []
    for f in sorted(EXAMPLES.glob("*.json")):
        cs, _ = cases_from_pattern(patternfile.load(f), f.stem)
        cases += cs
    return cases


def test_probe_source_for_every_example_is_complete():
    cases = _all_example_cases()
    assert len(cases) >= 91  # 91 = every instruction x iteration of the examples measured on the H100
    src = generate_source(cases)
    for op in {c.op.ptx: c.op for c in cases}.values():
        assert f"__global__ void {op.ident}(" in src
        assert op.ptx in src
    assert src.count("{") == src.count("}") and "int main(" in src
    assert "#include" in src and "ptx" not in src.split("int main(")[1][:0]
    launches = plan_launches(cases)
    assert len(re.findall(r'^\s*\{\d+, \d+, \d+, ', src, re.M)) >= len(launches)


@pytest.mark.skipif(shutil.which("nvcc") is None, reason="nvcc not installed: the generated source is checked above")
def test_probe_compiles_with_nvcc(tmp_path):
    cu = tmp_path / "probe.cu"
    cu.write_text(generate_source(_all_example_cases()))
    p = subprocess.run(["nvcc", "-arch=sm_90", "-c", "-o", str(tmp_path / "probe.o"), str(cu)],
                       capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stderr[-2000:]


def test_cli_writes_the_probe(tmp_path):
    out = tmp_path / "probe.cu"
    p = subprocess.run([str(ROOT / ".venv" / "bin" / "bankexplorer") if (ROOT / ".venv" / "bin" / "bankexplorer").exists()
                        else "bankexplorer", "cuda", str(EXAMPLES / "16_atomics_cas_and_loops.json"), "--out", str(out)],
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    src = out.read_text()
    assert "atom.shared.cas.b32" in src and "atom.shared.add.f32" in src and "atom.shared.add.u64" in src


# --- reading the profiler and the disassembler (real H100 output) ------------------------------

def test_ncu_csv_of_examples_01_to_06_gives_their_measured_wavefronts():
    cases = []
    for name in ("01_stride1_float", "02_stride2_float", "03_stride8_float", "04_stride32_float",
                 "05_broadcast", "06_transpose_32x32"):
        cases += cases_from_pattern(patternfile.load(EXAMPLES / f"{name}.json"), name)[0]
    assert len(cases) == 14
    profile = measure.parse_ncu_csv((DATA / "ncu_examples_01_06.csv").read_text())
    assert len(profile) == 19  # 5 baselines (1, 2, 4, 8, 32 warps) then the 14 cases
    # the run had baselines for 1, 2, 4, 8 and 32 warps; rebuild its launch list for these cases
    from bankexplorer.cuda.probe import Launch
    launches = [Launch("probe_baseline", w, None) for w in (1, 2, 4, 8, 32)] + [
        Launch(c.op.ident, c.warps, k) for k, c in enumerate(cases)]
    metrics = {k: m for k, m in measure.ALL_METRICS.items() if m in profile[0]}
    rs = measure.results(cases, launches, profile, model_wavefronts(cases), metrics)
    assert [r.measured for r in rs] == [1, 2, 8, 32, 1, 1] + [8] * 4 + [256] * 4
    assert all(r.match and r.verdict == "ok" for r in rs)


def test_sass_reader_sees_what_the_compiler_emitted():
    kernels = measure.sass_memory_ops((DATA / "probe_excerpt.sass").read_text())
    ld = measure.find_kernel(kernels, "probe_ld_shared_u32")
    assert measure.check_sass(ld, "LDS") == (True, "LDS")
    assert measure.check_sass(measure.find_kernel(kernels, "probe_atom_shared_cas_b32"), "ATOMS.CAS") == (True, "ATOMS.CAS")
    fadd = measure.find_kernel(kernels, "probe_atom_shared_add_f32")
    ok, seen = measure.check_sass(fadd, "ATOMS.CAST.SPIN")
    assert not ok and seen == "ATOMS.CAST.SPIN" and "LDS" in fadd  # the CAS loop's own load
    assert measure.check_sass([o for o in fadd if not o.startswith("LDS")], "ATOMS.CAST.SPIN") == (True, "ATOMS.CAST.SPIN")
    ok, seen = measure.check_sass(measure.find_kernel(kernels, "probe_ld_v2_u32"), "LD")
    assert ok and seen.startswith("LD.E.64")


def test_verify_script_says_what_is_missing_without_a_gpu(tmp_path, monkeypatch):
    if shutil.which("nvcc") and shutil.which("ncu"):
        pytest.skip("this machine has the CUDA tools")
    p = subprocess.run([str(ROOT / ".venv" / "bin" / "python") if (ROOT / ".venv").exists() else "python3",
                        str(ROOT / "scripts" / "verify_on_gpu.py"), str(EXAMPLES / "01_stride1_float.json")],
                       capture_output=True, text=True, timeout=120, env={"PATH": "/usr/bin:/bin"})
    assert p.returncode == 3
    assert "cannot measure" in p.stderr and ("nvcc" in p.stderr or "GPU" in p.stderr)
