#!/usr/bin/env python3
"""Replay export speed: ``bankexplorer export FILE --view replay --out x.{gif,png,webp}`` for a
32-wavefront instruction at 2x, timed end to end as a user runs it (a fresh process: interpreter
start, imports, analysis, painting, frames, encoding, atomic write), for each format. The goal:
under 2 s wall for 32 wavefronts at --scale 2. Also reports the in-process stages (paint once +
quantize, the 34 frames with numpy, the encoder) of one run, and checks the frame count with
Pillow.

usage: python scripts/bench_replay.py [--repeat 5] [--example 06_transpose_32x32.json] [--scale 2]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

GOAL_S = 2.0
FORMATS = ("gif", "png", "webp")


def run_cli(example: Path, out: Path, scale: int) -> float:
    env = dict(os.environ)
    env.setdefault("QT_QPA_PLATFORM", "offscreen")
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-m", "bankexplorer", "export", str(example), "--view", "replay", "--out", str(out),
                    "--scale", str(scale), "--style", "slide"], check=True, capture_output=True, env=env, cwd=ROOT)
    return time.perf_counter() - t0


def stages(example: Path, scale: int) -> dict[str, float]:
    from bankexplorer.export import replay as R
    from bankexplorer.export.render import ensure_gui_app
    from bankexplorer.export.scene import make_scene
    from bankexplorer.io import patternfile

    ensure_gui_app()
    t = {}
    t0 = time.perf_counter()
    scene = make_scene(patternfile.load(example), "slide")
    t["load + analyze"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    pic = R.ReplayPicture(scene)
    fr = R._Frames(pic, scale)
    t["paint once + quantize"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    frames = [fr.frame(s) for s in pic.steps]
    t[f"{len(frames)} frames (numpy)"] = time.perf_counter() - t0
    t["size"] = frames[0].shape
    for fmt in FORMATS:
        t0 = time.perf_counter()
        R.encode(frames, fr.palette, [700] * len(frames), fmt)
        t[f"encode {fmt}"] = time.perf_counter() - t0
    return t


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--example", default="06_transpose_32x32.json")
    ap.add_argument("--scale", type=int, default=2)
    args = ap.parse_args()
    from PIL import Image

    from bankexplorer.resources import EXAMPLES

    example = EXAMPLES / args.example
    print(f"{args.example}, its most expensive instruction, --scale {args.scale}, --style slide")
    ok = True
    with tempfile.TemporaryDirectory() as d:
        for fmt in FORMATS:
            out = Path(d) / f"replay.{fmt}"
            run_cli(example, out, args.scale)  # warm the file cache
            times = [run_cli(example, out, args.scale) for _ in range(args.repeat)]
            with Image.open(out) as im:
                frames = im.n_frames
            med = statistics.median(times)
            ok &= med < GOAL_S
            print(f"  .{fmt:<4} {frames} frames, {out.stat().st_size / 1e6:5.2f} MB: median {med:.2f} s, "
                  f"min {min(times):.2f} s, max {max(times):.2f} s (goal {GOAL_S:.0f} s: "
                  f"{'ok' if med < GOAL_S else 'MISSED'})")
    print("stages of one in-process run:")
    for k, v in stages(example, args.scale).items():
        print(f"  {k}: {v if isinstance(v, tuple) else f'{v * 1000:.0f} ms'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
