"""An imported kernel's per-line view is the main view (issue 42): it takes the left column's
tall pane (not a tab under the instruction list), the column widens for its columns where the
window has the width, and the what-if banner takes a line or two, not most of the pane."""

from __future__ import annotations

import pytest

pytest.importorskip("pytestqt")

from PySide6.QtCore import QSettings  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from bankexplorer.compiler import nvrtc  # noqa: E402
from bankexplorer.gui.app import MainWindow  # noqa: E402
from bankexplorer.resources import EXAMPLES  # noqa: E402

pytestmark = pytest.mark.skipif(not nvrtc.available(), reason="needs the compile extra")
GEMM = EXAMPLES / "cuda" / "13_gemm_tile_as_compiled.cu"


def imported_window(qtbot, tmp_path, size):
    w = MainWindow(QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    qtbot.addWidget(w)
    w.resize(*size)
    w.show()
    qtbot.waitExposed(w)
    w.open_cuda(GEMM)
    dlg = w.tools["cuda_import"].dialog
    assert dlg.wait_compiled() and dlg.import_into_document()
    dlg.close()
    for _ in range(3):
        QApplication.processEvents()
    return w


def rows_in_view(tree) -> float:
    return tree.viewport().height() / max(tree.sizeHintForRow(0), 1)


@pytest.mark.parametrize("size", [(1366, 740), (1600, 1000)])
def test_the_per_line_view_gets_the_room(qtbot, tmp_path, size):
    w = imported_window(qtbot, tmp_path, size)
    dock, tree = w.tools["imported_kernel"].dock, w.tools["imported_kernel"].panel.tree
    assert dock.isVisible()
    # the tall pane: as tall as the editor's, well over the 9 rows a tab under the instructions had
    assert dock in w.tabifiedDockWidgets(w.docks["editor"])
    assert abs(dock.height() - w.docks["editor"].height()) <= 2
    assert rows_in_view(tree) >= (20 if size[1] < 900 else 28), rows_in_view(tree)
    if size[0] >= 1600:  # where the window has the width: every column in view
        assert tree.header().length() <= tree.viewport().width() + 1
    # the views keep their least sizes
    assert w.tile.width() >= 280 and w.timeline.width() >= 360
    w.document.undo_stack.setClean()


def test_the_what_if_banner_is_compact(qtbot, tmp_path):
    w = imported_window(qtbot, tmp_path, (1366, 740))
    panel = w.tools["imported_kernel"].panel
    before = rows_in_view(panel.tree)
    w.editor.fields["arr.padding"].setValue(1)  # a what-if
    qtbot.wait(20)
    assert panel.banner.isVisible() and "What-if" in panel.banner_text.text()
    assert panel.banner.height() <= 4 * panel.fontMetrics().height() + 16
    assert rows_in_view(panel.tree) >= before - 5
    w.document.undo_stack.setClean()
