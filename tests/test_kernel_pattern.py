"""An executed kernel as a pattern: what a file round-trip keeps, reopening with no compiler,
what-if layout edits answered from the recorded elements, and bad recorded data refused."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from bankexplorer.compiler import nvrtc
from bankexplorer.io import patternfile as pf
from bankexplorer.model.analysis import analyze
from bankexplorer.model.errors import FileFormatError

ROOT = Path(__file__).resolve().parents[1]
KERNELS = ROOT / "resources" / "hardware" / "kernels"
needs_compiler = pytest.mark.skipif(not nvrtc.available(), reason="NVRTC / nvdisasm not installed")


def imported(name: str, block, **arrays):
    from bankexplorer.sass.launch import LaunchConfig
    from bankexplorer.kernels.cuda_source import emulate
    from bankexplorer.sass.to_pattern import kernel_pattern

    path = KERNELS / name
    src = path.read_text()
    cfg = LaunchConfig(block, arrays={k: np.asarray(v).tobytes() for k, v in arrays.items()})
    run = emulate(src, cfg, path=str(path))
    return run, kernel_pattern(run, src, path.stem, cfg=cfg, inputs={k: f"{k}.npy" for k in arrays}, path=str(path))


@needs_compiler
def test_round_trip_keeps_every_count_and_the_kernel(tmp_path):
    run, pat = imported("extra11/lut_indexed_by_input.cu", (256, 1, 1),
                        idx=np.load(KERNELS / "extra11" / re_input(KERNELS / "extra11/lut_indexed_by_input.cu", "idx")))
    f = tmp_path / "k.json"
    pf.save(pat, f)
    back = pf.load(f)
    assert back == pat and json.loads(f.read_text())["version"] == 2
    a, b = analyze(pat, detail=False), analyze(back, detail=False)
    assert a.totals() == b.totals()
    assert a.totals().wavefronts == sum(r.wavefronts or 0 for r in run.rows)
    assert back.kernel.text == (KERNELS / "extra11/lut_indexed_by_input.cu").read_text()
    assert dict(back.kernel.inputs) == {"idx": "idx.npy"} and back.kernel.file == "lut_indexed_by_input.cu"
    assert [r[:6] for r in back.kernel.sass] == [(r.pc, r.sass, r.line, r.executed, r.threads, r.pred_on_threads)
                                                 for r in run.rows]
    # every SASS shared-memory instruction is one pattern instruction; its rows are its executions
    assert sum(len(i.recorded) for i in back.instructions) == sum(r.executed for r in run.rows if r.wavefronts is not None
                                                                   and r.executed and r.wavefronts)


def re_input(path: Path, name: str) -> str:
    import re

    return dict(re.findall(r"//\s*input:\s*(\w+)\s*=\s*(\S+)", path.read_text()))[name]


@needs_compiler
def test_a_saved_kernel_reopens_with_no_compiler(tmp_path):
    _run, pat = imported("matmul_tiled.cu", (16, 16, 1))
    f = tmp_path / "m.json"
    pf.save(pat, f)
    want = analyze(pat, detail=False).totals().wavefronts
    code = ("import sys\n"
            "class Block:\n"
            "    def find_spec(self, name, path=None, target=None):\n"
            "        if name == 'nvidia' or name.startswith(('nvidia.', 'bankexplorer.compiler', 'bankexplorer.sass')):\n"
            "            raise ImportError('no compiler here: ' + name)\n"
            "sys.meta_path.insert(0, Block())\n"
            "from bankexplorer.io import patternfile as pf\n"
            "from bankexplorer.model.analysis import analyze\n"
            f"print(analyze(pf.load({str(f)!r}), detail=False).totals().wavefronts)\n")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    assert int(p.stdout) == want == 832
    p = subprocess.run([sys.executable, "-m", "bankexplorer", "analyze", str(f), "--json"], capture_output=True, text=True)
    assert json.loads(p.stdout)["totals"]["wavefronts"] == 832


@needs_compiler
def test_a_padding_edit_is_a_what_if_answered_at_once():
    _run, pat = imported("transpose_naive.cu", (32, 8, 1))
    before = analyze(pat, detail=False)
    assert not before.instruction_notes
    k = next(i for i, a in enumerate(pat.arrays) if a.ndim == 2)
    padded = pat.with_array(k, replace(pat.arrays[k], padding=1))
    assert pat.kernel.what_if(padded.arrays) == [pat.arrays[k].name]
    after = analyze(padded, detail=False)
    assert after.totals().wavefronts < before.totals().wavefronts  # the column read no longer conflicts
    notes = set(after.instruction_notes.values())
    assert notes and all(n.startswith("what-if:") for n in notes)
    assert pat.kernel.what_if(pat.arrays) == []


@needs_compiler
def test_a_vector_access_that_a_layout_breaks_is_said():
    _run, pat = imported("float4_rows.cu", tuple(json.loads((KERNELS / "measured.json").read_text())["float4_rows"]["block"])
                         + (1,) * (3 - len(json.loads((KERNELS / "measured.json").read_text())["float4_rows"]["block"])))
    k = 0
    odd = pat.with_array(k, replace(pat.arrays[k], padding=1))
    notes = " ".join(analyze(odd, detail=False).instruction_notes.values())
    assert "what-if" in notes and "not aligned" in notes


def test_bad_recorded_data_is_refused_with_its_path():
    base = {"format": "bankexplorer-pattern", "version": 2, "name": "x", "block": [32],
            "arrays": [{"name": "s", "type": "float", "dims": [64]}]}
    import base64
    import zlib

    def enc(a, dt):
        return base64.b64encode(zlib.compress(np.asarray(a, dt).tobytes())).decode()

    good = {"rows": 1, "warp": enc([0], "<i4"), "element": enc(np.arange(32), "<i4"),
            "offset": enc(np.zeros(32), "<i2"), "address": enc(np.arange(32) * 4, "<i4")}
    ok = dict(base, instructions=[{"kind": "load", "width": 4, "array": "s", "recorded": good}])
    assert analyze(pf.from_dict(ok), detail=False).totals().wavefronts == 1
    cases = [
        (dict(good, rows=2), "instructions[0].recorded.warp"),
        (dict(good, element="not base64!"), "instructions[0].recorded.element"),
        (dict(good, rows=10**9), "instructions[0].recorded.rows"),
        (dict(good, element=enc(np.arange(32) + 60, "<i4")), "instructions[0].recorded"),
        (dict(good, warp=enc([40], "<i4")), "instructions[0].recorded.warp"),
        # a zip bomb: a huge stream that decompresses past what the row count allows
        (dict(good, address=base64.b64encode(zlib.compress(bytes(50 << 20))).decode()), "instructions[0].recorded.address"),
    ]
    for rec, where in cases:
        bad = dict(base, instructions=[{"kind": "load", "width": 4, "array": "s", "recorded": rec}])
        with pytest.raises(FileFormatError) as e:
            pf.from_dict(bad)
        assert any(p.startswith(where) for p, _m in e.value.problems), e.value.problems


@needs_compiler
def test_the_commands_work_on_a_saved_kernel(tmp_path):
    """`import-cuda --out`, then what a user does with any pattern file: analyze it, draw it, replay
    its worst instruction and compare it with a padded what-if of itself."""
    src = KERNELS / "transpose_naive.cu"
    k = tmp_path / "t.json"

    def cli(*args):
        p = subprocess.run([sys.executable, "-m", "bankexplorer", *map(str, args)], capture_output=True, text=True,
                           cwd=tmp_path)
        assert p.returncode == 0, p.stderr[-1500:]
        return p.stdout

    cli("import-cuda", src, "--block", "32,8", "--out", k)
    res = json.loads(cli("analyze", k, "--json"))
    assert res["totals"]["wavefronts"] == 264  # the H100's count for this block (persass_resources.json)
    pat = pf.load(k)
    padded = pat.with_array(0, replace(pat.arrays[0], padding=1))
    p2 = tmp_path / "padded.json"
    pf.save(padded, p2)
    assert json.loads(cli("analyze", p2, "--json"))["totals"]["wavefronts"] == 16
    for out, extra in (("fig.png", ()), ("fig.svg", ()), ("replay.gif", ("--view", "replay")),
                       ("compare.png", ("--compare", p2))):
        cli("export", k, "--out", tmp_path / out, *extra)
        assert (tmp_path / out).stat().st_size > 1000, out
    assert b"<svg" in (tmp_path / "fig.svg").read_bytes()[:2000]
    assert (tmp_path / "replay.gif").read_bytes()[:6] in (b"GIF87a", b"GIF89a")
