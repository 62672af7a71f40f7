#!/usr/bin/env python3
"""Render the slide gallery: before/after comparisons of bundled examples that share an
instruction list, and two replays, to docs/slides/ with an index page (docs/slides/README.md),
with the same code as ``bankexplorer export --compare`` and ``--view replay``.

1x, the slide style, the strongest PNG compression and optimized GIFs, so the files stay small
enough for the repository (the command line's defaults favour speed instead).

usage: python scripts/make_slides.py [--out docs/slides]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bankexplorer.export import render as R  # noqa: E402
from bankexplorer.export.compare import compare_picture  # noqa: E402
from bankexplorer.export.replay import encode, replay_frames  # noqa: E402
from bankexplorer.export.scene import make_scene  # noqa: E402
from bankexplorer.io import patternfile  # noqa: E402
from bankexplorer.resources import EXAMPLES  # noqa: E402

COMPARISONS = [
    ("06_transpose_32x32", "07_transpose_padded_32x33", "padding one column"),
    ("06_transpose_32x32", "08_xor_swizzle_col", "an XOR swizzle, no extra memory"),
    ("14_ldmatrix_x4_unswizzled", "15_ldmatrix_x4_swizzle343", "ldmatrix.x4 with Swizzle<3,4,3>"),
    ("29_cute_ldmatrix_x4_unswizzled", "20_cute_sw333_ldmatrix_x4", "CuTe Sw<3,3,3>"),
]
REPLAYS = [
    ("06_transpose_32x32", "the 32-way column read: one lane per wavefront"),
    ("15_ldmatrix_x4_swizzle343", "ldmatrix.x4 on a swizzled tile: one 8x8 matrix per wavefront"),
]


def small_png(data: bytes) -> bytes:
    """256 colours are plenty for a figure of flat cells and text: a third of the bytes."""
    import io

    from PIL import Image

    im = Image.open(io.BytesIO(data)).convert("RGB").quantize(256, method=Image.Quantize.MEDIANCUT,
                                                              dither=Image.Dither.NONE)
    buf = io.BytesIO()
    im.save(buf, "PNG", optimize=True)
    return buf.getvalue()


def load(name: str):
    return patternfile.load(EXAMPLES / f"{name}.json")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=str(ROOT / "docs" / "slides"))
    args = ap.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    R.ensure_gui_app()
    lines = ["# Slides: before vs after, and replays", "",
             "Made by `python scripts/make_slides.py` with the same code as the command line "
             "(`bankexplorer export BEFORE.json --compare AFTER.json --out fig.png`, "
             "`bankexplorer export FILE --view replay --out replay.gif`), slide style, 1x.", "",
             "## Before vs after", ""]
    for b, a, what in COMPARISONS:
        pic = compare_picture(load(b), load(a), style="slide")
        name = f"compare_{b[:2]}_{a[:2]}.png"
        (out / name).write_bytes(small_png(R.to_png(pic, 1, quality=0)))
        lines += [f"### {b[:2]} → {a[:2]}: {what}", "",
                  "`" + "`, `".join(c.text for c in pic.changes) + "`", "",
                  f"```sh\nbankexplorer export resources/examples/{b}.json --compare resources/examples/{a}.json "
                  f"--style slide --out {name}\n```", "", f"![{b} vs {a}]({name})", ""]
        print("wrote", name)
    lines += ["## Replays", "",
              "One frame for the whole request, one per wavefront (its lanes outlined, the lanes still "
              "waiting faded, those served already in full colour), one for the totals.", ""]
    for ex, what in REPLAYS:
        scene = make_scene(load(ex), "slide")
        frames, pal, dur = replay_frames(scene, 1)
        name = f"replay_{ex[:2]}.gif"
        (out / name).write_bytes(encode(frames, pal, dur, "gif", small=True))
        lines += [f"### {ex[:2]}: {what}", "",
                  f"{len(frames)} frames ({len(frames) - 2} wavefronts + 2).", "",
                  f"```sh\nbankexplorer export resources/examples/{ex}.json --view replay --style slide --out {name}\n```",
                  "", f"![{ex} replay]({name})", ""]
        print("wrote", name)
    (out / "README.md").write_text("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
