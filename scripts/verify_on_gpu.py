#!/usr/bin/env python3
"""Check the model on this machine's NVIDIA GPU: build the probe program of the given patterns
with nvcc, profile it with Nsight Compute (ncu), and print model vs measured per instruction.

    scripts/verify_on_gpu.py resources/examples/*.json
    scripts/verify_on_gpu.py --rows resources/hardware/h100_shared_wavefronts.jsonl --sample 100
    scripts/verify_on_gpu.py --new-cases --write-rows measured.jsonl
    scripts/verify_on_gpu.py --kernel kernel.cu [--block 32,8] [--kernel other.cu ...] [--write measured.json]

With ``--kernel``, whole kernels: each is launched on one block (pointer parameters get zeroed
16 MiB buffers, filled from the start by a ``// input: NAME = FILE.npy`` line or ``--arg
NAME=FILE.npy``; scalar parameters 64 or ``-D NAME=VALUE``), compiled with nvcc -O3 -lineinfo for
the local GPU and profiled with Nsight Compute's source page (``ncu --section SourceCounters
--page source --print-source sass --csv``). Per SASS instruction, its executed warp instructions,
threads, predicated-on threads and shared wavefronts and ideal (the columns of ``bankexplorer
import-cuda --sass-json``) are compared with the emulator's run of the same block, and the
instructions that differ are printed. Where nvcc here made other code than NVRTC (another CUDA
release), the shared-memory totals are compared instead.

Exit status: 0 every instruction matched, 1 some differed (or the compiler did not emit the
expected instruction), 2 bad input, 3 no GPU / nvcc / ncu here (the message says which).
"""

from __future__ import annotations

import argparse
import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bankexplorer.cuda import measure  # noqa: E402
from bankexplorer.cuda.probe import (  # noqa: E402
    REPS, Case, case_from_row, cases_from_pattern, generate_source, model_wavefronts, plan_launches)
from bankexplorer.model.errors import BankExplorerError  # noqa: E402

EXIT_DIFFERENT, EXIT_BAD_INPUT, EXIT_NO_GPU = 1, 2, 3


def say(*a) -> None:
    print(*a, flush=True)


def find_tool(name: str, extra: list[str]) -> str | None:
    found = shutil.which(name)
    if found:
        return found
    for pattern in extra:
        for p in sorted(glob.glob(pattern), reverse=True):
            if os.access(p, os.X_OK):
                return p
    return None


def find_tools() -> tuple[dict[str, str], list[str]]:
    """nvcc, ncu, cuobjdump and the GPU; the list says what is missing, in words."""
    tools, missing = {}, []
    nvcc = find_tool("nvcc", ["/usr/local/cuda/bin/nvcc", "/usr/local/cuda-*/bin/nvcc"])
    ncu = find_tool("ncu", ["/usr/local/cuda/bin/ncu", "/opt/nvidia/nsight-compute/*/ncu",
                            "/usr/local/cuda/nsight-compute-*/ncu"])
    if nvcc:
        tools["nvcc"] = nvcc
        cuobj = find_tool("cuobjdump", [str(Path(nvcc).resolve().parent / "cuobjdump"), "/usr/local/cuda/bin/cuobjdump"])
        if cuobj:
            tools["cuobjdump"] = cuobj
    else:
        missing.append("nvcc (the CUDA compiler) is not on PATH nor in /usr/local/cuda/bin")
    if ncu:
        tools["ncu"] = ncu
    else:
        missing.append("ncu (Nsight Compute) is not on PATH nor in /usr/local/cuda/bin or /opt/nvidia/nsight-compute")
    smi = shutil.which("nvidia-smi")
    gpu = None
    if smi:
        try:
            p = subprocess.run([smi, "--query-gpu=name,compute_cap,driver_version", "--format=csv,noheader"],
                               capture_output=True, text=True, timeout=60)
            line = p.stdout.strip().splitlines()[0] if p.returncode == 0 and p.stdout.strip() else ""
            if line:
                gpu = [x.strip() for x in line.split(",")]
        except (OSError, subprocess.TimeoutExpired):
            gpu = None
    if gpu and len(gpu) == 3:
        tools["gpu"], tools["compute_cap"], tools["driver"] = gpu
    else:
        missing.append("no NVIDIA GPU found (nvidia-smi " + ("lists none" if smi else "is not installed") + ")")
    return tools, missing


def sample_rows(rows: list[dict], n: int, seed: int = 6) -> list[dict]:
    """n rows spread over every instruction kind (at least one of each ptx), deterministic."""
    import numpy as np

    if n >= len(rows):
        return rows
    rng = np.random.default_rng(seed)
    by_ptx: dict[str, list[int]] = {}
    for i, r in enumerate(rows):
        by_ptx.setdefault(r["ptx"], []).append(i)
    pick = {int(rng.choice(v)) for v in by_ptx.values()}
    rest = [i for i in range(len(rows)) if i not in pick]
    pick |= {int(x) for x in rng.choice(rest, max(0, n - len(pick)), replace=False)}
    return [rows[i] for i in sorted(pick)]


def gather(args) -> tuple[list[Case], list[tuple[str, dict]]]:
    """Cases and, per case, (family, info) for the rows written with --write-rows."""
    from bankexplorer.io import patternfile

    cases: list[Case] = []
    tags: list[tuple[str, dict]] = []
    for f in args.files:
        try:
            pat = patternfile.load(f)
        except BankExplorerError as e:
            say(f"{f}: skipped, cannot be read: {e}")
            continue
        cs, skipped = cases_from_pattern(pat, Path(f).stem)
        for s in skipped:
            say(f"{f}: skipped {s}")
        cases += cs
        tags += [("example", {"file": Path(f).name, "instruction": c.source["instruction"],
                              "iteration": c.source["iteration"]}) for c in cs]
    if args.new_cases:
        from bankexplorer.cuda.newcases import new_cases

        for c in new_cases():
            cases.append(c)
            tags.append((c.source["family"], c.source["info"]))
    if args.rows:
        try:
            rows = [json.loads(ln) for ln in Path(args.rows).read_text().splitlines() if ln.strip()]
        except (OSError, ValueError) as e:
            raise BankExplorerError(f"{args.rows}: cannot read measured rows: {e}")
        if args.sample:
            rows = sample_rows(rows, args.sample)
        for r in rows:
            c = case_from_row(r)
            cases.append(c)
            tags.append(("resample", {"row": r.get("id"), "family": r.get("family"),
                                      "recorded_wavefronts": r.get("wavefronts")}))
    if not cases:
        raise BankExplorerError("nothing to measure: give pattern files, --rows or --new-cases")
    return cases, tags


def run(cmd: list[str], log: Path, timeout: float) -> subprocess.CompletedProcess:
    say("$ " + " ".join(cmd))
    t0 = time.time()
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    log.write_text(p.stdout + ("\n--- stderr ---\n" + p.stderr if p.stderr else ""))
    say(f"  exit {p.returncode} after {time.time() - t0:.1f} s (log: {log.name})")
    return p


def profile_in_chunks(ncu: str, exe: Path, metrics: dict[str, str], n: int, work: Path,
                      budget: float, chunk: int = 100) -> list[dict]:
    """Profile the launches ``chunk`` at a time (the program runs whole each time; ncu profiles a
    window of it), so that a slow profiler still returns what it measured before ``budget``
    seconds. Launches not reached come back as empty rows."""
    t0 = time.time()
    rows: list[dict] = []
    core = {k: m for k, m in metrics.items() if k in measure.WAVEFRONT_METRICS}
    for start in range(0, n, chunk):
        left = budget - (time.time() - t0)
        if left < 20:
            say(f"  out of time: launches {start}..{n - 1} not profiled")
            break
        count = min(chunk, n - start)
        cmd = [ncu, "--target-processes", "all", "--csv", "--page", "raw", "--print-units", "base",
               "--clock-control", "none", "--launch-skip", str(start), "--launch-count", str(count),
               "--metrics", ",".join(metrics.values()), str(exe), "-q"]
        try:
            p = run(cmd, work / f"ncu-{start}.csv", left)
            if p.returncode and metrics != core:  # an unknown metric? the wavefront counters alone
                say("  retrying with the wavefront counters only")
                metrics.clear()
                metrics.update(core)
                cmd[cmd.index("--metrics") + 1] = ",".join(metrics.values())
                p = run(cmd, work / f"ncu-{start}.csv", left)
        except subprocess.TimeoutExpired:
            say(f"  out of time in launches {start}..{start + count - 1}")
            break
        if p.returncode:
            raise BankExplorerError(f"ncu failed (exit {p.returncode}): {(p.stderr or p.stdout)[-1500:]}")
        got = measure.parse_ncu_csv(p.stdout)
        if len(got) != count:
            raise BankExplorerError(f"ncu profiled {len(got)} launches of {start}..{start + count - 1}")
        rows += got
    return rows + [{} for _ in range(n - len(rows))]


def tools_and_workdir(args, prefix: str) -> tuple[dict[str, str] | None, Path]:
    """The GPU tools (None, having said what is missing) and the work folder."""
    tools, missing = find_tools()
    for m in missing:
        print(f"verify_on_gpu: cannot measure: {m}", file=sys.stderr)
    work = Path(args.workdir or tempfile.mkdtemp(prefix=prefix))
    work.mkdir(parents=True, exist_ok=True)
    return (None if missing else tools), work


def versions(tools: dict[str, str]) -> dict[str, str]:
    v = {"gpu": tools.get("gpu", ""), "compute_capability": tools.get("compute_cap", ""),
         "driver": tools.get("driver", "")}
    for name in ("nvcc", "ncu"):
        try:
            out = subprocess.run([tools[name], "--version"], capture_output=True, text=True, timeout=60).stdout
            v[name] = " ".join(ln.strip() for ln in out.splitlines() if "release" in ln.lower() or "version" in ln.lower())
        except (OSError, KeyError, subprocess.TimeoutExpired):
            v[name] = "unknown"
    return v


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("files", nargs="*", help="pattern files (.json)")
    ap.add_argument("--rows", help="measured rows (.jsonl, the hardware data format) to measure again")
    ap.add_argument("--sample", type=int, default=0, help="with --rows: only this many rows, spread over kinds")
    ap.add_argument("--new-cases", action="store_true", help="also measure the cases of issue 6 (bankexplorer.cuda.newcases)")
    ap.add_argument("--workdir", help="keep the program, SASS and profiler output here")
    ap.add_argument("--write-rows", help="write every measurement as hardware-data rows (.jsonl)")
    ap.add_argument("--json", help="write the comparison and the tool versions as JSON")
    ap.add_argument("--timeout", type=float, default=540, help="seconds the profiler may take")
    ap.add_argument("--kernel", action="append", default=[], metavar="FILE.cu",
                    help="a whole kernel to launch on one block, profile and compare (repeat for more)")
    ap.add_argument("--block", help="with --kernel: threads per block X[,Y[,Z]] (default: a '// block:' comment)")
    ap.add_argument("-D", dest="defines", action="append", default=[], metavar="NAME=VALUE",
                    help="with --kernel: a value for a scalar parameter or a macro")
    ap.add_argument("--arg", action="append", default=[], metavar="NAME=FILE.npy",
                    help="with --kernel: fill pointer parameter NAME's buffer from the start with the array's bytes")
    ap.add_argument("--write", help="with --kernel: write the measurements per SASS instruction (the format of "
                                    "resources/hardware/kernels/persass.json)")
    ap.add_argument("--jobs", "-j", type=int, default=os.cpu_count() or 1,
                    help="with --kernel: compile this many kernels at once (default: one per CPU)")
    ap.add_argument("--include", "-I", action="append", default=[], metavar="DIR",
                    help="with --kernel: a folder nvcc searches for #include <...> (CUTLASS's include/ for CuTe)")
    ap.add_argument("--reuse-build", action="store_true",
                    help="with --kernel and --workdir: a program the work folder already holds, built (by nvcc of "
                         "the same release, on any machine) from the same launcher source, is not compiled again")
    ap.add_argument("--measure-only", action="store_true",
                    help="with --kernel: measure without predicting (a GPU machine without the compiler wheels); "
                         "compare later with tests/test_emulator.py")
    args = ap.parse_args(argv)
    if args.kernel:
        return verify_kernels(args)

    try:
        cases, tags = gather(args)
        model = model_wavefronts(cases)
        source = generate_source(cases)
    except BankExplorerError as e:
        print(f"verify_on_gpu: {e}", file=sys.stderr)
        return EXIT_BAD_INPUT
    tools, work = tools_and_workdir(args, "bankexplorer-probe-")
    if tools is None:
        return EXIT_NO_GPU
    cu, exe = work / "probe.cu", work / "probe"
    cu.write_text(source)
    say(f"{len(cases)} cases ({sum(c.warps for c in cases)} warp instructions) on {tools['gpu']} "
        f"(sm_{tools['compute_cap'].replace('.', '')}, driver {tools['driver']}); work folder {work}")
    arch = "sm_" + tools["compute_cap"].replace(".", "")
    p = run([tools["nvcc"], "-O3", f"-arch={arch}", "-o", str(exe), str(cu)], work / "nvcc.log", 600)
    if p.returncode:
        print(p.stderr[-3000:], file=sys.stderr)
        return EXIT_DIFFERENT
    sass_ok: dict[str, tuple[bool, str]] = {}
    if "cuobjdump" in tools:
        p = run([tools["cuobjdump"], "-sass", str(exe)], work / "probe.sass", 300)
        kernels = measure.sass_memory_ops(p.stdout)
        for c in cases:
            if c.op.ident not in sass_ok:
                ops = measure.find_kernel(kernels, c.op.ident)
                if ops is not None and c.op.emulated:  # the CAS loop's own load is part of it
                    ops = [o for o in ops if not o.startswith("LDS")]
                sass_ok[c.op.ident] = measure.check_sass(ops or [], c.op.sass) if ops is not None else (False, "kernel not found")
        for ident, (ok, seen) in sass_ok.items():
            say(f"  SASS {ident}: {seen}{'' if ok else '  <-- NOT ' + str(REPS) + ' x the expected instruction'}")
    else:
        say("  (no cuobjdump: SASS not checked)")
    q = subprocess.run([tools["ncu"], "--query-metrics"], capture_output=True, text=True, timeout=300)
    (work / "ncu-metrics.txt").write_text(q.stdout + q.stderr)
    metrics = measure.available_metrics(q.stdout)
    say(f"  metrics: {', '.join(metrics.values())}")
    launches = plan_launches(cases)
    try:
        profile = profile_in_chunks(tools["ncu"], exe, metrics, len(launches), work, args.timeout)
        rs = measure.results(cases, launches, profile, model, metrics)
    except BankExplorerError as e:
        print(f"verify_on_gpu: {e}", file=sys.stderr)
        return EXIT_DIFFERENT
    for r in rs:
        ok, seen = sass_ok.get(r.case.op.ident, (True, ""))
        r.sass = seen
        if not ok:
            r.note = (r.note + "; " if r.note else "") + f"SASS check failed: {seen}"
    say(measure.format_table(rs))
    retried = [r for r in rs if r.retried and "SASS" not in r.note]
    bad = [r for r in rs if (not r.match and not r.retried) or "SASS" in r.note]
    unmeasured = sum(r.measured is None for r in rs)
    n_warp = sum(r.case.warps for r in rs)
    matched = len(rs) - len(bad) - len(retried)
    say(f"\n{matched} of {len(rs)} cases ({n_warp} warp instructions) match the model"
        + (f"; {len(retried)} compare-and-swap loops retried (one iteration is what the model gives)" if retried else "")
        + ("" if not bad else f"; {len(bad)} differ") + (f" ({unmeasured} not measured)" if unmeasured else ""))
    ver = versions(tools)
    say("tools: " + "; ".join(f"{k} {v}" for k, v in ver.items()))
    if args.write_rows:
        with open(args.write_rows, "w") as f:
            for k, (r, (family, info)) in enumerate(zip(rs, tags)):
                f.write(json.dumps(measure.measured_row(r, 10000 + k, family, info)) + "\n")
    if args.json:
        Path(args.json).write_text(json.dumps({
            "versions": ver, "cases": len(rs), "warp_instructions": n_warp, "matched": matched, "retried": len(retried),
            "results": [{"label": r.case.label, "ptx": r.case.op.ptx, "warps": r.case.warps, "model": r.model,
                         "measured": r.measured, "counters": r.counters, "sass": r.sass, "note": r.note,
                         "verdict": r.verdict}
                        for r in rs]}, indent=1))
    return EXIT_DIFFERENT if bad else 0


def _npy_bytes(path: Path) -> bytes:
    """A .npy array's bytes in C order (what the emulator's --arg puts in a buffer)."""
    import numpy as np

    return np.ascontiguousarray(np.load(path, allow_pickle=False)).tobytes()


def verify_kernels(args) -> int:
    """Whole kernels, per SASS instruction: Nsight Compute's source page against the emulator's run
    of the same block (the columns of ``import-cuda --sass-json``)."""
    import base64

    from bankexplorer.cuda import kernels as K

    defines: dict[str, int | float] = {}
    for d in args.defines:
        name, _, value = d.partition("=")
        try:
            defines[name] = int(value, 0)
        except ValueError:
            try:
                defines[name] = float(value)
            except ValueError:
                print(f"verify_on_gpu: -D {d!r}: write NAME=NUMBER", file=sys.stderr)
                return EXIT_BAD_INPUT
    jobs = []
    for f in args.kernel:
        try:
            path = Path(f)
            text = path.read_text()
            given = tuple(int(x) for x in args.block.split(",")) if args.block else None
            block = K.block_of(text, given)
            from bankexplorer.cudaimport.includes import file_beside

            inputs = {n: Path(file_beside(path.parent, v)) for n, v in K.inputs_of(text).items()}
            for spec in args.arg:
                n, _, v = spec.partition("=")
                inputs[n] = Path(v)
            data = {n: _npy_bytes(p) for n, p in inputs.items()}
            jobs.append((path, text, block, data))
        except (OSError, ValueError, BankExplorerError) as e:
            print(f"verify_on_gpu: {f}: {e}", file=sys.stderr)
            return EXIT_BAD_INPUT
    tools, work = tools_and_workdir(args, "bankexplorer-kernels-")
    if tools is None:
        return EXIT_NO_GPU
    arch = "sm_" + tools["compute_cap"].replace(".", "")
    records, bad = {}, 0
    say(f"{len(jobs)} kernel(s) on {tools['gpu']} ({arch}, driver {tools['driver']}); work folder {work}")
    def build(job) -> str | None:
        """Write the launcher of one kernel and compile it; the error in words, or None."""
        path, text, block, data = job
        name = path.stem
        bins = {}
        for n, raw in data.items():
            bins[n] = str((work / f"{name}.{n}.bin").resolve())
            Path(bins[n]).write_bytes(raw)
        try:
            src, _kname = K.launcher_source(text, block, {k: v for k, v in defines.items() if isinstance(v, int)},
                                            bins, str((work / name).resolve()))
        except BankExplorerError as e:
            return str(e)
        cu, exe = work / f"{name}.cu", work / name
        if args.reuse_build and exe.is_file() and cu.is_file() and cu.read_text() == src:
            say(f"{name}: the program in the work folder was built from this launcher; not compiled again")
            return None
        cu.write_text(src)
        p = run([tools["nvcc"], "-O3", f"-arch={arch}", "-lineinfo", *[f"-I{d}" for d in args.include], "-o",
                 str(exe), str(cu)], work / f"{name}.nvcc.log", 600)
        return f"nvcc failed: {p.stderr.strip()[-300:]}" if p.returncode else None

    # compiling is most of the time and needs no GPU: all kernels at once, then profile one by one
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(max(1, min(args.jobs, len(jobs)))) as pool:
        built = list(pool.map(build, jobs))
    for (path, text, block, data), failed in zip(jobs, built):
        name = path.stem
        exe = work / name
        if failed:
            say(f"{name}: {failed}")
            bad += 1
            continue
        out = subprocess.run([str(exe)], capture_output=True, text=True, timeout=120).stdout.strip()
        q = run([tools["ncu"], *K.NCU_SOURCE_PAGE, str(exe)], work / f"{name}.source.csv", args.timeout)
        try:
            measured = K.parse_source_page(q.stdout)
        except BankExplorerError as e:
            say(f"{name}: {e}: {q.stderr.strip()[-200:]}")
            bad += 1
            continue
        buffers = {}
        for i in range(16):
            dump = work / f"{name}.arg{i}.bin"
            if dump.exists():
                buffers[f"arg{i}"] = base64.b64encode(dump.read_bytes().rstrip(b"\0")).decode()
        records[name] = K.persass_record(block, measured, buffers, out)
        if args.measure_only:
            say(f"{name}: block {'x'.join(map(str, block))}, {len(measured)} SASS instructions, "
                f"{records[name]['shared_wavefronts']:,} shared wavefronts ({out})")
            continue
        try:
            predicted = K.predict(text, block, str(path), defines, data, arch)
        except Exception as e:  # noqa: BLE001 - a kernel the emulator cannot run is a difference, said in words
            say(f"{name}: the emulator cannot run it: {e}")
            bad += 1
            continue
        cmp = K.compare_sass(measured, predicted)
        bad += not cmp.ok
        if not cmp.same_code:
            m, pr = cmp.measured_totals, cmp.predicted_totals
            say(f"{name}: nvcc here and NVRTC made different code; shared totals: {m['wavefronts']:,} wavefronts for "
                f"{m['shared_executed']:,} instructions measured, {pr['wavefronts']:,} for {pr['shared_executed']:,} "
                f"predicted: {'ok' if cmp.ok else 'DIFFERENT'}")
            continue
        say(f"{name}: {cmp.instructions} SASS instructions, {len(cmp.differences)} differ"
            + ("" if cmp.differences else f" ({cmp.measured_totals['wavefronts']:,} shared wavefronts, as predicted)"))
        for d in cmp.differences:
            say(f"  {d}")
    say(f"\n{len(records)} kernel(s) measured" if args.measure_only else f"\n{len(jobs) - bad} of {len(jobs)} kernels as predicted")
    say("tools: " + "; ".join(f"{k} {v}" for k, v in versions(tools).items()))
    if args.write:
        Path(args.write).write_text(json.dumps(records, indent=1))
    return EXIT_DIFFERENT if bad else 0


if __name__ == "__main__":
    sys.exit(main())
