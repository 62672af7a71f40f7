"""Exported figures: pixel sizes per scale, bank colours where the layout puts each element, SVG
text, the export command's errors and its all-or-nothing writes."""

import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from dataclasses import replace

import numpy as np
import pytest

from bankexplorer.export import render as R
from bankexplorer.export.figure import VIEWS, picture
from bankexplorer.export.scene import ExportError, make_scene
from bankexplorer.export.styles import STYLES
from bankexplorer.io import patternfile
from bankexplorer.model.pattern import Figure
from bankexplorer.resources import EXAMPLES

SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture(autouse=True)
def app(qapp):
    """pytest-qt's QApplication (a QGuiApplication made here would stop later widget tests)."""
    return R.ensure_gui_app()


def load(name):
    return patternfile.load(EXAMPLES / name)


def qimage(data: bytes):
    from PySide6.QtGui import QImage

    img = QImage()
    assert img.loadFromData(data, "PNG")
    return img


def rgb_at(img, x: float, y: float):
    c = img.pixelColor(int(x), int(y))
    return c.red(), c.green(), c.blue()


def svg_texts(data: bytes) -> list[str]:
    root = ET.fromstring(data)
    return ["".join(t.itertext()) for t in root.iter(SVG + "text")]


@pytest.mark.parametrize("view", VIEWS)
def test_png_pixel_size_is_base_size_times_scale(view):
    p = load("06_transpose_32x32.json")
    pic = picture(make_scene(p, instruction=1), view)
    base = (int(round(pic.width)), int(round(pic.height)))
    assert base[0] > 300 and base[1] > 200
    for scale in (1, 2, 4):
        img = qimage(R.render(p, view, "png", scale=scale, instruction=1))
        assert (img.width(), img.height()) == (base[0] * scale, base[1] * scale)
    # 4x is printed at the size of 1x: the resolution says so
    assert round(img.dotsPerMeterX() * 0.0254) == 4 * 96


@pytest.mark.parametrize("name,instruction", [("07_transpose_padded_32x33.json", 1), ("08_xor_swizzle_col.json", 1),
                                              ("15_ldmatrix_x4_swizzle343.json", 0), ("23_tma_128b_ldmatrix.json", 0),
                                              ("01_stride1_float.json", 0)])
@pytest.mark.parametrize("style", ["default", "slide"])
def test_tile_cells_have_the_bank_colour_of_their_element(name, instruction, style):
    """Every element's cell, at its centre, has the colour of the bank the layout maps it to
    (computed here from the array's byte addresses, not from the drawing code)."""
    p = load(name)
    scale = 2
    scene = make_scene(p, style=style, instruction=instruction)
    pic = picture(scene, "tile")
    img = qimage(R.to_png(pic, scale))
    panel, ox, oy = pic.placements["tile"]
    arr = scene.array
    hw = p.hardware
    idx = arr.all_indices()
    bank = (arr.byte_addresses(idx) // hw.bank_width) % hw.banks
    if arr.ndim == 1:
        cols = hw.row_bytes // arr.elem_size
        rows_, cols_ = idx[0] // cols, idx[0] % cols
    else:
        rows_, cols_ = idx[0], idx[1]
    accessed = {(run.row, c) for run in panel.runs for c in range(run.col, run.col + run.length)}
    assert accessed, "the instruction's cells are outlined"
    checked = 0
    for r, c, b in zip(rows_.tolist(), cols_.tolist(), bank.tolist()):
        if (r, c) in accessed or not panel.r0 <= r < panel.r1:
            continue  # a lane number sits at the centre of accessed cells
        x, y, w, h = panel.cell_rect(r, c)
        assert rgb_at(img, (ox + x + w / 2) * scale, (oy + y + h / 2) * scale) == scene.style.bank_rgb(b), (r, c, b)
        checked += 1
    assert checked >= arr.numel - len(accessed) - 8


def test_conflicting_cells_are_outlined_in_the_conflict_colour_and_numbered():
    p = load("06_transpose_32x32.json")  # instruction 1 reads a column: 32-way
    scene = make_scene(p, instruction=1)
    pic = picture(scene, "tile")
    img = qimage(R.to_png(pic, 2))
    panel, ox, oy = pic.placements["tile"]
    assert len(panel.runs) == 32 and all(r.conflict for r in panel.runs)
    assert sorted(r.lanes[0] for r in panel.runs) == list(range(32))
    for run in panel.runs:
        assert run.col == 0  # tile[x][y + 8k] with x = lane: column 0, row = lane
        x, y, w, h = panel.cell_rect(run.row, run.col)
        edge = (ox + x - panel.gap / 2 + 0.5) * 2, (oy + y + h / 2) * 2
        assert rgb_at(img, *edge) == scene.style.colors.conflict
    # the conflict-free row read has black outlines, no conflict colour
    ok = make_scene(p, instruction=0)
    assert not any(r.conflict for r in picture(ok, "tile").placements["tile"][0].runs)


@pytest.mark.parametrize("view", VIEWS)
def test_svg_is_xml_with_lane_labels_and_legend_as_text(view):
    p = load("06_transpose_32x32.json")
    data = R.render(p, view, "svg", instruction=1)
    root = ET.fromstring(data)
    assert root.tag == SVG + "svg"
    w, h = (float(v) for v in root.get("viewBox").split()[2:])
    pic = picture(make_scene(p, instruction=1), view)
    assert (w, h) == (round(pic.width), round(pic.height))
    texts = svg_texts(data)
    lanes = {str(n) for n in range(32)}
    assert lanes <= set(texts), "every lane number is text"
    legend = {"tile": ["bank colour", "bank conflict"], "banks": ["wavefront", "bank conflict"],
              "matrix": ["wavefront", "busiest bank's words (red: a conflict)"],
              "timeline": ["ideal (conflict-free) wavefronts", "excess wavefronts (conflicts)"],
              "figure": ["bank colour", "bank conflict", "wavefront", "32-way", "3%"]}[view]
    for t in legend:
        assert t in texts, t
    assert "Transpose tile[32][32]" in texts  # the title defaults to the pattern's name
    # shapes are vector shapes, not an embedded picture
    assert root.find(f".//{SVG}image") is None
    assert len(list(root.iter(SVG + "rect"))) >= 32


def test_svg_lists_font_fallbacks():
    data = R.render(load("01_stride1_float.json"), "tile", "svg").decode()
    fams = set(re.findall(r'font-family="([^"]*)"', data))
    assert "DejaVu Sans,Verdana,Arial,Helvetica,sans-serif" in fams
    assert all(f.endswith(",sans-serif") for f in fams), fams


def test_title_style_and_selection_come_from_the_pattern_or_the_call():
    p = load("06_transpose_32x32.json")
    assert make_scene(p).title == p.name and make_scene(p).style is STYLES["default"]
    q = replace(p, figure=Figure("dark", "Slide 3"))
    s = make_scene(q)
    assert s.title == "Slide 3" and s.style is STYLES["dark"]
    # no --instruction: the most expensive one (the 32-way column read), not the store before it
    assert s.instruction == 1 and s.det.wavefronts == 32
    s = make_scene(q, style="slide", title="Other", instruction=1, warp=3)
    assert (s.title, s.style.name, s.row) == ("Other", "slide", p and s.an.row_of(1, 0, 3))
    assert s.det.wavefronts == 32 and s.heading().startswith("#1 ")
    for kw, fragment in [({"instruction": 2}, "--instruction 2 is out of range"), ({"warp": 8}, "--warp 8"),
                         ({"style": "neon"}, "unknown style 'neon'"),
                         ({"instruction": 0, "iteration": 4}, "iteration 4 is out of range: instruction 0 has 4")]:
        with pytest.raises(ExportError, match=fragment):
            make_scene(p, **kw)


def test_invalid_instruction_renders_its_error_instead_of_crashing(tmp_path):
    p = load("06_transpose_32x32.json")
    ins = replace(p.instructions[0], index=("threadIdx.y + 40", "threadIdx.x"))  # out of bounds
    bad = p.with_instruction(0, ins)
    for view in VIEWS:
        # instruction 0 explicitly: by default a figure shows the costliest *valid* instruction
        text = " ".join(svg_texts(R.render(bad, view, "svg", instruction=0)))
        assert "index tile[40][0] is out of bounds" in text, view


def test_colorblind_palette_keeps_neighbours_apart():
    cb = STYLES["slide"].banks
    assert len({tuple(c) for c in cb.tolist()}) == 32
    for b in range(31):  # neighbouring banks never share a hue: large colour distance
        assert np.abs(cb[b].astype(int) - cb[b + 1].astype(int)).sum() >= 45


# ---- the command ------------------------------------------------------------------------------
def cli(*args):
    env = dict(os.environ)
    env["DISPLAY"] = ":12345"  # no such display: the command must not need one
    env.pop("QT_QPA_PLATFORM", None)
    return subprocess.run([sys.executable, "-m", "bankexplorer", "export", *map(str, args)], capture_output=True,
                          text=True, timeout=120, env=env)


def test_cli_writes_png_and_svg_headless(tmp_path):
    ex = EXAMPLES / "07_transpose_padded_32x33.json"
    out = tmp_path / "fig.png"
    p = cli(ex, "--view", "figure", "--out", out, "--scale", 2, "--style", "slide", "--instruction", 1, "--warp", 2)
    assert p.returncode == 0, p.stderr
    img = qimage(out.read_bytes())
    pic = picture(make_scene(load(ex.name), style="slide", instruction=1, warp=2), "figure")
    assert (img.width(), img.height()) == (round(pic.width) * 2, round(pic.height) * 2)
    svg = tmp_path / "tile.SVG"
    p = cli(ex, "--view", "tile", "--out", svg, "--title", "My slide")
    assert p.returncode == 0, p.stderr
    assert "My slide" in svg_texts(svg.read_bytes())
    assert sorted(f.name for f in tmp_path.iterdir()) == ["fig.png", "tile.SVG"]  # no temporaries left
    umask = os.umask(0)
    os.umask(umask)
    assert out.stat().st_mode & 0o777 == 0o666 & ~umask  # the usual permissions, not mkstemp's 0600


@pytest.mark.parametrize("args,fragment", [
    (["--view", "heatmap", "--out", "{d}/x.png"], "unknown view 'heatmap'"),
    (["--out", "{d}/x.jpg"], "use a .png or .svg file name"),
    (["--out", "{d}/x"], "use a .png or .svg file name"),
    (["--out", "{d}/missing/x.png"], "does not exist"),
    (["--out", "{d}/afile.txt/x.png"], "does not exist"),
    (["--out", "{d}"], "use a .png or .svg"),
    (["--out", "{d}/x.png", "--instruction", "2"], "--instruction 2 is out of range"),
    (["--out", "{d}/x.png", "--instruction", "-1"], "--instruction -1 is out of range"),
    (["--out", "{d}/x.png", "--warp", "8"], "--warp 8 is out of range"),
    (["--out", "{d}/x.png", "--scale", "5"], "--scale must be an integer from 1 to 4"),
    (["--out", "{d}/x.png", "--style", "neon"], "unknown style 'neon'"),
])
def test_cli_errors_exit_2_with_one_line_and_no_file(tmp_path, args, fragment):
    (tmp_path / "afile.txt").write_text("x")
    p = cli(EXAMPLES / "06_transpose_32x32.json", *[a.format(d=tmp_path) for a in args])
    assert p.returncode == 2, p.stdout
    assert fragment in p.stderr and "Traceback" not in p.stderr
    assert len(p.stderr.strip().splitlines()) == 1
    assert sorted(f.name for f in tmp_path.iterdir()) == ["afile.txt"]


def test_cli_missing_or_bad_input_exit_2(tmp_path):
    p = cli(tmp_path / "nope.json", "--out", tmp_path / "x.png")
    assert p.returncode == 2 and "no such file" in p.stderr
    bad = tmp_path / "bad.json"
    bad.write_text("{")
    p = cli(bad, "--out", tmp_path / "x.png")
    assert p.returncode == 2 and "not valid JSON" in p.stderr
    assert not (tmp_path / "x.png").exists()


@pytest.mark.skipif(hasattr(os, "geteuid") and os.geteuid() == 0, reason="root may write anywhere")
def test_cli_unwritable_folder_exit_2(tmp_path):
    ro = tmp_path / "ro"
    ro.mkdir()
    ro.chmod(0o500)
    try:
        p = cli(EXAMPLES / "01_stride1_float.json", "--out", ro / "x.png")
        assert p.returncode == 2 and "permission denied" in p.stderr
    finally:
        ro.chmod(0o700)


def test_failed_write_leaves_the_old_file_and_no_temporary(tmp_path, monkeypatch):
    out = tmp_path / "keep.png"
    out.write_bytes(b"old figure")

    def boom(*a, **k):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(R.os, "fsync", boom)
    with pytest.raises(ExportError, match="No space left"):
        R.export(load("01_stride1_float.json"), "tile", out)
    assert out.read_bytes() == b"old figure"
    assert [f.name for f in tmp_path.iterdir()] == ["keep.png"]


def huge_pattern():
    """A 1024 x 1027 array (more rows and columns than a figure shows) and a 600-iteration loop."""
    return patternfile.from_dict({
        "format": "bankexplorer-pattern", "version": 1, "name": "huge", "block": [1024, 1, 1],
        "arrays": [{"name": "s", "type": "float", "dims": [1024, 1024], "padding": 3}],
        "instructions": [
            {"kind": "load", "array": "s", "index": ["k", "tid"], "loops": [{"var": "k", "start": 0, "stop": 600}]},
            {"kind": "store", "array": "s", "index": ["tid", "700 + lane"]}]})


def test_a_big_array_shows_the_window_the_instruction_touches():
    scene = make_scene(huge_pattern(), instruction=1, warp=5)  # threads 160..191 write s[tid][700 + lane]
    pic = picture(scene, "tile")
    panel = pic.placements["tile"][0]
    assert (panel.r0, panel.r1, panel.c0, panel.c1) == (160, 224, 700, 828)
    assert panel.note == "rows 160–223 of 1024 and columns 700–827 of 1027 shown"
    assert [(r.row, r.col) for r in panel.runs] == [(160 + n, 700 + n) for n in range(32)]
    texts = svg_texts(R.to_svg(pic))
    assert {str(n) for n in range(32)} <= set(texts) and "700" in texts and "160" in texts
    assert pic.width < 1800 and pic.height < 1800  # a figure, not a poster


def test_a_tall_narrow_tile_shows_the_rows_it_reads_in_cells_whose_numbers_read():
    """Example 28's half A[128][8] in the composed figure: 64 rows of 10-pixel cells put the lane
    numbers in 4-pixel type; the 32 rows ldmatrix reads, in cells twice as big, are readable."""
    scene = make_scene(load("28_cute_mmajor_ldmatrix_trans.json"))
    pic = picture(scene, "figure")
    panel = pic.placements["tile"][0]
    assert (panel.r0, panel.r1) == (0, 32) and panel.note == "rows 0–31 of 128 shown"
    assert panel.cell >= 18
    assert all(r.row < 32 for r in panel.runs) and len({ln for r in panel.runs for ln in r.lanes}) == 32
    texts = svg_texts(R.to_svg(pic))
    assert {str(n) for n in range(32)} <= set(texts)


def test_thousands_of_warp_instructions_stay_a_small_svg():
    scene = make_scene(huge_pattern(), instruction=1, warp=5)
    data = R.to_svg(picture(scene, "timeline"))
    assert len(data) < 400_000
    assert "all 601 warp instructions of warp 5: 604 wavefronts vs ideal 601" in svg_texts(data)


def test_a_png_too_large_for_memory_is_refused(monkeypatch):
    monkeypatch.setattr(R, "MAX_PIXELS", 1_000_000)
    with pytest.raises(ExportError, match="too large for a PNG; use a smaller --scale or an .svg file"):
        R.render(load("06_transpose_32x32.json"), "figure", "png", scale=4)


def test_efficiency_never_reads_100_percent_with_excess():
    from bankexplorer.export.panel import pct

    assert (pct(1.0), pct(0.995), pct(19232 / 19328), pct(0.5)) == ("100%", "99.5%", "99.5%", "50%")


def test_unwritable_folder_is_refused_before_rendering(tmp_path, monkeypatch):
    """(As root every folder is writable, so the check itself is driven here.)"""
    monkeypatch.setattr(R.os, "access", lambda path, mode: False)
    monkeypatch.setattr(R, "render", lambda *a, **k: pytest.fail("rendered before checking the folder"))
    with pytest.raises(ExportError, match="cannot write in folder .*(permission denied)"):
        R.export(load("01_stride1_float.json"), "tile", tmp_path / "x.png")
    assert list(tmp_path.iterdir()) == []
