"""export --view replay: an animation of one instruction served wavefront by wavefront."""

import os
import subprocess
import sys

import numpy as np
import pytest
from PIL import Image

from bankexplorer.export import render as R
from bankexplorer.export.replay import ReplayPicture, _Frames, export_replay
from bankexplorer.export.scene import ExportError, make_scene
from bankexplorer.io import patternfile
from bankexplorer.model.analysis import analyze, instruction_detail
from bankexplorer.model.replay import lane_text, replay_steps, wavefront_lanes
from bankexplorer.resources import EXAMPLES


@pytest.fixture(autouse=True)
def app(qapp):
    return R.ensure_gui_app()


def load(name):
    return patternfile.load(EXAMPLES / name)


def detail(name, k=0):
    an = analyze(load(name))
    return instruction_detail(an, an.row_of(k))


def test_wavefront_lanes_of_a_32_way_load_one_lane_each():
    det = detail("04_stride32_float.json")
    per = wavefront_lanes(det)
    assert [x.tolist() for x in per] == [[k] for k in range(32)]
    steps = replay_steps(det)
    assert len(steps) == 34 and [s.kind for s in (steps[0], steps[1], steps[-1])] == ["request", "wavefront", "totals"]
    s = steps[5]  # wavefront 4 serves lane 4; lanes 0-3 are done, 5-31 wait
    assert s.now.tolist() == [4] and s.done.tolist() == [0, 1, 2, 3] and s.waiting.tolist() == list(range(5, 32))


def test_wavefront_lanes_of_float4_and_cas():
    assert [x.tolist() for x in wavefront_lanes(detail("12_float4_loads.json"))] == \
        [list(range(8 * q, 8 * q + 8)) for q in range(4)]
    det = detail("16_atomics_cas_and_loops.json", 1)
    per = wavefront_lanes(det)
    assert len(per) == det.wavefronts and all(len(x) for x in per)
    assert lane_text([0, 1, 2, 3, 8, 10]) == "lanes 0–3, 8, 10" and lane_text([5]) == "lane 5"


@pytest.mark.parametrize("fmt", ["gif", "png", "webp"])
def test_frame_count_is_wavefronts_plus_two(tmp_path, fmt):
    out = tmp_path / f"r.{fmt}"
    n, frames = export_replay(make_scene(load("04_stride32_float.json"), "slide"), out, scale=1)
    assert frames == 34 and out.stat().st_size == n
    with Image.open(out) as im:
        assert getattr(im, "is_animated", False) and im.n_frames == 34


def test_each_frame_outlines_exactly_the_lanes_of_its_wavefront(tmp_path):
    scene = make_scene(load("04_stride32_float.json"), "default")
    out = tmp_path / "r.gif"
    export_replay(scene, out, scale=1)
    fr = _Frames(ReplayPicture(scene), 1)
    ink = tuple(scene.style.ink)
    with Image.open(out) as im:
        for k in (0, 1, 17, 31):
            im.seek(k + 1)
            rgb = np.asarray(im.convert("RGB"))
            for lane in range(32):
                edges = []
                for y0, y1, x0, x1 in fr.lane_boxes[lane]:
                    edges.append(tuple(rgb[y0, (x0 + x1) // 2]))  # the top edge's middle
                outlined = all(e == ink for e in edges)
                assert outlined == (lane == k), (k, lane, edges)


def test_replay_needs_a_valid_instruction(tmp_path):
    from dataclasses import replace

    p = load("06_transpose_32x32.json")
    bad = p.with_instruction(0, replace(p.instructions[0], index=("threadIdx.y + 40", "threadIdx.x")))
    with pytest.raises(ExportError, match="needs a valid instruction"):
        ReplayPicture(make_scene(bad, instruction=0))


def cli(*args):
    env = dict(os.environ)
    env["DISPLAY"] = ":12345"
    env.pop("QT_QPA_PLATFORM", None)
    return subprocess.run([sys.executable, "-m", "bankexplorer", "export", *map(str, args)], capture_output=True,
                          text=True, timeout=120, env=env)


def test_cli_replay_of_the_transpose_default_instruction(tmp_path):
    out = tmp_path / "t.png"  # .png: an animated PNG
    p = cli(EXAMPLES / "06_transpose_32x32.json", "--view", "replay", "--out", out, "--scale", 2, "--style", "slide")
    assert p.returncode == 0, p.stderr
    assert "34 frames" in p.stdout  # the 32-way column read, the costliest instruction
    with Image.open(out) as im:
        assert im.n_frames == 34 and im.format == "PNG"


@pytest.mark.parametrize("args,fragment", [
    (["--view", "replay", "--out", "{d}/x.svg"], "use .gif, .png (APNG) or .webp"),
    (["--view", "replay", "--out", "{d}/x.gif", "--scale", "0"], "--scale must be"),
    (["--view", "replay", "--out", "{d}/x.gif", "--instruction", "9"], "--instruction 9 is out of range"),
])
def test_cli_replay_bad_input_exits_2(tmp_path, args, fragment):
    p = cli(EXAMPLES / "06_transpose_32x32.json", *[a.format(d=tmp_path) for a in args])
    assert p.returncode == 2 and fragment in p.stderr and "Traceback" not in p.stderr, p.stderr
    assert list(tmp_path.iterdir()) == []
