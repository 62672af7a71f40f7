#!/usr/bin/env python3
"""Export speed: the composed figure of the largest bundled example at 4x (PNG) and as SVG,
end to end (analysis, layout, painting, encoding, atomic write), against one engine analysis of
the same pattern measured in the same run. The goal: under 2 s per export.

"Largest" = the example with the most shared memory (ties: the most warp instructions), the
one whose tile and banks panels hold the most cells.

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


def largest_example() -> Path:
    def size(path: Path):
        p = patternfile.load(path)
        return p.shared_bytes(), len(analyze(p, detail=False))

    return max(examples(), key=size)


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
    path = next(p for p in examples() if p.name == args.example) if args.example else largest_example()
    pattern = patternfile.load(path)
    timed(lambda: R.render(pattern, "figure", "png", 1), 1)  # warm-up: fonts, caches

    t_an, an = timed(lambda: analyze(pattern), args.repeat)
    scene = make_scene(pattern, an=an)
    t_layout, pic = timed(lambda: picture(scene, "figure"), args.repeat)
    t_paint, img = timed(lambda: R.to_image(pic, args.scale), args.repeat)
    w, h = R.pixel_size(pic, args.scale)
    results = {}
    with tempfile.TemporaryDirectory() as d:
        for fmt in ("png", "svg"):
            out = os.path.join(d, f"figure.{fmt}")
            t, _ = timed(lambda: R.export(pattern, "figure", out, scale=args.scale), args.repeat)
            results[fmt] = (t, os.path.getsize(out))

    print(f"example: {path.name} ({pattern.shared_bytes():,} B shared, {len(an)} warp instructions)")
    print(f"figure: {round(pic.width)} x {round(pic.height)} at 1x; PNG at {args.scale}x = {w} x {h} px")
    print(f"median of {args.repeat} runs on this machine")
    print(f"  engine analysis (reference)      {t_an * 1e3:8.1f} ms   1.0x")
    print(f"  figure layout                    {t_layout * 1e3:8.1f} ms")
    print(f"  painting {args.scale}x (QImage)            {t_paint * 1e3:8.1f} ms")
    ok = True
    for fmt, (t, size) in results.items():
        label = f"export PNG {args.scale}x, end to end" if fmt == "png" else "export SVG, end to end"
        print(f"  {label:<32} {t * 1e3:8.1f} ms {t / t_an:6.1f}x   {size / 1e3:,.0f} kB")
        ok &= t < GOAL_S
    print(f"goal: each export under {GOAL_S:.0f} s: {'met' if ok else 'NOT met'}")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
