#!/usr/bin/env python3
"""Export speed: the composed figure of the largest bundled example at 4x (PNG) and as SVG,
end to end (analysis, layout, painting, encoding, atomic write), against one engine analysis of
the same pattern measured in the same run. The goal: under 2 s per export.

"Largest" = the example with the most shared memory (ties: the most warp instructions); the run
also times the example whose figure has the most pixels (the most to paint and to compress).

usage: python scripts/bench_export.py [--repeat 5] [--example NAME] [--scale 4]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bankexplorer.export import render as R  # noqa: E402
from bankexplorer.export.figure import picture  # noqa: E402
from bankexplorer.export.scene import make_scene  # noqa: E402
from bankexplorer.io import patternfile  # noqa: E402
from bankexplorer.model.analysis import analyze  # noqa: E402
from bankexplorer.resources import examples  # noqa: E402

GOAL_S = 2.0


def largest_examples() -> list[Path]:
    def size(path: Path):
        p = patternfile.load(path)
        return p.shared_bytes(), len(analyze(p, detail=False))

    def pixels(path: Path) -> float:
        pic = picture(make_scene(patternfile.load(path)), "figure")
        return pic.width * pic.height

    found = [max(examples(), key=size), max(examples(), key=pixels)]
    return list(dict.fromkeys(found))


def timed(fn, repeat: int) -> tuple[float, object]:
    times, out = [], None
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times), out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--example", default=None, help="example file name (default: the largest)")
    ap.add_argument("--scale", type=int, default=4)
    args = ap.parse_args()
    R.ensure_gui_app()
    paths = [next(p for p in examples() if p.name == args.example)] if args.example else largest_examples()
    ok = True
    for path in paths:
        ok &= bench(path, args.scale, args.repeat)
        print()
    print(f"goal: each export under {GOAL_S:.0f} s: {'met' if ok else 'NOT met'}")
    return 0 if ok else 1


def bench(path: Path, scale: int, repeat: int) -> bool:
    pattern = patternfile.load(path)
    timed(lambda: R.render(pattern, "figure", "png", 1), 1)  # warm-up: fonts, caches
    t_an, an = timed(lambda: analyze(pattern), repeat)
    scene = make_scene(pattern, an=an)
    t_layout, pic = timed(lambda: picture(scene, "figure"), repeat)
    t_paint, img = timed(lambda: R.to_image(pic, scale), repeat)
    w, h = R.pixel_size(pic, scale)
    results = {}
    with tempfile.TemporaryDirectory() as d:
        for fmt in ("png", "svg"):
            out = os.path.join(d, f"figure.{fmt}")
            t, _ = timed(lambda: R.export(pattern, "figure", out, scale=scale), repeat)
            results[fmt] = (t, os.path.getsize(out))
    print(f"example: {path.name} ({pattern.shared_bytes():,} B shared, {len(an)} warp instructions)")
    print(f"figure: {round(pic.width)} x {round(pic.height)} at 1x; PNG at {scale}x = {w} x {h} px")
    print(f"median of {repeat} runs on this machine")
    print(f"  engine analysis (reference)      {t_an * 1e3:8.1f} ms   1.0x")
    print(f"  figure layout                    {t_layout * 1e3:8.1f} ms")
    print(f"  painting {scale}x (QImage)            {t_paint * 1e3:8.1f} ms")
    ok = True
    for fmt, (t, size) in results.items():
        label = f"export PNG {scale}x, end to end" if fmt == "png" else "export SVG, end to end"
        print(f"  {label:<32} {t * 1e3:8.1f} ms {t / t_an:7.1f}x   {size / 1e3:,.0f} kB")
        ok &= t < GOAL_S
    return ok


if __name__ == "__main__":
    raise SystemExit(main())
