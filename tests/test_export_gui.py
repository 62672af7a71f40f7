"""File > Export in the window: the menu exists, copies go to the clipboard at the figure's size,
exports follow the document's selection, and the figure style/title are undoable pattern edits."""

from __future__ import annotations

import os
import xml.etree.ElementTree as ET

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QSettings  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from bankexplorer import resources  # noqa: E402
from bankexplorer.export.figure import picture  # noqa: E402
from bankexplorer.gui.app import MainWindow  # noqa: E402
from bankexplorer.gui.tools import export_actions as X  # noqa: E402
from bankexplorer.io import patternfile  # noqa: E402

SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture
def win(qtbot, tmp_path):
    w = MainWindow(QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    qtbot.addWidget(w)
    w.resize(1400, 900)
    assert w.open_path(resources.EXAMPLES / "06_transpose_32x32.json", ask=False)
    QApplication.processEvents()
    yield w
    w.document.undo_stack.setClean()


def _action(menu, name):
    return next(a for a in menu.actions() if a.objectName() == name)


def test_export_menu_is_in_the_file_menu(win):
    titles = [a.text() for a in win.menus["file"].actions()]
    assert "E&xport" in titles
    assert titles.index("E&xport") < titles.index("&Quit")
    texts = [a.text() for a in win.menus["export"].actions()]
    assert "Export &Figure…" in texts and "Export &View…" in texts and "Figure &Title…" in texts


def test_copy_puts_a_2x_image_and_svg_on_the_clipboard(win):
    win.document.select(instruction=1)
    _action(win.menus["export_copy"], "copy_matrix").trigger()
    mime = QApplication.clipboard().mimeData()
    img = QApplication.clipboard().image()
    pic = picture(X.scene_of(win), "matrix")
    assert (img.width(), img.height()) == (round(pic.width) * 2, round(pic.height) * 2)
    root = ET.fromstring(bytes(mime.data("image/svg+xml")))
    texts = ["".join(t.itertext()) for t in root.iter(SVG + "text")]
    assert "Lanes → banks: 32-way, 32 wavefronts" in texts  # the selected column read
    QApplication.clipboard().clear()


def test_export_follows_the_selection_and_the_figure_settings(win, tmp_path):
    win.document.select(instruction=1, warp=2)
    out = tmp_path / "fig.svg"
    X.export_view(win, "figure", out)
    texts = ["".join(t.itertext()) for t in ET.parse(out).getroot().iter(SVG + "text")]
    assert any(t.startswith("#1 load tile[x][y+8k]") and "warp 2" in t for t in texts)
    assert "32-way" in texts
    win.document.select(instruction=0)
    X.export_view(win, "figure", out)
    texts = ["".join(t.itertext()) for t in ET.parse(out).getroot().iter(SVG + "text")]
    assert "1-way" in texts and "32-way" not in texts


def test_figure_style_and_title_are_undoable_edits_saved_with_the_pattern(win, tmp_path):
    doc = win.document
    assert doc.pattern.figure.style == "default"
    assert _action(win.menus["figure_style"], "figure_style_default").isChecked()
    _action(win.menus["figure_style"], "figure_style_slide").trigger()
    assert doc.pattern.figure.style == "slide"
    assert _action(win.menus["figure_style"], "figure_style_slide").isChecked()
    assert X.set_figure(win, title="Before the fix")
    assert X.scene_of(win).style.name == "slide" and X.scene_of(win).title == "Before the fix"
    f = tmp_path / "p.json"
    patternfile.save(doc.pattern, f)
    assert patternfile.load(f).figure == doc.pattern.figure
    doc.undo_stack.undo()
    doc.undo_stack.undo()
    assert doc.pattern.figure.style == "default" and doc.pattern.figure.title == ""
    assert _action(win.menus["figure_style"], "figure_style_default").isChecked()
    assert not X.set_figure(win, style="default")  # no change, no undo step


def test_dialog_choices_drive_the_export(win, tmp_path, monkeypatch):
    from PySide6.QtWidgets import QDialog, QFileDialog

    out = tmp_path / "tile"
    def choose(self):  # tile, PNG, 3x, dark
        self.view.setCurrentIndex(0)
        self.format.setCurrentIndex(0)
        self.scale.setValue(3)
        self.style_box.setCurrentIndex(2)
        return QDialog.DialogCode.Accepted

    monkeypatch.setattr(X.ExportDialog, "exec", choose)
    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(lambda *a, **k: (str(out), "")))
    X.export_dialog(win, "tile")
    png = tmp_path / "tile.png"  # the extension is added
    from PySide6.QtGui import QImage

    img = QImage(str(png))
    pic = picture(X.scene_of(win, style="dark"), "tile")
    assert (img.width(), img.height()) == (round(pic.width) * 3, round(pic.height) * 3)
    assert win.document.pattern.figure.style == "dark"  # remembered with the pattern
    win.document.undo_stack.setClean()  # pytest-qt closes the window before fixtures tear down


def test_export_suggests_a_file_name_every_system_takes(win, tmp_path, monkeypatch):
    """An example's name such as "ldmatrix.x4 with Swizzle<3,4,3>" (examples open with no path):
    the suggested file has no < > , : or spaces in it (issue 42)."""
    from PySide6.QtWidgets import QDialog, QFileDialog

    assert win.open_path(resources.EXAMPLES / "15_ldmatrix_x4_swizzle343.json", ask=False)
    assert win.document.path is None and "<" in win.document.pattern.name
    suggested = []
    monkeypatch.setattr(X.ExportDialog, "exec", lambda self: QDialog.DialogCode.Accepted)

    def save_name(_parent, _title, start, *_a, **_k):
        suggested.append(start)
        return "", ""  # cancelled

    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(save_name))
    X.export_dialog(win, "figure")
    name = os.path.basename(suggested[0])
    assert name.endswith("_figure.png") and name.startswith("ldmatrix.x4")
    assert not set(name) & set('<>:"/\\|?*, ;'), name
