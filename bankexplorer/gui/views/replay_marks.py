"""What a view draws while a replay runs: lanes still waiting washed out, the lanes of the
current wavefront outlined. One item per view, in that view's data coordinates; the view says
where a lane's marks are (``lane_rects``), this item paints them."""

from __future__ import annotations

import pyqtgraph as pg
from PySide6.QtCore import QRectF
from PySide6.QtGui import QColor, QPen


class ReplayMarks(pg.GraphicsObject):
    def __init__(self, wash, ink, width: float = 3.0):
        super().__init__()
        self.wash = QColor(int(wash[0]), int(wash[1]), int(wash[2]), 185)
        self.pen = QPen(QColor(int(ink[0]), int(ink[1]), int(ink[2])))
        self.pen.setWidthF(width)
        self.pen.setCosmetic(True)
        #: the lanes of the current step (tests read them) and their rectangles
        self.now_lanes: list[int] = []
        self.waiting_lanes: list[int] = []
        self.now_rects: list[QRectF] = []
        self.waiting_rects: list[QRectF] = []
        self._bounds = QRectF()
        self.setZValue(40)

    def set_marks(self, now: dict[int, list[QRectF]], waiting: dict[int, list[QRectF]]) -> None:
        self.prepareGeometryChange()
        self.now_lanes, self.waiting_lanes = sorted(now), sorted(waiting)
        self.now_rects = [r for ls in now.values() for r in ls]
        self.waiting_rects = [r for ls in waiting.values() for r in ls]
        b = QRectF()
        for r in self.now_rects + self.waiting_rects:
            b = b.united(r)
        self._bounds = b.adjusted(-1, -1, 1, 1) if not b.isNull() else QRectF()
        self.setVisible(bool(self.now_rects or self.waiting_rects))
        self.update()

    def clear(self) -> None:
        self.set_marks({}, {})

    def boundingRect(self) -> QRectF:  # noqa: N802 - Qt's name
        return self._bounds

    def paint(self, p, *args) -> None:
        for r in self.waiting_rects:
            p.fillRect(r, self.wash)
        p.setPen(self.pen)
        for r in self.now_rects:
            p.drawRect(r)
