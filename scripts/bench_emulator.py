#!/usr/bin/env python3
"""Executing a kernel: how long ``bankexplorer import-cuda K.cu`` takes, end to end, on every
measured kernel, where the time goes, and how fast the emulator itself runs.

1. The whole command a user runs, as a fresh process, for every kernel measured on the H100
   (``resources/hardware/kernels``: ``persass_resources.json`` and ``extra11/persass.json``; with
   ``--every N`` one kernel in N): ``import-cuda K.cu --block ... --arg ... --sass-json OUT`` (the
   optimised build executed: what the checker runs), and the per-line report ``import-cuda K.cu
   --block ... --arg ...``, which also executes the unoptimised build (-G) for as written vs as
   compiled. Goals: median kernel under 1 s; the CUB radix sort block under 2 s (compiling and
   profiling one kernel on the GPU machine takes about 3.3 s).
2. The simple reference measured in the same run, per kernel: the compile step alone (NVRTC +
   nvdisasm, in process), so the ratio says what executing and costing adds to compiling.
3. In process, per stage (compile, disassemble, decode + launch, execute, cost), and the
   emulator's speed in warp instructions executed per second.
4. ``--loops``: the emulator's speed on the named loop kernels of ``scripts/bench_loops`` (a loop
   on shared memory, a CUB block sort in a loop), in warp instructions a second beside their compile
   time, measured in one run; goal 1,000,000 a second. ``--against DIR`` runs the same kernels with
   another checkout's emulator (a worktree of the code before a change: the reference), kernel by
   kernel in turn, and gives the ratio. ``--budget N``: also how long the endless
   loop (``endless_loop.cu``) takes to reach a budget of N warp instructions (the default budget,
   20,000,000, in under 30 s is the goal).

usage: python scripts/bench_emulator.py [--every N] [--repeat R] [--loops | --only-loops] [--against DIR]
       [--budget N]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
KERNELS = ROOT / "resources" / "hardware" / "kernels"


def kernels() -> dict[str, dict]:
    truth = json.loads((KERNELS / "persass_resources.json").read_text())
    truth.update(json.loads((KERNELS / "extra11" / "persass.json").read_text()))
    return truth


def inputs(path: Path) -> dict[str, Path]:
    return {n: path.parent / f for n, f in re.findall(r"//\s*input:\s*(\w+)\s*=\s*(\S+)", path.read_text())}


def command(path: Path, block, out: str | None) -> list[str]:
    args = [sys.executable, "-m", "bankexplorer", "import-cuda", str(path), "--block", ",".join(map(str, block))]
    args += ["--sass-json", out] if out else []
    for n, f in inputs(path).items():
        args += ["--arg", f"{n}={f}"]
    return args


def stages(path: Path, block) -> dict[str, float]:
    from bankexplorer.compiler import nvrtc
    from bankexplorer.compiler.kernel import disassemble_text
    from bankexplorer.kernels.cuda_source import compile_text as build
    from bankexplorer.sass.launch import LaunchConfig
    from bankexplorer.kernels.cuda_source import emulate

    src = path.read_text()
    t0 = time.perf_counter()
    b = build(src, path=str(path), disassemble=False)
    t1 = time.perf_counter()
    sass = disassemble_text(b.cubin)
    t2 = time.perf_counter()
    arrays = {n: np.load(f).tobytes() for n, f in inputs(path).items()}
    from bankexplorer.compiler.kernel import Build

    timings: dict[str, float] = {}
    r = emulate(src, LaunchConfig(tuple(block), arrays=arrays), path=str(path),
                build=Build(True, b.log, b.cubin, sass, b.name), timings=timings)
    t3 = time.perf_counter()
    assert nvrtc.available()
    return {"compile": t1 - t0, "disassemble": t2 - t1, **timings, "total_in_process": t3 - t0,
            "warp_instructions": r.warp_instructions}


LOOPS = ROOT / "scripts" / "bench_loops"


def _header(src: str, key: str) -> str | None:
    m = re.search(rf"//\s*{key}:\s*(.+)", src)
    return m.group(1).strip() if m else None


def loop_kernels(repeat: int, against: str | None = None, only: str | None = None) -> dict[str, float]:
    """Warp instructions a second of every named loop kernel (the best of ``repeat`` runs), beside
    its compile time (NVRTC + nvdisasm, in process, the compile cache off). ``against``: another checkout's folder (the
    emulator before a change: the reference), run on the same kernels in a subprocess, kernel by
    kernel in turn with this code so that both meet the same load; its rates and the ratio are printed too."""
    from bankexplorer.sass.launch import LaunchConfig
    from bankexplorer.kernels.cuda_source import compile_text, emulate

    rates = {}
    for path in sorted(LOOPS.glob("*.cu")):
        if path.stem.startswith("endless") or (only and path.stem != only):
            continue
        src = path.read_text()
        block = (*(int(x) for x in _header(src, "block").split(",")), 1, 1)[:3]
        scalars = {k: int(v) for k, v in (d.split("=") for d in (_header(src, "define") or "").split() if d)}
        # the compile time a user meets on a first open or an edit: the compile cache off for it
        before = os.environ.get("BANKEXPLORER_CACHE")
        os.environ["BANKEXPLORER_CACHE"] = "off"
        try:
            t = time.perf_counter()
            b = compile_text(src, "sm_90", scalars, str(path))
            compile_s = time.perf_counter() - t
        finally:
            if before is None:
                del os.environ["BANKEXPLORER_CACHE"]
            else:
                os.environ["BANKEXPLORER_CACHE"] = before
        best = cpu = None
        for _ in range(repeat):
            timings: dict[str, float] = {}
            c = time.process_time()
            r = emulate(src, LaunchConfig(block, scalars=scalars), path=str(path), build=b, timings=timings)
            c = time.process_time() - c
            best = timings["execute"] if best is None else min(best, timings["execute"])
            cpu = c if cpu is None else min(cpu, c)
        # the processor time of the whole run (decoding and costing included): what the machine's load
        # changes least, so the ratio to the reference is taken on it
        rates[path.stem] = rate = r.warp_instructions / cpu
        ref = ""
        if against:
            p = subprocess.run([sys.executable, __file__, "--only-loops", "--code", against, "--kernel", path.stem,
                                "--repeat", str(repeat)], capture_output=True, text=True)
            m = re.search(r"processor: ([\d,]+) a second", p.stdout)
            if not m:
                raise SystemExit(f"the reference failed on {path.stem}: {p.stderr.strip()[-300:]}")
            old = float(m.group(1).replace(",", ""))
            ref = f"; the reference {old:,.0f} a second: {rate / old:.2f}x"
        print(f"{path.stem:<16} compile {compile_s:5.2f} s; {r.warp_instructions:>9,} warp instructions: execute "
              f"{best:5.3f} s, {r.warp_instructions / best:>9,.0f} a second (goal 1,000,000); processor: {rate:,.0f} "
              f"a second{ref}", flush=True)
    return rates


def budget_time(budget: int) -> None:
    """How long the endless loop runs before a budget of ``budget`` warp instructions stops it."""
    from bankexplorer.sass.launch import LaunchConfig
    from bankexplorer.sass.run import BudgetExceeded
    from bankexplorer.kernels.cuda_source import emulate

    path = LOOPS / "endless_loop.cu"
    src = path.read_text()
    scalars = {k: int(v) for k, v in (d.split("=") for d in _header(src, "define").split())}
    t = time.perf_counter()
    try:
        # no time limit: the run must stop at the instruction budget (the 20 s time budget would end it first)
        emulate(src, LaunchConfig((256, 1, 1), scalars=scalars), path=str(path), budget=budget, seconds=None)
    except BudgetExceeded:
        pass
    else:
        raise SystemExit("the endless loop finished")
    s = time.perf_counter() - t
    print(f"endless loop: stopped by a budget of {budget:,} warp instructions after {s:.1f} s, compiling included "
          f"({budget / s:,.0f} a second; at that rate the default 20,000,000 take {2e7 * s / budget:.0f} s, goal 30 s)")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--every", type=int, default=1, help="one kernel in N")
    ap.add_argument("--repeat", type=int, default=1, help="runs of each command (the median is kept)")
    ap.add_argument("--loops", action="store_true", help="also the named loop kernels' warp instructions a second")
    ap.add_argument("--only-loops", action="store_true", help="only the loop kernels (and --budget)")
    ap.add_argument("--budget", type=int, default=0, help="time the endless loop to this many warp instructions")
    ap.add_argument("--against", metavar="DIR", help="the loop kernels also with DIR's emulator (another checkout: "
                                                     "the reference, e.g. a worktree of the last release)")
    ap.add_argument("--code", metavar="DIR", help=argparse.SUPPRESS)  # run DIR's bankexplorer (--against does)
    ap.add_argument("--kernel", help=argparse.SUPPRESS)  # one loop kernel (--against does)
    args = ap.parse_args()
    if args.code:
        sys.path.insert(0, str(Path(args.code).resolve()))
    if args.loops or args.only_loops:
        loop_kernels(max(args.repeat, 3), args.against, args.kernel)
    if args.budget:
        budget_time(args.budget)
    if args.only_loops:
        return 0
    truth = kernels()
    names = sorted(truth)[::args.every]
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "o.json")
        for name in names:
            path = KERNELS / f"{name}.cu"
            block = truth[name]["block"]
            walls, reports = [], []
            for _ in range(args.repeat):
                for o, times in ((out, walls), (None, reports)):
                    t = time.perf_counter()
                    p = subprocess.run(command(path, block, o), capture_output=True, text=True)
                    times.append(time.perf_counter() - t)
                    if p.returncode:
                        print(f"{name}: exit {p.returncode}: {p.stderr.strip()[-200:]}", file=sys.stderr)
            st = stages(path, block)
            st["report"] = statistics.median(reports)
            rows.append((name, statistics.median(walls), st))
            print(f"{name:<44} command {statistics.median(walls):5.2f} s  report {st['report']:5.2f} s  "
                  f"compile {st['compile']:5.2f}  "
                  f"disasm {st['disassemble']:4.2f}  execute {st['execute']:5.2f}  "
                  f"({st['warp_instructions']:,} warp instructions)", flush=True)
    wall = [w for _n, w, _s in rows]
    comp = [s["compile"] + s["disassemble"] for _n, _w, s in rows]
    exe = sum(s["execute"] for _n, _w, s in rows)
    wi = sum(s["warp_instructions"] for _n, _w, s in rows)
    print()
    print(f"{len(rows)} kernels; load average {os.getloadavg()[0]:.1f}")
    print(f"whole command: median {statistics.median(wall):.2f} s, p90 {np.percentile(wall, 90):.2f} s, "
          f"max {max(wall):.2f} s (goal: median under 1 s)")
    rep = [s["report"] for _n, _w, s in rows]
    print(f"per-line report (both builds executed): median {statistics.median(rep):.2f} s, "
          f"p90 {np.percentile(rep, 90):.2f} s, max {max(rep):.2f} s")
    print(f"reference, the compile step alone (NVRTC + nvdisasm): median {statistics.median(comp):.2f} s; "
          f"command / compile: median {statistics.median(w / c for w, c in zip(wall, comp)):.2f}x")
    print(f"emulator: {wi:,} warp instructions in {exe:.2f} s of execution: {wi / exe:,.0f} per second")
    for name, w, s in rows:
        if "radix_sort" in name:
            print(f"{name}: {w:.2f} s (goal 2 s), of which compiling {s['compile'] + s['disassemble']:.2f} s; "
                  f"the report {s['report']:.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
