#!/usr/bin/env python3
"""The compiled hot paths (``bankexplorer/sass/_shared.c``: shared memory; ``_alu.c``: the usual
integer forms) against the numpy code they stand in for, on whole kernels: every measured CUDA kernel (``resources/hardware/kernels``,
through the manifest), the bench loops (``scripts/bench_loops``) and the bundled CUDA examples in
both builds (as compiled and as written, ``-G``), each executed twice in this process, once with
the compiled module and once without, and compared on everything a run gives: the per-SASS rows
(counts, wavefronts, certainty), notes, the recorded accesses (instruction, warp, kind, width, the
lanes' addresses and activity, address taint, line), the data-dependent branches and every
buffer afterwards. Any difference is printed and the exit status is 1.

``tests/test_shared_words.py`` holds the two to each other on random sequences of single accesses;
this holds them on the code compilers make. About ten minutes on two cores (``--every N``: one
kernel in N).

usage: python scripts/compare_compiled.py [--every N] [--only PREFIX]
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

import kernel_manifest  # noqa: E402

from bankexplorer.sass import compiled  # noqa: E402


def _header(src: str, key: str) -> str | None:
    m = re.search(rf"//\s*{key}:\s*(.+)", src)
    return m.group(1).strip() if m else None


def cases(every: int, only: str | None) -> list[tuple[str, Path, tuple, dict, bool]]:
    """(name, source, block, scalars, as written) of every kernel compared."""
    out = []
    for name, (_file, rec) in sorted(kernel_manifest.discover().items()):
        if name.split("/")[0] in ("cute", "triton"):  # binaries and Triton: no CUDA source to compile here
            continue
        path = kernel_manifest.KERNELS / f"{name}.cu"
        if path.exists():
            out.append((name, path, tuple(rec["block"]), {}, False))
    for path in sorted((ROOT / "scripts" / "bench_loops").glob("*.cu")):
        if path.stem.startswith("endless"):
            continue
        src = path.read_text()
        block = (*(int(x) for x in _header(src, "block").split(",")), 1, 1)[:3]
        scalars = {k: int(v) for k, v in (d.split("=") for d in (_header(src, "define") or "").split() if d)}
        out.append((f"bench_loops/{path.stem}", path, block, scalars, False))
    for path in sorted((ROOT / "resources" / "examples" / "cuda").glob("*.cu")):
        for written in (False, True):
            out.append((f"examples/{path.stem}{' (as written)' if written else ''}", path, None, {}, written))
    out = [c for c in out if only is None or c[0].startswith(only)]
    return out[::every]


def outcome(name: str, path: Path, block, scalars: dict, written: bool, build) -> dict:
    """Everything one run gives, as plain values (an error: its message)."""
    from bankexplorer.kernels.cuda_source import emulate
    from bankexplorer.sass.launch import EXTERN_BYTES, LaunchConfig, text_settings

    src = path.read_text()
    arrays = {n: np.load(path.parent / f).tobytes() for n, f in re.findall(r"//\s*input:\s*(\w+)\s*=\s*(\S+)", src)}
    settings = text_settings(src)
    if block is None:
        block = settings.get("block", ((256, 1, 1), ""))[0]
    extern = settings.get("extern-size", (EXTERN_BYTES, ""))[0]
    try:
        r = emulate(src, LaunchConfig(tuple(block), arrays=arrays, scalars=scalars, extern_bytes=extern),
                    path=str(path), build=build, optimize=not written)
    except Exception as e:  # noqa: BLE001 (the same error both ways is the same outcome)
        return {"error": f"{type(e).__name__}: {e}"}
    acc = r.accesses
    out = {"rows": [x.to_json() for x in r.rows], "notes": list(r.notes), "timing": r.timing_dependent,
           "buffers": {k: np.asarray(v).tobytes() for k, v in r.buffers.items()},
           "timing bytes": {k: np.asarray(v).tobytes() for k, v in r.timing_bytes.items()},
           "printed": list(r.printed), "warp instructions": r.warp_instructions}
    for f in ("index", "warp", "kind", "width", "matrices", "addr", "active", "taint", "line"):
        out[f"access {f}"] = np.asarray(getattr(acc, f)).tobytes()
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--every", type=int, default=1)
    ap.add_argument("--only")
    args = ap.parse_args()
    if compiled.shared is None or compiled.alu is None:
        raise SystemExit("the compiled modules were not built here (pip install -e . with a C compiler)")
    from bankexplorer.kernels.cuda_source import compile_text

    bad, t0 = 0, time.perf_counter()
    todo = cases(args.every, args.only)
    for k, (name, path, block, scalars, written) in enumerate(todo):
        src = path.read_text()
        try:
            build = compile_text(src, "sm_90", scalars, str(path), optimize=not written)
        except Exception as e:  # noqa: BLE001
            print(f"{name}: not compiled ({e})")
            continue
        fast = outcome(name, path, block, scalars, written, build)
        with compiled.off():
            slow = outcome(name, path, block, scalars, written, build)
        diff = sorted(f for f in set(fast) | set(slow) if fast.get(f) != slow.get(f))
        if diff:
            bad += 1
            print(f"{name}: DIFFERS in {', '.join(diff)}", flush=True)
        elif (k + 1) % 50 == 0:
            print(f"{k + 1} of {len(todo)} the same ({time.perf_counter() - t0:.0f} s)", flush=True)
    print(f"{len(todo) - bad} of {len(todo)} kernels the same with and without the compiled module")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
