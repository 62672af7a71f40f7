"""A window restored from a larger screen takes this screen's work area (issue 42): Qt put a
window saved at 1920x1080 where it could on a 1366x768 screen (1283x573, the tile showing 6 rows,
the Thread -> bank matrix squashed) with the docks laid out for the other size."""

from __future__ import annotations

import pytest

pytest.importorskip("pytestqt")

from PySide6.QtCore import QRect, QSettings  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from bankexplorer.gui import screen_fit  # noqa: E402
from bankexplorer.gui.app import MIN_VIEW_SIZE, MainWindow  # noqa: E402

BIG, LAPTOP = QRect(0, 0, 1920, 1050), QRect(0, 0, 1366, 740)


def _window(qtbot, path, monkeypatch, area: QRect) -> MainWindow:
    monkeypatch.setattr(screen_fit, "work_area", lambda _w: area)
    w = MainWindow(QSettings(str(path), QSettings.Format.IniFormat))
    qtbot.addWidget(w)
    return w


def _saved(qtbot, ini, monkeypatch, area: QRect, geometry: QRect) -> None:
    """A window at ``geometry`` on a screen whose work area is ``area``, closed: its settings saved."""
    w = _window(qtbot, ini, monkeypatch, area)
    w.setGeometry(geometry)
    w.show()
    QApplication.processEvents()
    w.save_settings()
    w.close()


def test_a_window_saved_on_a_larger_screen_takes_this_ones_work_area(qtbot, tmp_path, monkeypatch):
    ini = tmp_path / "s.ini"
    _saved(qtbot, ini, monkeypatch, BIG, QRect(10, 10, 1880, 1000))
    assert QSettings(str(ini), QSettings.Format.IniFormat).value("screenArea") is not None

    w = _window(qtbot, ini, monkeypatch, LAPTOP)
    assert w.geometry() == LAPTOP, w.geometry()
    assert w._layout_pending  # the docks are laid out again for this size, not restored for the other
    w.show()
    QApplication.processEvents()
    QApplication.processEvents()
    for name, (mw, mh) in MIN_VIEW_SIZE.items():
        v = getattr(w, name)
        assert v.width() >= mw and v.height() >= mh, (name, v.size())


def test_a_window_saved_on_the_same_screen_keeps_its_geometry_and_docks(qtbot, tmp_path, monkeypatch):
    ini = tmp_path / "s.ini"
    _saved(qtbot, ini, monkeypatch, BIG, QRect(40, 30, 1500, 900))
    w = _window(qtbot, ini, monkeypatch, BIG)
    assert not w._layout_pending  # the saved docks, restored (Qt keeps the geometry on its own screen)
    assert BIG.contains(w.geometry())
