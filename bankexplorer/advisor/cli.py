"""``bankexplorer advise FILE``: the ranked layouts for a pattern file, as a table or JSON.

Registered in :data:`bankexplorer.cli.COMMANDS` when the CLI loads its plugins, so the advisor's
command lives beside the advisor.
"""

from __future__ import annotations

import argparse
import json
import sys

from ..cli import COMMANDS, load_pattern
from .occupancy import GPUS
from .search import FAMILIES, Advice, advise


def _add(sp: argparse.ArgumentParser) -> None:
    sp.add_argument("file", help="pattern file (.json)")
    sp.add_argument("--json", action="store_true", help="machine-readable output")
    sp.add_argument("--gpu", default="h100", choices=list(GPUS), help="GPU for blocks per SM (default: h100)")
    sp.add_argument("--top", type=int, default=10, help="candidates to print (default 10)")
    sp.add_argument("--all", action="store_true",
                    help="every valid candidate, also those a simpler one of the same kind matches")
    sp.add_argument("--max-padding", type=int, default=None, metavar="N",
                    help="try row padding 0..N elements (default: one bank row, e.g. 32 floats)")
    sp.add_argument("--only", default=None, metavar="KINDS",
                    help=f"comma-separated candidate kinds to try ({', '.join(FAMILIES[1:5])})")
    sp.add_argument("--compare", default=None, metavar="OUT",
                    help="also draw the pattern (before) next to the best candidate (after): .png or .svg")
    sp.add_argument("--scale", type=int, default=2, metavar="N", help="with --compare: PNG scale 1 to 4 (default 2)")


def format_table(adv: Advice, top: int | None = 10, everything: bool = False) -> str:
    p = adv.pattern
    rows = adv.ranked[:top] if everything else adv.shortlist(top)
    lines = [f"{p.name}: {len(p.arrays)} array(s), block of {p.threads} threads, on {adv.gpu.name}",
             adv.summary(), ""]
    hdr = f"{'#':>3} {'layout':<58} {'wavefronts':>10} {'ideal':>8} {'extra B':>8} {'shared B':>9} {'blocks/SM':>9}"
    lines += [hdr, "-" * len(hdr)]
    for i, r in enumerate(rows, 1):
        label = r.label + (" (current)" if r.current and r.family != "current" else "")
        if len(label) > 58:
            label = label[:57] + "…"
        mark = "*" if r.conflict_free else " "
        lines.append(f"{i:>3} {label:<58} {r.wavefronts:>9,}{mark} {r.ideal:>8,} {r.extra_bytes:>8,} "
                     f"{r.shared_bytes:>9,} {r.blocks_per_sm:>9}")
    lines.append("-" * len(hdr))
    lines.append(f"* reaches the ideal. Wavefronts are per kernel (x repeat counts); blocks/SM from shared memory, "
                 f"threads and {adv.gpu.name}'s limits (registers not counted).")
    lines.append(f"{adv.generated:,} candidate layouts, {adv.distinct:,} distinct, {adv.rejected:,} rejected "
                 f"(out of bounds or misaligned), ranked in {adv.seconds * 1000:.0f} ms.")
    return "\n".join(lines)


def best_candidate_pattern(adv: Advice):
    """The pattern with the best-ranked candidate applied (None when the best is the pattern as it
    is): the "after" of a before/after comparison."""
    b = adv.best
    if b is None or b.current:
        return None
    after = b.candidate.apply(adv.pattern)
    from dataclasses import replace

    return replace(after, name=f"{adv.pattern.name}: {b.label}")


def _write_compare(adv: Advice, out: str, scale: int) -> None:
    from ..export.compare import export_compare
    from ..model.errors import BankExplorerError

    after = best_candidate_pattern(adv)
    if after is None:
        raise BankExplorerError("--compare: the pattern as it is already ranks first; nothing to compare")
    n, pic = export_compare(adv.pattern, after, out, scale=scale)
    print(f"wrote {out} ({n:,} bytes): " + "; ".join(c.text for c in pic.changes), file=sys.stderr)


def _run(args: argparse.Namespace) -> int:
    from ..model.errors import BankExplorerError

    if args.top < 1:
        raise BankExplorerError("--top must be at least 1")
    if args.max_padding is not None and not 0 <= args.max_padding <= 1024:
        raise BankExplorerError("--max-padding must be from 0 to 1024")
    families = ("padding", "xor", "cute", "remap")
    if args.only:
        families = tuple(f.strip() for f in args.only.split(",") if f.strip())
        bad = [f for f in families if f not in FAMILIES[1:5]]
        if bad:
            raise BankExplorerError(f"--only: unknown kind {bad[0]!r} (known: {', '.join(FAMILIES[1:5])})")
    if args.compare is not None:
        from ..export.render import check_scale, check_writable, format_of

        format_of(args.compare)
        check_scale(args.scale)
        check_writable(args.compare, (args.file,))
    pat = load_pattern(args.file)
    adv = advise(pat, args.gpu, max_padding=args.max_padding, families=families)
    if args.compare is not None:
        _write_compare(adv, args.compare, args.scale)
    if args.json:
        json.dump(adv.to_json(args.top, everything=args.all), sys.stdout)
        sys.stdout.write("\n")
    else:
        print(format_table(adv, args.top, args.all))
    return 0


COMMANDS["advise"] = (_add, _run, "rank padding and swizzle layouts that remove bank conflicts")
