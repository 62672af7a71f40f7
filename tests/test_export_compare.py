"""export --compare: before and after side by side, with the numbers that changed."""

import os
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

from bankexplorer.export import render as R
from bankexplorer.export.compare import compare_picture, export_compare
from bankexplorer.export.scene import ExportError
from bankexplorer.io import patternfile
from bankexplorer.resources import EXAMPLES

SVG = "{http://www.w3.org/2000/svg}"

#: every pair of bundled examples with the same instruction list (before, after)
PAIRS = [
    ("04_stride32_float.json", "10_remap_i_plus_i_div_32.json"),
    ("06_transpose_32x32.json", "07_transpose_padded_32x33.json"),
    ("06_transpose_32x32.json", "08_xor_swizzle_col.json"),
    ("06_transpose_32x32.json", "09_xor_swizzle_row_variant.json"),
    ("07_transpose_padded_32x33.json", "08_xor_swizzle_col.json"),
    ("07_transpose_padded_32x33.json", "09_xor_swizzle_row_variant.json"),
    ("08_xor_swizzle_col.json", "09_xor_swizzle_row_variant.json"),
    ("14_ldmatrix_x4_unswizzled.json", "15_ldmatrix_x4_swizzle343.json"),
    ("29_cute_ldmatrix_x4_unswizzled.json", "20_cute_sw333_ldmatrix_x4.json"),
]


@pytest.fixture(autouse=True)
def app(qapp):
    return R.ensure_gui_app()


def load(name):
    return patternfile.load(EXAMPLES / name)


def svg_texts(data: bytes) -> list[str]:
    return ["".join(t.itertext()) for t in ET.fromstring(data).iter(SVG + "text")]


def test_transpose_numbers_in_the_figure():
    pic = compare_picture(load("06_transpose_32x32.json"), load("07_transpose_padded_32x33.json"))
    texts = [c.text for c in pic.changes]
    assert "wavefronts, #1: 32 -> 1 (ideal 1)" in texts  # the column read, the costliest, by default
    assert "wavefronts per block: 1,056 -> 64 (100% efficient)" in texts
    assert "shared memory: 4,096 B -> 4,224 B (+128 B)" in texts
    svg = " ".join(svg_texts(R.to_svg(pic)))
    for s in ("32 → 1", "1,056 → 64", "+128 B", "BEFORE: Transpose tile[32][32]", "AFTER: Transpose tile[32][33] (padded)"):
        assert s in svg, s


@pytest.mark.parametrize("before,after", PAIRS)
def test_every_pair_of_examples_with_one_instruction_list(before, after, tmp_path):
    b, a = load(before), load(after)
    n, pic = export_compare(b, a, tmp_path / "c.svg")
    texts = svg_texts((tmp_path / "c.svg").read_bytes())
    joined = " ".join(texts)
    assert f"BEFORE: {b.name}" in joined and f"AFTER: {a.name}" in joined
    # same instruction and warp on both sides, drawn at the same scale
    assert pic.before.instruction == pic.after.instruction and pic.before.warp == pic.after.warp
    tb, ta = pic.placements["before.tile"][0], pic.placements["after.tile"][0]
    assert tb.cell == ta.cell
    assert pic.placements["before.banks"][0].cw == pic.placements["after.banks"][0].cw
    png = R.to_png(pic, 1)
    assert png.startswith(b"\x89PNG")


def test_compare_same_style_both_sides_and_the_after_instruction():
    b, a = load("06_transpose_32x32.json"), load("07_transpose_padded_32x33.json")
    pic = compare_picture(b, a, style="dark", instruction=0, instruction_after=1)
    assert pic.before.style is pic.after.style and pic.before.style.name == "dark"
    assert (pic.before.instruction, pic.after.instruction) == (0, 1)
    assert pic.changes[0].label == "wavefronts, #0 vs #1"


def test_different_instruction_counts_need_both_instructions():
    b, a = load("01_stride1_float.json"), load("06_transpose_32x32.json")
    with pytest.raises(ExportError, match="different instruction lists .* --instruction K --instruction-after K2"):
        compare_picture(b, a)
    with pytest.raises(ExportError, match="different instruction lists"):
        compare_picture(b, a, instruction=0)
    pic = compare_picture(b, a, instruction=0, instruction_after=1)
    assert [c.text for c in pic.changes][0] == "wavefronts, #0 vs #1: 1 -> 32 (ideal 1)"
    with pytest.raises(ExportError, match="--instruction-after 5 is out of range"):
        compare_picture(b, a, instruction=0, instruction_after=5)


# ---- the command ------------------------------------------------------------------------------
def cli(*args):
    env = dict(os.environ)
    env["DISPLAY"] = ":12345"  # no such display: the command must not need one
    env.pop("QT_QPA_PLATFORM", None)
    return subprocess.run([sys.executable, "-m", "bankexplorer", "export", *map(str, args)], capture_output=True,
                          text=True, timeout=120, env=env)


@pytest.mark.parametrize("scale,pair", [(1, 1), (2, 7), (3, 8), (4, 1)])
def test_cli_png_at_every_scale_headless(tmp_path, scale, pair):
    from PIL import Image

    before, after = PAIRS[pair]
    out = tmp_path / "fig.png"
    p = cli(EXAMPLES / before, "--compare", EXAMPLES / after, "--out", out, "--scale", scale, "--style", "slide")
    assert p.returncode == 0, p.stderr
    pic = compare_picture(load(before), load(after), style="slide")
    with Image.open(out) as im:
        assert im.size == (round(pic.width) * scale, round(pic.height) * scale)
    assert " -> " in p.stdout  # the changes, printed


def test_cli_svg_has_both_titles_and_the_given_title(tmp_path):
    out = tmp_path / "fig.svg"
    p = cli(EXAMPLES / "14_ldmatrix_x4_unswizzled.json", "--compare", EXAMPLES / "15_ldmatrix_x4_swizzle343.json",
            "--out", out, "--title", "Swizzle it")
    assert p.returncode == 0, p.stderr
    texts = " ".join(svg_texts(out.read_bytes()))
    assert "Swizzle it" in texts and "ldmatrix.x4 on half A[16][64]" in texts and "Swizzle<3,4,3>" in texts
    assert "32 → 4" in texts


@pytest.mark.parametrize("args,fragment", [
    (["--compare", "{ex}/01_stride1_float.json", "--out", "{d}/x.png"], "different instruction lists"),
    (["--compare", "{ex}/01_stride1_float.json", "--out", "{d}/x.png", "--instruction", "0"],
     "--instruction-after K2"),
    (["--compare", "{d}/missing.json", "--out", "{d}/x.png"], "missing.json"),
    (["--compare", "{ex}/07_transpose_padded_32x33.json", "--out", "{d}/x.gif"], "use a .png or .svg"),
    (["--compare", "{ex}/07_transpose_padded_32x33.json", "--out", "{d}/x.png", "--view", "tile"],
     "--view tile cannot be combined"),
    (["--compare", "{ex}/07_transpose_padded_32x33.json", "--out", "{d}/x.png", "--instruction", "2"],
     "--instruction 2 is out of range"),
    (["--compare", "{ex}/07_transpose_padded_32x33.json", "--out", "{d}/x.png", "--scale", "5"], "--scale must be"),
    (["--out", "{d}/x.png", "--instruction-after", "1"], "only goes with --compare"),
])
def test_cli_bad_input_exits_2_with_one_line(tmp_path, args, fragment):
    p = cli(EXAMPLES / "06_transpose_32x32.json", *[a.format(d=tmp_path, ex=EXAMPLES) for a in args])
    assert p.returncode == 2, p.stdout
    assert fragment in p.stderr and "Traceback" not in p.stderr, p.stderr
    assert len(p.stderr.strip().splitlines()) == 1
    assert list(tmp_path.iterdir()) == []


def test_advise_compare_draws_the_pattern_against_the_best_layout(tmp_path):
    env = dict(os.environ)
    env.pop("QT_QPA_PLATFORM", None)
    env["DISPLAY"] = ":12345"
    out = tmp_path / "adv.svg"
    p = subprocess.run([sys.executable, "-m", "bankexplorer", "advise", str(EXAMPLES / "06_transpose_32x32.json"),
                        "--top", "1", "--compare", str(out)], capture_output=True, text=True, timeout=120, env=env)
    assert p.returncode == 0, p.stderr
    assert "32 -> 1" in p.stderr  # the change, on stderr beside the table
    texts = " ".join(svg_texts(out.read_bytes()))
    assert "BEFORE: Transpose tile[32][32]" in texts and "AFTER: Transpose tile[32][32]: " in texts
