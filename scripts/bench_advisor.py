#!/usr/bin/env python3
"""Advisor speed: ranking every candidate layout of each bundled example, against analyzing the
pattern once (the work the window does on every edit), measured in the same run.

For each example: the time of ``analyze(pattern)``; the time of ``advise(pattern)`` (padding,
XOR, CuTe Swizzle and remap candidates, all costed in one engine call); their ratio; and, as the
simple reference the one-batch design replaces, applying and analyzing every distinct candidate
one by one. The budget is 0.5 s per example for the ranking; the script exits 1 if any misses it.
A larger kernel (1,024 threads, four 128x128 tiles, stores and transposed loads in 16-step loops)
is timed after the examples, outside the budget: the window ranks such patterns on Run.

usage: python scripts/bench_advisor.py [--repeat 5] [--gpu h100] [--no-naive]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bankexplorer.advisor import advise  # noqa: E402
from bankexplorer.io import patternfile  # noqa: E402
from bankexplorer.model import Instruction, Loop, Pattern, SharedArray, analyze  # noqa: E402
from bankexplorer.resources import EXAMPLES  # noqa: E402

BUDGET_S = 0.5


def best_of(fn, repeat: int) -> float:
    """Median wall time of ``repeat`` calls, after one warm-up call (parser and index caches)."""
    fn()
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def large_kernel() -> Pattern:
    """Four float tiles[128][128] written by rows and read by columns by a 128x8 block."""
    loop = (Loop("k", 0, 16),)
    arrays = tuple(SharedArray(n, "float", (128, 128), base=i * 66 * 1024) for i, n in enumerate("abcd"))
    ins = []
    for n in "abcd":
        ins.append(Instruction(kind="store", array=n, index=("threadIdx.y + 8 * k", "threadIdx.x"), loops=loop))
        ins.append(Instruction(kind="load", array=n, index=("threadIdx.x", "threadIdx.y + 8 * k"), loops=loop))
    return Pattern(name="large kernel", arrays=arrays, block=(128, 8, 1), instructions=tuple(ins))


def naive(pattern, adv) -> float:
    """One full analysis per distinct ranked candidate: what a search without the batch would do."""
    t = time.perf_counter()
    for r in adv.ranked:
        analyze(r.candidate.apply(pattern), detail=False).totals()
    return time.perf_counter() - t


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--gpu", default="h100")
    ap.add_argument("--no-naive", action="store_true", help="skip the one-by-one reference")
    args = ap.parse_args(argv)

    hdr = (f"{'example':<40} {'cands':>5} {'dist.':>5} {'analyze':>9} {'advise':>9} {'ratio':>6}"
           + ("" if args.no_naive else f" {'1-by-1':>9} {'speedup':>7}") + "  budget")
    print(hdr)
    print("-" * len(hdr))
    worst = 0.0
    failed = []
    ratios = []
    for path in sorted(EXAMPLES.glob("*.json")):
        p = patternfile.load(path)
        t_an = best_of(lambda: analyze(p, detail=False), args.repeat)
        t_adv = best_of(lambda: advise(p, args.gpu), args.repeat)
        adv = advise(p, args.gpu)
        ratio = t_adv / t_an
        ratios.append(ratio)
        worst = max(worst, t_adv)
        ok = t_adv < BUDGET_S
        if not ok:
            failed.append(path.name)
        line = (f"{path.stem:<40} {adv.generated:>5} {adv.distinct:>5} {t_an * 1000:>7.2f}ms {t_adv * 1000:>7.1f}ms "
                f"{ratio:>5.0f}x")
        if not args.no_naive:
            t_naive = naive(p, adv)
            line += f" {t_naive * 1000:>7.0f}ms {t_naive / t_adv:>6.1f}x"
        print(line + ("  ok" if ok else "  OVER"))
    big = large_kernel()
    t_an = best_of(lambda: analyze(big, detail=False), 1)
    t_adv = best_of(lambda: advise(big, args.gpu), 1)
    adv = advise(big, args.gpu)
    print(f"{'(large kernel, not budgeted)':<40} {adv.generated:>5} {adv.distinct:>5} {t_an * 1000:>7.2f}ms "
          f"{t_adv * 1000:>7.0f}ms {t_adv / t_an:>5.0f}x")
    print("-" * len(hdr))
    print(f"slowest ranking {worst * 1000:.0f} ms (budget {BUDGET_S * 1000:.0f} ms per example); "
          f"ranking / one analysis: median {statistics.median(ratios):.0f}x, max {max(ratios):.0f}x")
    if failed:
        print("over budget: " + ", ".join(failed))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
