"""The flat scroll bar: Fusion's geometry (arrows, handle, pages where they were, so clicks do
what they did) painted in plain fills, on every scroll area of the window's panels."""

from __future__ import annotations

import os

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QPoint, QSettings, Qt  # noqa: E402
from PySide6.QtTest import QTest  # noqa: E402
from PySide6.QtWidgets import QStyle, QStyleOptionSlider  # noqa: E402

import bankexplorer.gui  # noqa: E402, F401 - the PySide6 workaround, before any widget
from bankexplorer.gui.app import MainWindow  # noqa: E402
from bankexplorer.gui.scroll_bar import FlatScrollBar  # noqa: E402


def _rect(bar, sc):
    opt = QStyleOptionSlider()
    bar.initStyleOption(opt)
    return bar.style().subControlRect(QStyle.ComplexControl.CC_ScrollBar, opt, sc, bar)


@pytest.fixture
def bar(qtbot):
    b = FlatScrollBar(Qt.Orientation.Vertical)
    qtbot.addWidget(b)
    b.setRange(0, 300)
    b.setPageStep(100)
    b.setSingleStep(7)
    b.resize(14, 400)
    b.show()
    qtbot.waitExposed(b)
    return b


def test_arrows_and_pages_step_as_the_style_places_them(bar):
    SC = QStyle.SubControl
    QTest.mouseClick(bar, Qt.MouseButton.LeftButton, pos=_rect(bar, SC.SC_ScrollBarAddLine).center())
    assert bar.value() == 7
    QTest.mouseClick(bar, Qt.MouseButton.LeftButton, pos=_rect(bar, SC.SC_ScrollBarAddPage).center())
    assert bar.value() == 107
    QTest.mouseClick(bar, Qt.MouseButton.LeftButton, pos=_rect(bar, SC.SC_ScrollBarSubLine).center())
    assert bar.value() == 100


def test_dragging_the_handle_scrolls(bar):
    handle = _rect(bar, QStyle.SubControl.SC_ScrollBarSlider)
    start = handle.center()
    QTest.mousePress(bar, Qt.MouseButton.LeftButton, pos=start)
    QTest.mouseMove(bar, start + QPoint(0, 60))
    QTest.mouseRelease(bar, Qt.MouseButton.LeftButton, pos=start + QPoint(0, 60))
    assert bar.value() > 50


def test_the_handle_is_painted_where_it_is(bar):
    bar.setValue(200)
    img = bar.grab().toImage()
    handle = _rect(bar, QStyle.SubControl.SC_ScrollBarSlider)
    groove = _rect(bar, QStyle.SubControl.SC_ScrollBarSubPage)
    inside = img.pixelColor(handle.center())
    outside = img.pixelColor(groove.center())
    assert inside != outside
    assert handle.top() > groove.top()  # the handle moved down with the value


def test_the_panels_scroll_with_flat_bars(qtbot, tmp_path):
    w = MainWindow(QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    qtbot.addWidget(w)
    for area in (w.editor, w.instructions.table):
        assert isinstance(area.verticalScrollBar(), FlatScrollBar)
        assert isinstance(area.horizontalScrollBar(), FlatScrollBar)
    # the editor still hides its horizontal bar (policies survive the swap)
    assert w.editor.horizontalScrollBarPolicy() == Qt.ScrollBarPolicy.ScrollBarAlwaysOff
    w.document.undo_stack.setClean()
