"""File > Export: any view or the composed figure as PNG (1x..4x) or SVG, a copy to the clipboard,
and the figure's style and title, which are part of the pattern (saved with it, undoable).

Everything draws with :mod:`bankexplorer.export` from the document's analysis and selection, the
same code as ``bankexplorer export``: the file shows what the window shows, never a screenshot.
"""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QByteArray, QMimeData
from PySide6.QtGui import QAction, QActionGroup, QGuiApplication, QKeySequence
from PySide6.QtWidgets import (
    QComboBox, QDialog, QDialogButtonBox, QFileDialog, QFormLayout, QInputDialog, QLineEdit, QMenu, QMessageBox,
    QSpinBox,
)

from ...export import VIEWS
from ...io.patternfile import FIGURE_STYLES as STYLE_NAMES  # the export's styles (export.styles): same names
from ...model.errors import BankExplorerError

if TYPE_CHECKING:
    from ...export.scene import Scene
    from ..app import MainWindow
    from .host import ToolHost

VIEW_LABELS = {"figure": "Figure (tile + matrix + timeline + numbers)", "tile": "Tile layout",
               "banks": "Physical banks", "matrix": "Lanes → banks matrix", "timeline": "Timeline"}
CLIPBOARD_SCALE = 2  # sharp when pasted into a slide at its natural size


def scene_of(window: "MainWindow", style: str | None = None, title: str | None = None) -> Scene | None:
    """The figure scene of the window's current state (None when the pattern has no analysis)."""
    from ...export.scene import make_scene  # the renderers load on the first export, not at start-up

    doc = window.document
    an = doc.analysis
    if an is None:
        return None
    s = doc.selection
    p = doc.pattern
    k = min(s.instruction, max(len(p.instructions) - 1, 0))
    return make_scene(p, style, k, s.warp, s.iteration, title, an=an)


def export_view(window: "MainWindow", view: str, path: str | Path, scale: int = 1, style: str | None = None,
                title: str | None = None) -> int:
    """Write ``view`` of the window's state to ``path`` (.png/.svg); returns the bytes written."""
    from ...export.render import export

    doc = window.document
    if doc.analysis is None:
        raise BankExplorerError("the pattern is not valid: nothing to export")
    s = doc.selection
    return export(doc.pattern, view, path, scale=scale, style=style, instruction=s.instruction, warp=s.warp,
                  iteration=s.iteration, title=title, an=doc.analysis)


def copy_view(window: "MainWindow", view: str) -> bool:
    """Put ``view`` on the clipboard as an image (2x) and as SVG, for apps that take vectors."""
    from ...export.figure import picture
    from ...export.render import to_image, to_svg

    scene = scene_of(window)
    if scene is None:
        window.statusBar().showMessage("The pattern is not valid: nothing to copy", 4000)
        return False
    pic = picture(scene, view)
    mime = QMimeData()
    mime.setImageData(to_image(pic, CLIPBOARD_SCALE))
    mime.setData("image/svg+xml", QByteArray(to_svg(pic)))
    QGuiApplication.clipboard().setMimeData(mime)
    window.statusBar().showMessage(f"Copied the {VIEW_LABELS[view].lower()} to the clipboard", 4000)
    return True


def set_figure(window: "MainWindow", style: str | None = None, title: str | None = None) -> bool:
    """Change the pattern's figure style and/or title: one undoable edit."""
    doc = window.document
    fig = doc.pattern.figure
    new = replace(fig, style=fig.style if style is None else style, title=fig.title if title is None else title)
    if new == fig:
        return False
    what = f"figure style {new.style}" if new.style != fig.style else "figure title"
    return doc.apply(replace(doc.pattern, figure=new), what)


class ExportDialog(QDialog):
    """View, format, scale, style and title of one export; the style and title become the
    pattern's figure settings when they differ (so the next export, and the file, remember them)."""

    def __init__(self, window: "MainWindow", view: str = "figure"):
        from ...export.render import MAX_SCALE

        super().__init__(window)
        self.setWindowTitle("Export")
        fig = window.document.pattern.figure
        form = QFormLayout(self)
        self.view = QComboBox()
        for v in VIEWS:
            self.view.addItem(VIEW_LABELS[v], v)
        self.view.setCurrentIndex(VIEWS.index(view))
        self.format = QComboBox()
        self.format.addItem("PNG image", "png")
        self.format.addItem("SVG (vector, text stays text)", "svg")
        self.scale = QSpinBox()
        self.scale.setRange(1, MAX_SCALE)
        self.scale.setValue(2)
        self.scale.setSuffix("×")
        self.style_box = QComboBox()
        for s in STYLE_NAMES:
            self.style_box.addItem(s, s)
        self.style_box.setCurrentIndex(STYLE_NAMES.index(fig.style) if fig.style in STYLE_NAMES else 0)
        self.title_edit = QLineEdit(fig.title)
        self.title_edit.setPlaceholderText(window.document.pattern.name)
        form.addRow("&View", self.view)
        form.addRow("&Format", self.format)
        form.addRow("&Scale (PNG)", self.scale)
        form.addRow("St&yle", self.style_box)
        form.addRow("&Title", self.title_edit)
        self.format.currentIndexChanged.connect(lambda _: self.scale.setEnabled(self.format.currentData() == "png"))
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)

    def choices(self) -> dict:
        return {"view": self.view.currentData(), "fmt": self.format.currentData(), "scale": self.scale.value(),
                "style": self.style_box.currentData(), "title": self.title_edit.text()}


def file_stem(name: str) -> str:
    """A pattern's name as a file name every system takes: ``ldmatrix.x4 with Swizzle<3,4,3>`` ->
    ``ldmatrix.x4_with_Swizzle_3_4_3`` (no ``<>:"/\\|?*,;`` or spaces, at most 60 characters)."""
    stem = re.sub(r"[^\w.+-]+", "_", name).strip("._")[:60].rstrip("._")
    return stem or "pattern"


def _suggested_path(window: "MainWindow", view: str, fmt: str) -> str:
    doc = window.document
    stem = Path(doc.path).stem if getattr(doc, "path", None) else file_stem(doc.pattern.name)
    folder = Path(doc.path).parent if getattr(doc, "path", None) else Path.home()
    return str(folder / f"{stem}_{view}.{fmt}")


def export_dialog(window: "MainWindow", view: str = "figure") -> None:
    if window.document.analysis is None:
        QMessageBox.warning(window, "Export", "The pattern is not valid: there is nothing to export.")
        return
    dlg = ExportDialog(window, view)
    accepted = dlg.exec() == QDialog.DialogCode.Accepted
    c = dlg.choices()
    dlg.deleteLater()
    if not accepted:
        return
    filt = "PNG image (*.png)" if c["fmt"] == "png" else "SVG image (*.svg)"
    path, _ = QFileDialog.getSaveFileName(window, "Export", _suggested_path(window, c["view"], c["fmt"]), filt)
    if not path:
        return
    if Path(path).suffix.lower() != f".{c['fmt']}":
        path += f".{c['fmt']}"
    set_figure(window, c["style"], c["title"])
    try:
        n = export_view(window, c["view"], path, c["scale"], c["style"], c["title"] or None)
    except BankExplorerError as e:
        QMessageBox.warning(window, "Export", str(e))
        return
    window.statusBar().showMessage(f"Exported {Path(path).name} ({n:,} bytes)", 5000)


def install(window: "ToolHost") -> None:
    file_menu: QMenu = window.menus["file"]
    quit_action = next((a for a in file_menu.actions() if a.text().replace("&", "") == "Quit"), None)
    menu = QMenu("E&xport", window)
    window.menus["export"] = menu
    if quit_action is not None:
        actions = file_menu.actions()
        before = actions[max(actions.index(quit_action) - 1, 0)]  # the separator above Quit
        file_menu.insertMenu(before, menu)
    else:
        file_menu.addMenu(menu)
    act = QAction("Export &Figure…", window)
    act.setShortcut(QKeySequence("Ctrl+E"))
    act.triggered.connect(lambda: export_dialog(window, "figure"))
    menu.addAction(act)
    act = QAction("Export &View…", window)
    act.triggered.connect(lambda: export_dialog(window, "tile"))
    menu.addAction(act)
    copy = menu.addMenu("&Copy to Clipboard")
    window.menus["export_copy"] = copy
    for v in VIEWS:
        a = QAction(VIEW_LABELS[v], window)
        a.setObjectName(f"copy_{v}")
        a.triggered.connect(lambda _=False, v=v: copy_view(window, v))
        copy.addAction(a)
    menu.addSeparator()
    styles = menu.addMenu("Figure &Style")
    window.menus["figure_style"] = styles
    group = QActionGroup(window)
    for s in STYLE_NAMES:
        a = QAction(s, window, checkable=True)
        a.setObjectName(f"figure_style_{s}")
        a.triggered.connect(lambda _=False, s=s: set_figure(window, style=s))
        group.addAction(a)
        styles.addAction(a)

    def sync() -> None:
        cur = window.document.pattern.figure.style
        for a in group.actions():
            a.setChecked(a.text() == cur)

    window.document.patternChanged.connect(sync)
    sync()

    def ask_title() -> None:
        doc = window.document
        text, ok = QInputDialog.getText(window, "Figure title", f"Title (empty: “{doc.pattern.name}”):",
                                        QLineEdit.EchoMode.Normal, doc.pattern.figure.title)
        if ok:
            set_figure(window, title=text)

    act = QAction("Figure &Title…", window)
    act.triggered.connect(ask_title)
    menu.addAction(act)
