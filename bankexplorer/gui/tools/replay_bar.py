"""The replay tool bar: play / pause (Space), step back and forward (, and .), stop (Esc), a
position slider and the speed, driving :class:`bankexplorer.gui.replay.ReplayController`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QComboBox, QLabel, QSlider, QToolBar

from ..replay import SPEEDS, ReplayController

if TYPE_CHECKING:
    from ..app import MainWindow


class ReplayBar(QToolBar):
    def __init__(self, win: "MainWindow"):
        super().__init__("Replay", win)
        self.setObjectName("toolbar_replay")
        self.ctl = ctl = ReplayController(win.document, self)
        self.play_action = self._act("▶ Play", ctl.toggle, "Space", "play / pause the selected instruction's wavefronts")
        self.back_action = self._act("◀ Step", ctl.step_back, ",", "previous wavefront")
        self.forward_action = self._act("Step ▶", ctl.step_forward, ".", "next wavefront")
        self.stop_action = self._act("■ Stop", ctl.stop, "Esc", "leave the replay: show the whole instruction")
        self.slider = QSlider(Qt.Orientation.Horizontal)
        self.slider.setMinimumWidth(120)
        self.slider.setMaximumWidth(220)
        self.slider.setToolTip("step: the request, each wavefront, the totals")
        self.slider.valueChanged.connect(self._slid)
        self.addWidget(self.slider)
        self.addWidget(QLabel(" speed "))
        self.speed = QComboBox()
        for v in SPEEDS:
            self.speed.addItem(f"{v:g} wavefronts/s", v)
        self.speed.setCurrentIndex(SPEEDS.index(ctl.speed))
        self.speed.currentIndexChanged.connect(lambda i: ctl.set_speed(self.speed.itemData(i)))
        self.addWidget(self.speed)
        self.label = QLabel()
        self.addWidget(self.label)
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
        self.play_action.setText("❚❚ Pause" if ctl.playing else "▶ Play")
        self.slider.blockSignals(True)
        self.slider.setRange(0, max(len(ctl.steps) - 1, 0))
        self.slider.setValue(ctl.index or 0)
        self.slider.setEnabled(ctl.index is not None)
        self.slider.blockSignals(False)
        self.stop_action.setEnabled(ctl.index is not None)
        self.label.setText("  " + ctl.status())


def install(win: "MainWindow") -> None:
    win.replay_bar = bar = ReplayBar(win)
    win.replay = bar.ctl
    win.addToolBar(Qt.ToolBarArea.TopToolBarArea, bar)
    view = win.menus["view"]
    view.addSeparator()
    for a in (bar.play_action, bar.back_action, bar.forward_action, bar.stop_action):
        view.addAction(a)
