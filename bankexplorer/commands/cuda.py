"""``bankexplorer cuda FILE --out probe.cu``: the pattern as a standalone CUDA microbenchmark (the
probes are :mod:`bankexplorer.cuda.probe`'s, imported when the command runs)."""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import argparse

NAME = "cuda"
HELP = "write a CUDA microbenchmark that runs each instruction of a pattern"


def add_arguments(sp: argparse.ArgumentParser) -> None:
    sp.add_argument("file", help="pattern file (.json)")
    sp.add_argument("--out", "-o", required=True, help="where to write the CUDA program (.cu)")
    sp.add_argument("--manifest", help="also write the launches and the model's predictions as JSON")


def manifest(cases, model) -> dict:
    """What each launch of the program is and what the model predicts for it."""
    from ..cuda.probe import REPS, plan_launches

    launches = []
    for ln in plan_launches(cases):
        d = {"kernel": ln.kernel, "warps": ln.warps}
        if ln.case is not None:
            c = cases[ln.case]
            d.update(case=ln.case, label=c.label, ptx=c.op.ptx, model_wavefronts_per_pass=model[ln.case])
        launches.append(d)
    return {"reps_per_launch": REPS, "launches": launches}


def run(args: argparse.Namespace) -> int:
    from pathlib import Path

    from ..cuda.probe import REPS, cases_from_pattern, generate_source, model_wavefronts
    from ..io.atomic import atomic_write, check_writable
    from ..io.patternfile import load as load_pattern
    from ..model.errors import BankExplorerError

    check_writable(args.out, (args.file,))
    if args.manifest:
        check_writable(args.manifest, (args.file, args.out))
        if Path(args.manifest).resolve() == Path(args.out).resolve():
            raise BankExplorerError(f"--manifest {args.manifest}: is the --out file too; choose another name")
    pat = load_pattern(args.file)
    cases, skipped = cases_from_pattern(pat, Path(args.file).stem)
    for s in skipped:
        print(f"bankexplorer: {args.file}: skipped {s}", file=sys.stderr)
    if not cases:
        raise BankExplorerError(f"{args.file}: no instruction can run as a probe")
    src = generate_source(cases)
    model = model_wavefronts(cases)
    atomic_write(args.out, src.encode("utf-8"))
    if args.manifest:
        atomic_write(args.manifest, (json.dumps(manifest(cases, model), indent=1) + "\n").encode("utf-8"))
    print(f"wrote {args.out}: {len(cases)} probe launch(es), {REPS} executions each; model wavefronts per "
          f"block pass: {', '.join(map(str, model))}")
    print(f"build: nvcc -O3 -arch=sm_90 {args.out} -o probe;  measure: scripts/verify_on_gpu.py {args.file}")
    return 0

