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

usage: python scripts/bench_emulator.py [--every N] [--repeat R]
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
    from bankexplorer.sass.run import emulate

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


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--every", type=int, default=1, help="one kernel in N")
    ap.add_argument("--repeat", type=int, default=1, help="runs of each command (the median is kept)")
    args = ap.parse_args()
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
