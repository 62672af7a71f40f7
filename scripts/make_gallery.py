#!/usr/bin/env python3
"""Render the composed figure of every bundled example to docs/gallery/<example>.png, plus an
index page (docs/gallery/README.md), with the same code as ``bankexplorer export``.

Default style at 1x with the strongest PNG compression, so the whole gallery stays small enough
to live in the repository. PNGs of examples that no longer exist are removed.

usage: python scripts/make_gallery.py [--out docs/gallery] [--scale 1] [--style default]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bankexplorer.export import render as R  # noqa: E402
from bankexplorer.export.figure import picture  # noqa: E402
from bankexplorer.export.scene import make_scene  # noqa: E402
from bankexplorer.export.styles import STYLE_NAMES  # noqa: E402
from bankexplorer.io import patternfile  # noqa: E402
from bankexplorer.io.atomic import atomic_write  # noqa: E402
from bankexplorer.resources import examples  # noqa: E402


def worst_instruction(scene_pattern) -> int:
    """The instruction a reader should see first: the one with the most excess wavefronts (on a
    tie the later one: a kernel's reads usually follow the stores that fill the tile)."""
    from bankexplorer.model.analysis import analyze

    an = analyze(scene_pattern, detail=False)
    if not len(an):
        return 0
    excess = (an.result.wavefronts - an.result.ideal).clip(min=0)
    return int(an.source[len(excess) - 1 - int(excess[::-1].argmax())])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", default=str(ROOT / "docs" / "gallery"))
    ap.add_argument("--scale", type=int, default=1)
    ap.add_argument("--style", default="default", choices=STYLE_NAMES)
    args = ap.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    R.ensure_gui_app()
    t0 = time.perf_counter()
    made, total = [], 0
    for path in examples():
        pattern = patternfile.load(path)
        scene = make_scene(pattern, args.style, instruction=worst_instruction(pattern))
        data = R.to_png(picture(scene, "figure"), args.scale, quality=0)
        target = out / f"{path.stem}.png"
        atomic_write(target, data)
        made.append((path, scene))
        total += len(data)
        print(f"{target.name:<48} {len(data) / 1e3:7.0f} kB")
    keep = {f"{p.stem}.png" for p, _ in made}
    for stale in out.glob("*.png"):
        if stale.name not in keep:
            stale.unlink()
            print(f"removed {stale.name} (no such example any more)")
    lines = ["# Gallery", "",
             "The composed figure of every bundled example (`resources/examples/`), made by",
             "`python scripts/make_gallery.py`; each shows the instruction with the most excess wavefronts.",
             "The same picture comes from `bankexplorer export EXAMPLE.json --view figure --out FIG.png`.", ""]
    for path, scene in made:
        lines += [f"## {scene.title}", "", f"`{path.name}` · `{scene.heading()}`", "",
                  f"![{scene.title}]({path.stem}.png)", ""]
    atomic_write(out / "README.md", "\n".join(lines).encode("utf-8"))
    print(f"{len(made)} figures, {total / 1e6:.2f} MB, in {time.perf_counter() - t0:.1f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
