"""At the window's first size nothing is cut (issue 42): the Summary's last line (every example's
table and arrays at 1600x1000, the size a first start has), the preset box's name ("NVIDIA
sm_70-sm" was all it showed on a 1366x768 screen)."""

from __future__ import annotations

import pytest

pytest.importorskip("pytestqt")

from PySide6.QtCore import QSettings  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from bankexplorer import resources  # noqa: E402
from bankexplorer.gui.app import MainWindow  # noqa: E402
from bankexplorer.model.hardware import PRESETS  # noqa: E402


def _window(qtbot, tmp_path, size) -> MainWindow:
    w = MainWindow(QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    qtbot.addWidget(w)
    w.resize(*size)
    w.show()
    qtbot.waitExposed(w)
    QApplication.processEvents()
    return w


def test_the_summary_is_whole_at_the_first_size(qtbot, tmp_path):
    w = _window(qtbot, tmp_path, (1600, 1000))
    cut = []
    for path in resources.examples():
        assert w.open_path(path, ask=False)
        w.refresh_now()
        QApplication.processEvents()
        s = w.summary
        if s._content.height() > s.viewport().height():
            cut.append((path.stem, s._content.height(), s.viewport().height()))
    assert cut == []
    w.document.undo_stack.setClean()


@pytest.mark.parametrize("size", [(1366, 740), (1600, 1000)])
def test_the_preset_box_shows_the_whole_name(qtbot, tmp_path, size):
    w = _window(qtbot, tmp_path, size)
    box = w.editor.fields["hw.preset"]
    for i in range(box.count()):
        box.setCurrentIndex(i)
        text = box.currentText()
        assert text == PRESETS[box.itemData(i)].name
        # the text's width and the arrow's fit the box
        assert box.fontMetrics().horizontalAdvance(text) + 30 <= box.width(), (text, box.width())
    w.document.undo_stack.setClean()
