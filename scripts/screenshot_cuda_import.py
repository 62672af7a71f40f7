#!/usr/bin/env python3
"""Retake the two screenshots of an imported kernel, in a real X window:

* ``docs/cuda-import-dialog.png``: Tools > Import CUDA on the tiled matrix multiply (as compiled,
  executed on the CPU), the k-loop's line picked;
* ``docs/cuda-import-window.png``: CUB's radix sort with its ``.npy`` input attached (from the
  kernel's ``// input:`` line), imported into the window, its line picked in the Source lines dock.

Run under a real X server: ``xvfb-run -s "-screen 0 1920x1080x24" python scripts/screenshot_cuda_import.py``.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from PySide6.QtCore import QSettings, Qt  # noqa: E402
from PySide6.QtTest import QTest  # noqa: E402
from PySide6.QtWidgets import QApplication, QWidget  # noqa: E402

from bankexplorer.gui.app import MainWindow  # noqa: E402
from bankexplorer.gui.cuda_dialog import open_dialog  # noqa: E402

KERNELS = ROOT / "resources" / "hardware" / "kernels"


def settle(app: QApplication, n: int = 40) -> None:
    for _ in range(n):
        app.processEvents()


def grab(w: QWidget, out: Path) -> None:
    """The window as the X server shows it (the widget's own rendering when the server gives nothing)."""
    img = w.screen().grabWindow(w.winId()) if w.windowHandle() else w.grab()
    if img.isNull() or img.width() < 100:
        img = w.grab()
    img.save(str(out))
    print(f"wrote {out.relative_to(ROOT)} ({img.width()}x{img.height()})")


def main_window() -> tuple[QApplication, MainWindow]:
    """A 1600 x 1000 window with settings of its own (a user's recent files stay out of the picture)."""
    app = QApplication.instance() or QApplication(sys.argv)
    settings = QSettings(str(Path(tempfile.mkdtemp(), "screenshot.ini")), QSettings.Format.IniFormat)
    w = MainWindow(settings)
    w.maybe_save = lambda: True
    w.resize(1600, 1000)
    w.show()
    settle(app)
    return app, w


def main() -> int:
    docs = ROOT / "docs"
    app, w = main_window()

    # the dialog on the GEMM tile: the line of the k loop picked
    d = open_dialog(w, str(KERNELS / "matmul_tiled.cu"))
    d.resize(1500, 900)
    d.block_edit.setText("16,16,1")
    if not (d.wait_compiled() and d.state == "done"):
        print(f"the kernel did not run: {d.outcome.message if d.outcome else d.state}", file=sys.stderr)
        return 1
    item = d.lines.top_row(13)
    item.setExpanded(True)  # its SASS: the LDS and LDS.128 nvcc made of the k loop
    QTest.mouseClick(d.lines.viewport(), Qt.MouseButton.LeftButton, pos=d.lines.visualItemRect(item).center())
    settle(app)
    grab(d, docs / "cuda-import-dialog.png")

    # CUB's radix sort, its input attached by the kernel's "// input:" line, imported into the window
    path = KERNELS / "extra11" / "cub_radix_sort_keys_128x4.cu"
    d.block_edit.setText("128,1,1")
    d.set_text(path.read_text(), path=str(path))
    if not (d.wait_compiled() and d.state == "done"):
        print(f"the kernel did not run: {d.outcome.message if d.outcome else d.state}", file=sys.stderr)
        return 1
    if not d.import_into_document():
        print("the import was refused", file=sys.stderr)
        return 1
    d.close()
    settle(app)
    panel = w.tools["imported_kernel"].panel
    item = panel.tree.top_row(10)
    panel.tree.scrollToItem(item)
    QTest.mouseClick(panel.tree.viewport(), Qt.MouseButton.LeftButton, pos=panel.tree.visualItemRect(item).center())
    w.refresh_now()
    settle(app, 80)
    grab(w, docs / "cuda-import-window.png")
    return 0


if __name__ == "__main__":
    sys.exit(main())
