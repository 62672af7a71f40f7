#!/usr/bin/env python3
"""Measure Triton kernels per SASS instruction on a GPU (Triton and Nsight Compute installed).

    scripts/measure_triton.py resources/hardware/kernels/triton/cases.json OUTDIR [CASE ...]

Each case of ``cases.json`` names a ``.py`` file, its ``@triton.jit`` function, the arrays
(``CASE.NAME.npy`` beside the file) and the scalars, constexprs and launch options (``defines``,
as ``import-cuda -D`` takes them). The kernel is launched once on a grid of one program (one block)
with the arrays on the GPU, under ``ncu --section SourceCounters --page source --print-source sass
--csv`` filtered by the kernels' names, all cases in one profiled process with an empty Triton cache. OUTDIR gets, per
case, the cache entry Triton wrote (``CASE/NAME.{cubin,json,ttir,source,ptx,ttgir}``), the arrays
after the run (``CASE/after.NAME.npy``) and the source page (``CASE/source.csv``), and
``persass.json``: per case the rows of the source page (the format of ``persass*.json``).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def load_kernel(folder: Path, spec: dict):
    mod_spec = importlib.util.spec_from_file_location(Path(spec["file"]).stem, folder / spec["file"])
    mod = importlib.util.module_from_spec(mod_spec)
    mod_spec.loader.exec_module(mod)
    return getattr(mod, spec["kernel"])


def launch_all(cases_file: Path, names: list[str], out: Path) -> None:
    """In the profiled process: per case, compile (Triton's JIT), launch one program, save the
    arrays after the run and the cache entry. ``launched.json`` lists the cases in launch order."""
    import numpy as np
    import torch

    cases = json.loads(cases_file.read_text())
    folder = cases_file.parent
    cache = Path(os.environ["TRITON_CACHE_DIR"])
    done = []
    for case in names:
        spec = cases[case]
        save = out / case
        save.mkdir(parents=True, exist_ok=True)
        try:
            fn = load_kernel(folder, spec)
            tensors = {n: torch.from_numpy(np.load(folder / f"{case}.{n}.npy")).cuda() for n in spec["arrays"]}
            compiled = fn[(1,)](**{**spec["defines"], **tensors})
            torch.cuda.synchronize()
        except Exception as e:  # noqa: BLE001 - one case's failure is written down, the others go on
            (save / "error.txt").write_text(f"{type(e).__name__}: {e}")
            continue
        for n, t in tensors.items():
            np.save(save / f"after.{n}.npy", t.cpu().numpy())
        for d in cache.iterdir():
            meta = d / f"{compiled.name}.json"
            if meta.exists() and json.loads(meta.read_text()).get("hash") == compiled.hash:
                for f in d.iterdir():
                    if f.suffix in (".cubin", ".json", ".ttir", ".ttgir", ".source", ".ptx") and \
                            not f.name.startswith("__grp__"):
                        shutil.copy(f, save / f.name)
        done.append(case)
        (out / "launched.json").write_text(json.dumps(done))


def split_pages(text: str) -> list[str]:
    """The source pages of several kernels, one text each (each begins with its 'Address' header)."""
    lines = text.splitlines()
    starts = [i for i, ln in enumerate(lines) if re.match(r'^"?Address"?,', ln)]
    return ["\n".join(lines[a:b]) for a, b in zip(starts, starts[1:] + [len(lines)])]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("cases", type=Path)
    ap.add_argument("out", type=Path)
    ap.add_argument("only", nargs="*")
    ap.add_argument("--launch", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--ncu", default=shutil.which("ncu") or "/usr/local/cuda/bin/ncu")
    args = ap.parse_args(argv)
    cases = json.loads(args.cases.read_text())
    names = [c for c in cases if not args.only or c in args.only]
    out = args.out.resolve()
    if args.launch:
        launch_all(args.cases.resolve(), names, out)
        return 0
    sys.path.insert(0, str(ROOT))
    from bankexplorer.cuda import kernels as K

    out.mkdir(parents=True, exist_ok=True)
    cache = out / "cache"
    cache.mkdir(exist_ok=True)
    kernels = sorted({cases[c]["kernel"] for c in names})
    cmd = [args.ncu, *K.NCU_SOURCE_PAGE, "-k", f"regex:^({'|'.join(kernels)})$", sys.executable,
           str(Path(__file__).resolve()), str(args.cases.resolve()), str(out), *names, "--launch"]
    t0 = time.time()
    p = subprocess.run(cmd, capture_output=True, text=True, env={**os.environ, "TRITON_CACHE_DIR": str(cache)},
                       timeout=900)
    (out / "ncu.csv").write_text(p.stdout)
    (out / "ncu.stderr.txt").write_text(p.stderr)
    launched = json.loads((out / "launched.json").read_text()) if (out / "launched.json").exists() else []
    pages = split_pages(p.stdout)
    print(f"{len(launched)} of {len(names)} cases launched, {len(pages)} source pages, {time.time() - t0:.1f} s")
    if len(pages) != len(launched):
        print(p.stderr[-2000:])
        return 1
    records = {}
    for case, page in zip(launched, pages):
        (out / case / "source.csv").write_text(page)
        rows = K.parse_source_page(page)
        meta = json.loads((out / case / f"{cases[case]['kernel']}.json").read_text())
        block = (32 * meta["num_warps"] * meta.get("num_ctas", 1), 1, 1)
        records[case] = K.persass_record(block, rows)
        print(f"{case}: {len(rows)} SASS rows, {records[case]['shared_wavefronts']:,} shared wavefronts, block "
              f"{block[0]}, shared {meta['shared']}")
    for case in names:
        if (out / case / "error.txt").exists():
            print(f"{case}: {(out / case / 'error.txt').read_text()[:500]}")
    (out / "persass.json").write_text(json.dumps(records, indent=1))
    shutil.rmtree(cache, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
