#!/usr/bin/env python3
"""Retake ``docs/cuda-import-cute.png``: Tools > Import CUDA on a CuTe tiled MMA's nvcc-built cubin
(``resources/hardware/kernels/cute/mma_cpasync_ldsm_swizzle233.cubin``), its source shown beside it,
the line of its conflicting ldmatrix picked.

Run under a real X server: ``xvfb-run -s "-screen 0 1920x1080x24" python scripts/screenshot_cute.py``.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from PySide6.QtCore import Qt  # noqa: E402
from PySide6.QtTest import QTest  # noqa: E402

from bankexplorer.gui.cuda_dialog import open_dialog  # noqa: E402
sys.path.insert(0, str(ROOT / "scripts"))
from screenshot_cuda_import import grab, main_window, settle  # noqa: E402

CUTE = ROOT / "resources" / "hardware" / "kernels" / "cute"


def main() -> int:
    app, w = main_window()
    d = open_dialog(w, str(CUTE / "mma_cpasync_ldsm_swizzle233.cubin"))
    d.resize(1500, 900)
    if not (d.wait_compiled() and d.state == "done"):
        print(f"the kernel did not run: {d.outcome.message if d.outcome else d.state}", file=sys.stderr)
        return 1
    item = d.lines.top_row(53)
    item.setExpanded(True)
    QTest.mouseClick(d.lines.viewport(), Qt.MouseButton.LeftButton, pos=d.lines.visualItemRect(item).center())
    settle(app)
    grab(d, ROOT / "docs" / "cuda-import-cute.png")
    return 0


if __name__ == "__main__":
    sys.exit(main())
