#!/usr/bin/env python3
"""Take ``docs/triton-window.png``: the window on a Triton kernel, the column sum of
resources/hardware/kernels/triton compiled from its ``.py`` by the installed Triton and one program
executed (``bankexplorer import-cuda colsum.py --kernel colsum ... --out``), its Python line 12 picked
in the Source lines dock.

Run under a real X server: ``xvfb-run -s "-screen 0 1920x1080x24" python scripts/screenshot_triton.py``.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from PySide6.QtCore import Qt  # noqa: E402
from PySide6.QtTest import QTest  # noqa: E402

from screenshot_cuda_import import grab, main_window, settle  # noqa: E402

HERE = ROOT / "resources" / "hardware" / "kernels" / "triton"


def main() -> int:
    pattern = Path(tempfile.mkdtemp()) / "colsum.json"
    cmd = [sys.executable, "-m", "bankexplorer", "import-cuda", "colsum.py", "--kernel", "colsum",
           "--arg=X=colsum_8warps.X.npy", "--arg=Y=colsum_8warps.Y.npy", "-D", "M=128", "-D", "N=64",
           "-D", "BLOCK_M=128", "-D", "num_warps=8", "--out", str(pattern)]
    p = subprocess.run(cmd, cwd=HERE, capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
    if p.returncode:
        print(p.stderr, file=sys.stderr)
        return 1
    app, w = main_window()
    if not w.open_path(pattern, ask=False):
        print("the pattern did not open", file=sys.stderr)
        return 1
    settle(app)
    panel = w.tools["imported_kernel"].panel
    item = panel.tree.top_row(12)
    if item is None:
        print("no line 12 in the Source lines dock", file=sys.stderr)
        return 1
    item.setExpanded(True)
    panel.tree.scrollToItem(item)
    QTest.mouseClick(panel.tree.viewport(), Qt.MouseButton.LeftButton, pos=panel.tree.visualItemRect(item).center())
    w.refresh_now()
    settle(app, 80)
    grab(w, ROOT / "docs" / "triton-window.png")
    return 0


if __name__ == "__main__":
    sys.exit(main())
