"""The replay of the selected instruction: play, pause and step through its wavefronts.

:class:`ReplayController` owns the steps (the whole request, one per wavefront, the totals, from
:func:`bankexplorer.model.replay.replay_steps`) and a timer; it puts the current step on the
Document (:meth:`Document.set_replay_step`), which every view draws: the lanes still waiting
washed out, those served in the current wavefront outlined, the timeline's cursor on its cycle.
Any edit or another selection stops the replay.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QTimer, Signal

from .document import Document
from .views.base import detail_for

if TYPE_CHECKING:
    from ..model.replay import ReplayStep

#: wavefronts per second the speed control offers
SPEEDS = (0.5, 1.0, 2.0, 4.0, 8.0)


class ReplayController(QObject):
    #: the step, playing or the steps changed: the bar updates its buttons and label
    changed = Signal()

    def __init__(self, doc: Document, parent: QObject | None = None):
        super().__init__(parent)
        self.doc = doc
        self.steps: list[ReplayStep] = []
        self.index: int | None = None  # None: not replaying
        self.speed = 2.0
        self.timer = QTimer(self)
        self.timer.timeout.connect(self._tick)
        doc.selectionChanged.connect(self.stop)
        doc.analysisChanged.connect(self.stop)

    # ---- state -------------------------------------------------------------------------------
    @property
    def playing(self) -> bool:
        return self.timer.isActive()

    @property
    def step(self) -> ReplayStep | None:
        return self.steps[self.index] if self.index is not None and self.steps else None

    def _load(self) -> bool:
        from ..model.replay import replay_steps  # when a replay first plays, not at start-up

        det = detail_for(self.doc.analysis, self.doc.selected_row)
        self.steps = replay_steps(det) if det is not None and det.wavefronts > 0 else []
        return bool(self.steps)

    def _show(self, index: int | None) -> None:
        self.index = index
        self.doc.set_replay_step(self.step)
        self.changed.emit()

    # ---- actions -----------------------------------------------------------------------------
    def play(self) -> None:
        if self.index is None or self.index >= len(self.steps) - 1:  # from the start
            if not self._load():
                return
            self._show(0)
        self.timer.start(self.interval_ms())
        self.changed.emit()

    def pause(self) -> None:
        if self.timer.isActive():
            self.timer.stop()
            self.changed.emit()

    def toggle(self) -> None:
        self.pause() if self.playing else self.play()

    def step_forward(self) -> None:
        self.pause()
        if self.index is None:
            if self._load():
                self._show(0)
            return
        self._show(min(self.index + 1, len(self.steps) - 1))

    def step_back(self) -> None:
        self.pause()
        if self.index is None:
            if self._load():
                self._show(len(self.steps) - 1)
            return
        self._show(max(self.index - 1, 0))

    def seek(self, index: int) -> None:
        if self.index is None and not self._load():
            return
        self._show(max(0, min(index, len(self.steps) - 1)))

    def stop(self) -> None:
        """Leave the replay: every view shows the whole instruction again."""
        self.timer.stop()
        if self.index is not None or self.doc.replay_step is not None:
            self.steps = []
            self._show(None)

    def set_speed(self, wavefronts_per_s: float) -> None:
        self.speed = max(0.1, float(wavefronts_per_s))
        if self.timer.isActive():
            self.timer.setInterval(self.interval_ms())
        self.changed.emit()

    def interval_ms(self) -> int:
        return max(10, int(round(1000 / self.speed)))

    def _tick(self) -> None:
        if self.index is None or self.index >= len(self.steps) - 1:
            self.pause()
            return
        self._show(self.index + 1)
        if self.index >= len(self.steps) - 1:
            self.pause()

    def short_status(self) -> str:
        """``3/32`` on a wavefront, ``req`` / ``end`` before and after, empty when not replaying."""
        s = self.step
        if s is None:
            return ""
        n = len(self.steps) - 2
        return {"request": f"0/{n}", "totals": f"end ({n})"}.get(s.kind, f"{(s.wave or 0) + 1}/{n}")

    def status(self) -> str:
        s = self.step
        if s is None:
            return "replay: Space plays the selected instruction's wavefronts"
        n = len(self.steps) - 2
        if s.kind == "request":
            return f"request: {len(s.now)} lanes, {n} wavefront{'s' if n != 1 else ''}"
        if s.kind == "totals":
            return f"done: {n} wavefront{'s' if n != 1 else ''}"
        return f"wavefront {s.wave + 1} / {n}: {len(s.now)} served, {len(s.waiting)} waiting"
