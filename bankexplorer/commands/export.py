"""``bankexplorer export FILE --view VIEW --out OUT.png|OUT.svg``: a figure without a display.

The drawing is :mod:`bankexplorer.export`'s (imported when the command runs). Every bad request
(unknown view, a file name that is neither .png nor .svg, a missing input, a folder that cannot
be written, an instruction or warp out of range) is one line on stderr and exit status 2; the
output file is written all at once or not at all.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from ..terminal import UsageError

if TYPE_CHECKING:
    import argparse

NAME = "export"
HELP = "draw a view or the composed figure as PNG or SVG (no display needed)"


def add_arguments(sp: argparse.ArgumentParser) -> None:
    from ..export import VIEWS  # (the names alone: the drawing's modules import Qt)
    from ..export.styles import STYLE_NAMES

    sp.add_argument("file", help="pattern file (.json)")
    sp.add_argument("--view", default="figure", metavar="VIEW",
                    help=f"what to draw: {', '.join(VIEWS)} (default: figure, all of them composed), or replay: "
                         "an animation (.gif, .png = APNG, .webp) of the instruction served wavefront by wavefront")
    sp.add_argument("--out", "-o", required=True, metavar="OUT",
                    help="output file: .png or .svg (replay: .gif, .png or .webp)")
    sp.add_argument("--scale", type=int, default=1, metavar="N", help="PNG pixels per figure pixel, 1 to 4 (default 1)")
    sp.add_argument("--style", default=None, metavar="STYLE",
                    help=f"{', '.join(STYLE_NAMES)} (default: the pattern's figure style)")
    sp.add_argument("--instruction", type=int, default=None, metavar="K",
                    help="pattern instruction to show (0-based; default: the one with the most wavefronts)")
    sp.add_argument("--warp", type=int, default=0, metavar="W", help="warp of the block to show (default 0)")
    sp.add_argument("--iteration", type=int, default=0, metavar="I",
                    help="loop iteration of the instruction (default 0)")
    sp.add_argument("--title", default=None, metavar="T", help="figure title (default: the pattern's name)")
    sp.add_argument("--compare", default=None, metavar="AFTER",
                    help="a second pattern file: draw FILE (before) and AFTER side by side with what changed")
    sp.add_argument("--instruction-after", type=int, default=None, metavar="K2",
                    help="with --compare: the AFTER pattern's instruction to pair with --instruction "
                         "(default: the same number; needed when the instruction counts differ)")


def _check_output(args: argparse.Namespace, format_of) -> None:
    """The cheap checks, before any file is read or anything drawn: a typo never waits for a render."""
    from ..export.render import check_scale, check_writable
    from ..export.styles import STYLE_NAMES

    if args.style is not None and args.style not in STYLE_NAMES:
        raise UsageError(f"unknown style {args.style!r} (styles: {', '.join(STYLE_NAMES)})")
    format_of(args.out)
    check_scale(args.scale)
    check_writable(args.out, (args.file, args.compare))


def _run_compare(args: argparse.Namespace) -> int:
    from ..export.compare import export_compare
    from ..export.render import format_of
    from ..io.patternfile import load as load_pattern

    if args.view not in ("figure", "compare"):
        raise UsageError(f"--compare draws one figure of both patterns; --view {args.view} cannot be combined with it")
    _check_output(args, format_of)
    before, after = load_pattern(args.file), load_pattern(args.compare)
    t0 = time.perf_counter()
    n, pic = export_compare(before, after, args.out, scale=args.scale, style=args.style, instruction=args.instruction,
                            instruction_after=args.instruction_after, warp=args.warp, title=args.title)
    print(f"wrote {args.out} ({n:,} bytes, compare, {time.perf_counter() - t0:.2f} s)")
    for c in pic.changes:
        print("  " + c.text)
    return 0


def _run_replay(args: argparse.Namespace) -> int:
    from ..export.replay import anim_format_of, export_replay
    from ..export.scene import make_scene
    from ..io.patternfile import load as load_pattern

    _check_output(args, anim_format_of)
    pattern = load_pattern(args.file)
    t0 = time.perf_counter()
    scene = make_scene(pattern, args.style, args.instruction, args.warp, args.iteration, args.title)
    n, frames = export_replay(scene, args.out, args.scale)
    print(f"wrote {args.out} ({n:,} bytes, replay, {frames} frames, {time.perf_counter() - t0:.2f} s)")
    return 0


def run(args: argparse.Namespace) -> int:
    from ..export import VIEWS
    from ..export.render import export, format_of
    from ..io.patternfile import load as load_pattern

    if args.compare is not None:
        return _run_compare(args)
    if args.instruction_after is not None:
        raise UsageError("--instruction-after only goes with --compare AFTER")
    if args.view == "replay":
        return _run_replay(args)

    if args.view not in VIEWS:
        raise UsageError(f"unknown view {args.view!r} (views: {', '.join(VIEWS)})")
    _check_output(args, format_of)
    pattern = load_pattern(args.file)
    t0 = time.perf_counter()
    n = export(pattern, args.view, args.out, scale=args.scale, style=args.style, instruction=args.instruction,
               warp=args.warp, iteration=args.iteration, title=args.title)
    print(f"wrote {args.out} ({n:,} bytes, {args.view}, {time.perf_counter() - t0:.2f} s)")
    return 0

