#!/usr/bin/env python3
"""Retake docs/cuda-import-dialog.png: Tools > Import CUDA on the GEMM tile example, as compiled,
with the SASS shown. Run in a real X server (e.g. xvfb-run -s "-screen 0 1600x1000x24")."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from PySide6.QtWidgets import QApplication  # noqa: E402

from bankexplorer.gui.app import MainWindow  # noqa: E402
from bankexplorer.gui.tools.cuda_import import open_dialog  # noqa: E402


def main() -> int:
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs" / "cuda-import-dialog.png"
    example = ROOT / "resources" / "examples" / "cuda" / "13_gemm_tile_as_compiled.cu"
    app = QApplication.instance() or QApplication(sys.argv)
    w = MainWindow()
    w.show()
    d = open_dialog(w)
    d.resize(1500, 900)
    d.name = example.stem
    d.editor.setPlainText(example.read_text())
    d.refresh()
    d.wait_compiled()
    d.sass_button.setChecked(True)
    d.select_instruction(2)
    for _ in range(20):
        app.processEvents()
    img = d.screen().grabWindow(d.winId()) if d.windowHandle() else d.grab()
    if img.isNull() or img.width() < 100:
        img = d.grab()
    img.save(str(out))
    print(f"wrote {out} ({img.width()}x{img.height()}); compile: {d.compile_state}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
