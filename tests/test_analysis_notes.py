"""Notes the analysis attaches to an instruction: how it compiles, and vector accesses whose bytes
are not the elements they name (the hardware reads ``width`` bytes from the first element)."""

import json
import subprocess
import sys

from bankexplorer.io import patternfile
from bankexplorer.model import analyze
from bankexplorer.model.layout import SharedArray, Transform
from bankexplorer.model.pattern import Instruction, Pattern

from conftest import EXAMPLES


def _pattern(col: str) -> Pattern:
    arr = SharedArray("s", "float", (32, 32), transform=Transform.make("cute", B=1, M=0, S=1, unit="element"))
    return Pattern(arrays=(arr,), instructions=(Instruction("load", width=16, array="s", index=("lane", col)),))


def test_scattered_float4_is_costed_at_its_first_element_and_flagged():
    a = analyze(_pattern("16"))  # Sw<1,0,1> on elements swaps s[r][4k+2] and s[r][4k+3]
    note = a.note(0)
    assert "s[0][16] reads bytes 64..79" in note and "s[0][18] at byte 76" in note
    assert a.result.wavefronts[0] == 32  # what LDS.128 at those addresses costs: a column, 32 rows of 128 B
    assert a.to_json()["instructions"][0]["note"] == note


def test_contiguous_vectors_have_no_note():
    plain = Pattern(arrays=(SharedArray("s", "float", (32, 32)),),
                    instructions=(Instruction("load", width=16, array="s", index=("lane", "16")),))
    assert analyze(plain).note(0) == ""
    for name in ("12_float4_loads", "15_ldmatrix_x4_swizzle343", "20_cute_sw333_ldmatrix_x4", "23_tma_128b_ldmatrix"):
        a = analyze(patternfile.load(EXAMPLES / f"{name}.json"))
        assert all(a.note(k) == "" for k in range(len(a.pattern.instructions))), name


def test_cli_prints_the_notes(tmp_path):
    f = tmp_path / "p.json"
    patternfile.save(_pattern("16"), f)
    p = subprocess.run([sys.executable, "-m", "bankexplorer", "analyze", str(f)], capture_output=True, text=True)
    assert p.returncode == 0 and "note on instruction 0: the 16-byte access at s[0][16]" in p.stdout
    p = subprocess.run([sys.executable, "-m", "bankexplorer", "analyze", str(f), "--json"], capture_output=True, text=True)
    assert "s[0][18] at byte 76" in json.loads(p.stdout)["instructions"][0]["note"]
