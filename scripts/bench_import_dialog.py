#!/usr/bin/env python3
"""Import CUDA as a user meets it: a kernel opened in the dialog (File > Open of a ``.cu``) until
its per-line report is shown, compiled and executed on the dialog's worker, the window live. Each
kernel from an empty compile cache (what a first open or an edit costs) and again with it filled;
the reference, measured in the same run, is the compile step alone (NVRTC + nvdisasm, in process,
cache empty). Issue 40's goal: CUB's radix sort (``extra11/cub_radix_sort_keys_128x4.cu``, its
``.npy`` input attached by its ``// input:`` line) under 3 s.

usage: QT_QPA_PLATFORM=offscreen python scripts/bench_import_dialog.py [--repeat R] [KERNEL.cu ...]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
KERNELS = ROOT / "resources" / "hardware" / "kernels"
DEFAULT = [KERNELS / "extra11" / "cub_radix_sort_keys_128x4.cu", KERNELS / "matmul_tiled.cu"]


def _empty_cache() -> None:
    """A fresh, empty compile cache (on disk and in this process)."""
    from bankexplorer.compiler import cache

    os.environ["BANKEXPLORER_CACHE"] = tempfile.mkdtemp(prefix="bx-bench-cache-")
    cache._MEMORY.clear()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("kernels", nargs="*", type=Path)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    sys.path.insert(0, str(ROOT / "scripts"))
    from screenshot_cuda_import import main_window  # noqa: E402

    from bankexplorer.gui.cuda_dialog import open_dialog
    from bankexplorer.kernels.cuda_source import compile_text

    app, w = main_window()
    for path in args.kernels or DEFAULT:
        cold, warm, ref = [], [], []
        for _ in range(args.repeat):
            _empty_cache()
            t = time.perf_counter()
            compile_text(path.read_text(), "sm_90", None, str(path))
            ref.append(time.perf_counter() - t)
            _empty_cache()
            for times in (cold, warm):
                t = time.perf_counter()
                d = open_dialog(w, str(path))
                if not (d.wait_compiled(120000) and d.state == "done"):
                    print(f"{path.name}: {d.outcome.message if d.outcome else d.state}", file=sys.stderr)
                    return 1
                app.processEvents()
                times.append(time.perf_counter() - t)
                d.forget_results()
        print(f"{path.name:<36} empty cache {statistics.median(cold):5.2f} s, filled {statistics.median(warm):5.2f} s; "
              f"the compile step alone {statistics.median(ref):5.2f} s (median of {args.repeat}; load "
              f"{os.getloadavg()[0]:.1f})", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
