#!/usr/bin/env python3
"""Engine speed, as ratios against a plain per-lane Python implementation measured in the same run.

1. 100,000 mixed explicit warp instructions (every kind and width, 32/64-bit atomics with
   add/exch/cas, shared and generic addresses, random / strided / paired / partly inactive lanes): the vectorized engine (``count_wavefronts``, what ``analyze`` uses for
   the command line; and ``analyze_batch`` with the per-lane detail the views use) against
   ``bankexplorer.model.reference`` (the rules read lane by lane, bank by bank). All must agree.
2. Editing-sized patterns: a 1,024-thread block with 64 instructions, expressions included,
   analyzed end to end (expansion + engine + detail), as the window does on every edit.
3. The public batch form, ``bx.wavefronts(addresses (n, 32), kind=..., width=..., ...)``, on the
   same 100,000 instructions as numpy arrays (argument checks included) against the same reference.
4. The command on a big trace, end to end: ``bankexplorer analyze FILE --json`` on 200,000 mixed
   explicit instructions (a pattern file, ~45 MB) run as a subprocess, against a subprocess that only
   does ``json.load`` of the same file: wall time and peak memory (the child's own maximum RSS, from
   ``os.wait4``) as ratios, the best of ``--runs`` interleaved runs of each; its output checked
   against the per-lane reference on every count (wavefronts, executions, compare-and-swap loop
   loads). Then the same rows as a 1,000,000-instruction ``.jsonl`` trace: its peak memory.

usage: python scripts/bench_engine.py [--n 100000] [--repeat 5] [--trace-n 200000] [--big-n 1000000] [--runs 3]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bankexplorer.model import Instruction, Pattern, SharedArray, analyze  # noqa: E402
from bankexplorer.model.engine import WarpBatch, analyze_batch, count_wavefronts  # noqa: E402
from bankexplorer.model.hardware import KINDS  # noqa: E402
from bankexplorer.model.reference import reference_cas_loop, reference_wavefronts  # noqa: E402
from bankexplorer.model.hardware import atomic_is_native  # noqa: E402


def mixed_rows(n: int, seed: int = 1) -> list[dict]:
    rng = np.random.default_rng(seed)
    rows = []
    lanes = np.arange(32)
    for _ in range(n):
        kind = KINDS[rng.integers(len(KINDS))]
        m = 0
        if kind in ("ldmatrix", "stmatrix"):
            width, m = 16, int(rng.choice([1, 2, 4]))
        elif kind == "atomic":
            width = int(rng.choice([4, 8]))
        else:
            width = int(rng.choice([1, 2, 4, 8, 16]))
        space = "generic" if kind in ("load", "store") and rng.random() < 0.2 else "shared"
        op = str(rng.choice(["add", "exch", "cas"])) if kind == "atomic" else "add"
        style = rng.integers(4)
        if style == 0:
            a = rng.integers(0, 4096 // width, 32) * width
        elif style == 1:
            a = lanes * int(rng.integers(0, 40)) * width
        elif style == 2:
            a = lanes // int(rng.choice([2, 4])) * int(rng.integers(1, 9)) * width
        else:
            a = rng.integers(0, 8, 32) * width * 32
        addrs: list[int | None] = a.tolist()
        if kind not in ("ldmatrix", "stmatrix") and rng.random() < 0.3:
            for lane in np.flatnonzero(rng.random(32) < 0.25):
                addrs[lane] = None
        rows.append({"kind": kind, "width": width, "matrices": m, "addresses": addrs, "space": space, "op": op})
    return rows


def best(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def editing_pattern() -> Pattern:
    """A 1,024-thread block, 64 instructions over two 2-D tiles: what a user edits in the window."""
    arrays = (SharedArray("A", "float", (128, 128), padding=4), SharedArray("B", "half", (64, 64)))
    instrs = []
    for k in range(16):
        instrs += [
            Instruction("load", array="A", index=(f"threadIdx.y * 4 + {k % 4}", "threadIdx.x * 4 % 128")),
            Instruction("store", array="A", index=("threadIdx.x % 128", f"(threadIdx.y + {k}) % 128")),
            Instruction("load", width=16, array="A", index=("threadIdx.y", f"(lane * 4 + {4 * k}) % 128")),
            Instruction("ldmatrix", matrices=4, array="B", index=(f"(lane % 16 + {k}) % 64", "(lane / 16) * 8")),
        ]
    return Pattern("edit-sized", block=(32, 32, 1), arrays=arrays, instructions=tuple(instrs))


def bench_api(rows: list[dict], batch: WarpBatch, ref: np.ndarray, t_ref: float, repeat: int) -> None:
    """The batch form of the public API (``bx.wavefronts``) on ``rows`` as numpy arrays, against the
    reference's time; timed alternately with the engine's counts, so its overhead is measured under
    the same load."""
    import bankexplorer as bx

    addr = np.array([[-1 if a is None else a for a in r["addresses"]] for r in rows], np.int64)
    cols = {k: np.array([r[k] for r in rows]) for k in ("kind", "width", "matrices", "space", "op")}
    got = bx.wavefronts(addr, **cols)
    assert (got == ref).all(), "bx.wavefronts and reference disagree"
    t_api, t_eng = [], []
    for _ in range(repeat):
        t_eng.append(best(lambda: count_wavefronts(batch), 1))
        t_api.append(best(lambda: bx.wavefronts(addr, **cols), 1))
    t_api_best, t_eng_best = min(t_api), min(t_eng)
    print(f"  bx.wavefronts, batch form : {t_api_best * 1e3:9.1f} ms  speed-up {t_ref / t_api_best:6.1f}x "
          f"(arguments checked; all {len(rows):,} agree; engine alone {t_eng_best * 1e3:.1f} ms in the same loop)")


def pattern_instruction(r: dict, i: int) -> dict:
    """A row of :func:`mixed_rows` as a pattern file's explicit-address instruction."""
    d: dict = {"kind": r["kind"]}
    if r["kind"] in ("ldmatrix", "stmatrix"):
        d["matrices"], d["trans"] = r["matrices"], bool(i % 2)
    else:
        d["width"] = r["width"]
    if r["space"] != "shared":
        d["space"] = r["space"]
    if r["kind"] == "atomic" and r["op"] != "add":
        d["op"] = r["op"]
    d["addresses"] = r["addresses"]
    if i % 10 == 0:
        d["label"] = f"loop {i % 7}"
    return d


#: runs a command and reports its wall time, its own peak RSS and exit status. A small process of its
#: own starts it: Linux counts into a child's peak RSS the memory of the process that forked it, and
#: this script holds the benchmark's rows
_LAUNCHER = """
import json, os, subprocess, sys, time
t = time.perf_counter()
p = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL)
_pid, status, usage = os.wait4(p.pid, 0)
print(json.dumps([time.perf_counter() - t, usage.ru_maxrss * 1024, os.waitstatus_to_exitcode(status)]))
"""


def run_child(cmd: list[str]) -> tuple[float, int, int]:
    """Wall seconds, peak RSS (bytes) and exit status of one command, output discarded."""
    p = subprocess.run([sys.executable, "-c", _LAUNCHER, *cmd], capture_output=True, text=True, check=True)
    t, rss, code = json.loads(p.stdout)
    return t, rss, code


def check_against_reference(rows: list[dict], out: dict) -> int:
    """Every count of ``analyze --json`` against the per-lane reference; returns the rows checked."""
    got = out["instructions"]
    assert len(got) == len(rows), "one result per instruction"
    for k, (r, g) in enumerate(zip(rows, got)):
        w = 16 if r["kind"] in ("ldmatrix", "stmatrix") else r["width"]
        want = reference_wavefronts(r["kind"], w, r["addresses"], matrices=r["matrices"], space=r["space"], op=r["op"])
        execs, loads, load_ideal = 1, 0, 0
        if r["kind"] == "atomic" and not atomic_is_native(r["op"], w):
            execs, loads, load_ideal = reference_cas_loop(w, r["addresses"])
        if not any(a is not None for a in r["addresses"]):
            execs = 0
        assert (g["wavefronts"], g["executions"], g.get("loop_load_wavefronts", 0), g.get("loop_load_ideal", 0)) == \
            (want, execs, loads, load_ideal), (k, r, g)
    t = out["totals"]
    assert t["instructions"] == len(rows) and t["invalid"] == 0
    assert t["wavefronts"] == sum(g["wavefronts"] + g.get("loop_load_wavefronts", 0) for g in got)
    return len(got)


def bench_command(n: int, big: int, runs: int) -> None:
    cli = [sys.executable, "-m", "bankexplorer"]
    rows = mixed_rows(n, seed=3)
    with tempfile.TemporaryDirectory() as tmp:
        f = Path(tmp) / "trace.json"
        f.write_text(json.dumps({"format": "bankexplorer-pattern", "version": 1, "name": "bench",
                                 "instructions": [pattern_instruction(r, i) for i, r in enumerate(rows)]}))
        size = f.stat().st_size
        out = Path(tmp) / "out.json"
        with open(out, "w") as o:
            subprocess.run(cli + ["analyze", str(f), "--json"], stdout=o, check=True)
        checked = check_against_reference(rows, json.loads(out.read_text()))
        base, mine = [], []
        for _ in range(runs):  # interleaved: a busy machine slows both alike
            base.append(run_child([sys.executable, "-c", "import json, sys; json.load(open(sys.argv[1]))", str(f)]))
            mine.append(run_child(cli + ["analyze", str(f), "--json"]))
        assert all(m[2] == 0 for m in mine)
        tb, tm = min(b[0] for b in base), min(m[0] for m in mine)
        mb, mm = min(b[1] for b in base), min(m[1] for m in mine)
        print(f"analyze --json, {n:,} mixed explicit instructions ({size / 1e6:.0f} MB pattern file), end to end, "
              f"best of {runs}; all {checked:,} agree with the per-lane reference on every count")
        print(f"  json.load of the file      : {tb:6.2f} s  peak {mb / 2**20:6.0f} MB")
        print(f"  bankexplorer analyze --json: {tm:6.2f} s  peak {mm / 2**20:6.0f} MB   "
              f"time ratio {tm / tb:.2f}x (goal <= 2x), memory ratio {mm / mb:.2f}x (goal <= 3x)")
        # the same rows, repeated, as a .jsonl trace of `big` instructions
        g = Path(tmp) / "trace.jsonl"
        f.unlink()
        out.unlink()
        with open(g, "w") as w:
            w.write(json.dumps({"format": "bankexplorer-trace", "version": 1, "name": "bench",
                                "hardware": {"preset": "nvidia-sm70-sm90"}}) + "\n")
            lines = [json.dumps(pattern_instruction(r, i)) + "\n" for i, r in enumerate(rows)]
            for s in range(0, big, len(lines)):
                w.writelines(lines[: big - s])
        t, rss, code = run_child(cli + ["analyze", str(g), "--json"])
        assert code == 0
        print(f"analyze --json, {big:,}-instruction .jsonl trace ({g.stat().st_size / 1e6:.0f} MB): {t:.1f} s, "
              f"peak {rss / 2**20:.0f} MB (goal < 500 MB)")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=100_000)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--trace-n", type=int, default=200_000, help="instructions of the end-to-end run (0: skip)")
    ap.add_argument("--big-n", type=int, default=1_000_000, help="instructions of the .jsonl trace")
    ap.add_argument("--runs", type=int, default=3, help="interleaved runs of the end-to-end comparison")
    args = ap.parse_args()

    rows = mixed_rows(args.n)
    batch = WarpBatch.from_rows(rows)
    t0 = time.perf_counter()
    ref = np.array([reference_wavefronts(r["kind"], r["width"], r["addresses"], matrices=r["matrices"],
                                         space=r["space"], op=r["op"]) for r in rows])
    t_ref = time.perf_counter() - t0
    fast = count_wavefronts(batch)
    full = analyze_batch(batch)
    assert (fast.wavefronts == ref).all(), "engine (counts) and reference disagree"
    assert (full.wavefronts == ref).all(), "engine (detail) and reference disagree"
    t_fast = best(lambda: count_wavefronts(batch), args.repeat)
    t_full = best(lambda: analyze_batch(batch), args.repeat)
    print(f"{args.n:,} mixed warp instructions, all {args.n:,} agree with the reference")
    print(f"  per-lane Python reference : {t_ref * 1e3:9.1f} ms  ({t_ref / args.n * 1e6:.1f} us/instr)")
    print(f"  engine, counts            : {t_fast * 1e3:9.1f} ms  speed-up {t_ref / t_fast:6.1f}x")
    print(f"  engine, per-lane detail   : {t_full * 1e3:9.1f} ms  speed-up {t_ref / t_full:6.1f}x")
    bench_api(rows, batch, ref, t_ref, args.repeat)

    pat = editing_pattern()
    an = analyze(pat)
    assert not an.instruction_errors, an.instruction_errors
    times = []
    for _ in range(max(20, args.repeat * 4)):
        t = time.perf_counter()
        analyze(pat)
        times.append(time.perf_counter() - t)
    med, p95 = statistics.median(times), sorted(times)[int(0.95 * (len(times) - 1))]
    n_rows = len(an)
    t0 = time.perf_counter()
    for r in range(n_rows):
        reference_wavefronts(
            ["load", "store", "atomic", "ldmatrix", "stmatrix"][int(an.batch.kind[r])], int(an.batch.width[r]),
            [int(a) if act else None for a, act in zip(an.batch.addr[r], an.batch.active[r])],
            matrices=int(an.batch.matrices[r]))
    t_ref_edit = time.perf_counter() - t0
    print(f"editing-sized pattern: 1,024 threads x {len(pat.instructions)} instructions = {n_rows:,} warp instructions")
    print(f"  analyze (expand + engine + detail): median {med * 1e3:.2f} ms, p95 {p95 * 1e3:.2f} ms "
          f"(frame budget 16 ms; reference engine alone {t_ref_edit * 1e3:.1f} ms)")
    if args.trace_n:
        bench_command(args.trace_n, args.big_n, args.runs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
