"""The replay bar (on top of the Timeline dock): play / pause (Space), step back and forward (, and .), stop (Esc), a
position slider and the speed, driving :class:`bankexplorer.gui.replay.ReplayController`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QComboBox, QLabel, QSlider, QToolBar, QVBoxLayout, QWidget

from ..replay import SPEEDS, ReplayController

if TYPE_CHECKING:
    from ..app import MainWindow
    from .host import ToolHost


class ReplayBar(QToolBar):
    def __init__(self, win: "MainWindow"):
        super().__init__("Replay", win)
        self.setObjectName("toolbar_replay")
        self.win = win
        self.ctl = ctl = ReplayController(win.document, self)
        self.play_action = self._act("▶", ctl.toggle, "Space", "play / pause the selected instruction's wavefronts")
        self.back_action = self._act("|◀", ctl.step_back, ",", "previous wavefront")
        self.forward_action = self._act("▶|", ctl.step_forward, ".", "next wavefront")
        self.stop_action = self._act("■", ctl.stop, "Esc", "leave the replay: show the whole instruction")
        # the counter right after the buttons and the slider last: a narrow Timeline hides the
        # toolbar's last items behind "»", and the slider is the one that can go (the keys step)
        self.label = QLabel()
        self.label.setMinimumWidth(self.label.fontMetrics().horizontalAdvance(" end (999)") + 4)
        self.addWidget(self.label)
        self.speed = QComboBox()
        for v in SPEEDS:
            self.speed.addItem(f"{v:g}/s", v)
        self.speed.setCurrentIndex(SPEEDS.index(ctl.speed))
        self.speed.setToolTip("speed: wavefronts per second")
        self.speed.currentIndexChanged.connect(lambda i: ctl.set_speed(self.speed.itemData(i)))
        self.addWidget(self.speed)
        self.slider = QSlider(Qt.Orientation.Horizontal)
        self.slider.setMinimumWidth(70)
        self.slider.setMaximumWidth(200)
        self.slider.setToolTip("step: the request, each wavefront, the totals")
        self.slider.valueChanged.connect(self._slid)
        self.addWidget(self.slider)
        self._said = ""  # what the bar last put in the status bar
        ctl.changed.connect(self._update)
        self._update()

    def _act(self, text, slot, key, tip) -> QAction:
        a = QAction(text, self)
        a.setShortcut(QKeySequence(key))
        a.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
        a.setToolTip(f"{tip} ({key})")
        a.triggered.connect(slot)
        self.addAction(a)
        return a

    def _slid(self, v: int) -> None:
        if self.ctl.index is not None and v != self.ctl.index:
            self.ctl.pause()
            self.ctl.seek(v)

    def _update(self) -> None:
        ctl = self.ctl
        self.play_action.setText("❚❚" if ctl.playing else "▶")
        self.play_action.setToolTip(("pause" if ctl.playing else "play the selected instruction's wavefronts") + " (Space)")
        self.slider.blockSignals(True)
        self.slider.setRange(0, max(len(ctl.steps) - 1, 0))
        self.slider.setValue(ctl.index or 0)
        self.slider.setEnabled(ctl.index is not None)
        self.slider.blockSignals(False)
        self.stop_action.setEnabled(ctl.index is not None)
        self.label.setText(" " + ctl.short_status())
        self.label.setToolTip(ctl.status())
        bar = self.win.statusBar()
        if ctl.index is not None:
            self._said = "Replay: " + ctl.status()
            bar.showMessage(self._said)
        elif self._said:  # stopped: take the replay's words away (they said "wavefront 12 / 32")
            if bar.currentMessage() == self._said:
                bar.clearMessage()
            self._said = ""


def install(win: "ToolHost") -> "ReplayBar":
    """The bar goes on top of the Timeline dock (the replay's cursor moves there), so the tile in
    the middle keeps its size; its keys work anywhere in the window. The tool is the bar (its
    controller: ``.ctl``)."""
    bar = ReplayBar(win)
    bar.setIconSize(bar.iconSize() * 0.8)
    dock = win.docks["timeline"]
    box = QWidget()
    lay = QVBoxLayout(box)
    lay.setContentsMargins(0, 0, 0, 0)
    lay.setSpacing(0)
    lay.addWidget(bar)
    lay.addWidget(win.timeline)
    dock.setWidget(box)
    view = win.menus["view"]
    view.addSeparator()
    for a in (bar.play_action, bar.back_action, bar.forward_action, bar.stop_action):
        view.addAction(a)
    exp = win.menus.get("export")
    if exp is not None:
        a = QAction("Export &Replay…", win)
        a.setStatusTip("The selected instruction served wavefront by wavefront: GIF, animated PNG or WebP")
        a.triggered.connect(lambda: export_replay_dialog(win))
        exp.insertAction(exp.actions()[2] if len(exp.actions()) > 2 else None, a)
    return bar


def export_replay_dialog(win: "MainWindow", path: str | None = None, scale: int = 2) -> int | None:
    """File › Export › Export Replay…: the same animation as ``export --view replay``."""
    from pathlib import Path

    from PySide6.QtWidgets import QFileDialog, QMessageBox

    from ...export.replay import export_replay
    from ...model.errors import BankExplorerError
    from .export_actions import scene_of

    scene = scene_of(win)
    if scene is None or scene.det is None:
        QMessageBox.warning(win, "Export Replay", "Select a valid instruction to replay.")
        return None
    if path is None:
        path, _ = QFileDialog.getSaveFileName(win, "Export Replay", str(Path.home() / "replay.gif"),
                                              "GIF (*.gif);;Animated PNG (*.png);;WebP (*.webp)")
        if not path:
            return None
    if Path(path).suffix.lower() not in (".gif", ".png", ".webp"):
        path += ".gif"
    try:
        n, frames = export_replay(scene, path, scale)
    except BankExplorerError as e:
        QMessageBox.warning(win, "Export Replay", str(e))
        return None
    win.statusBar().showMessage(f"Exported {Path(path).name} ({frames} frames, {n:,} bytes)", 5000)
    return n
