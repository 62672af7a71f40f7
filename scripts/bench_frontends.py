#!/usr/bin/env python3
"""How long the front ends take, whole command (``bankexplorer import-cuda ... --sass-json``) as a
user runs it: a cubin, a shared library, and a CuTe kernel from source (compiled with NVRTC), cold
(an empty compile cache), again unchanged (the cache), and edited (one line changed: compiled again).

    scripts/bench_frontends.py [--repeat 3] [--kernel resources/hardware/kernels/cute/NAME.cu]

Prints the median seconds of each. The compile cache goes to a temporary folder, so the user's
cache is neither used nor filled.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CUTE = ROOT / "resources" / "hardware" / "kernels" / "cute"


def timed(cmd: list[str], env: dict, repeat: int) -> float:
    xs = []
    for _ in range(repeat):
        t = time.perf_counter()
        p = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=ROOT)
        xs.append(time.perf_counter() - t)
        if p.returncode:
            sys.exit(f"{' '.join(cmd)}: exit {p.returncode}: {p.stderr.strip()[-300:]}")
    return statistics.median(xs)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--kernel", default=str(CUTE / "mma_cpasync_ldsm_swizzle233.cu"),
                    help="the CuTe kernel compiled from source (its .cubin beside it is the binary)")
    args = ap.parse_args()
    src = Path(args.kernel)
    cli = [sys.executable, "-m", "bankexplorer", "import-cuda"]
    with tempfile.TemporaryDirectory(prefix="bench-frontends-") as tmp:
        env = {**os.environ, "BANKEXPLORER_CACHE": os.path.join(tmp, "cache"), "PYTHONPATH": str(ROOT)}
        out = ["--sass-json", os.path.join(tmp, "out.json")]
        rows = []
        rows.append(("startup (import-cuda --help)", timed(cli + ["--help"], env, args.repeat)))
        rows.append((f"cubin ({src.stem}.cubin)", timed(cli + [str(src.with_suffix(".cubin"))] + out, env, args.repeat)))
        so = ROOT / "tests" / "data" / "binaries" / "libldsm_stsm_forms.so"
        rows.append(("shared library (libldsm_stsm_forms.so)", timed(cli + [str(so), "--block", "64"] + out, env,
                                                                    args.repeat)))
        rows.append((f"CuTe source, cold ({src.name})", timed(cli + [str(src)] + out, env, 1)))
        rows.append(("CuTe source, unchanged (compile cache)", timed(cli + [str(src)] + out, env, args.repeat)))
        edited = Path(tmp) / src.name
        text = src.read_text()
        edited.write_text(text.replace("copy(tCrC, tCgC);", "copy(tCrC, tCgC);  // edited", 1)
                          if "copy(tCrC, tCgC);" in text else text + "\n// edited\n")
        for f in src.parent.glob("*.npy"):  # its inputs, beside it
            (Path(tmp) / f.name).write_bytes(f.read_bytes())
        rows.append(("CuTe source, one line edited", timed(cli + [str(edited)] + out, env, 1)))
    for what, s in rows:
        print(f"{what:<48} {s:7.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
