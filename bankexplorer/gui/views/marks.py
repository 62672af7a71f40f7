"""Cell marks (outlines, badges, hover fills) as one item that paints them all with QPainter.

pyqtgraph's ScatterPlotItem (with ``pxMode=False``) rebuilds its point records, styles and
bounds in Python on every ``setData`` and draws each point as a path; an edit re-sets a handful
of them in every view, which was a good part of an edit's time. The marks drawn here are plain
shapes in data coordinates (squares, boxes several cells wide, triangles, dots), so one item
with numpy positions, grouped by pen, drawn with one ``drawRects`` or ``drawPath`` per pen, does it.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QLineF, QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QPainterPath, QPen, QPolygonF

_NO_PEN = QPen(Qt.PenStyle.NoPen)
_NO_BRUSH = QBrush(Qt.BrushStyle.NoBrush)


def _span(xs: list[float], ys: list[float], pad: float) -> QRectF:
    """The rectangle around the points, ``pad`` wider on each side (empty for no points)."""
    if not xs:
        return QRectF()
    return QRectF(min(xs) - pad, min(ys) - pad, max(xs) - min(xs) + 2 * pad, max(ys) - min(ys) + 2 * pad)


def units_per_pixel(vb) -> tuple[float, float]:
    """Data units per screen pixel in a ViewBox, from the range it is set to (pyqtgraph's
    pixelWidth/viewPixelSize map through the device transform: slow, and stale right after a
    range change). Items sized in pixels (labels, thick pens) pad their bounds with it."""
    if vb is None or not hasattr(vb, "viewRange"):
        return 0.0, 0.0
    (x0, x1), (y0, y1) = vb.viewRange()
    w, h = vb.width(), vb.height()
    return (abs(x1 - x0) / w if w > 0 else 0.0), (abs(y1 - y0) / h if h > 0 else 0.0)


class Marks(pg.GraphicsObject):
    """Shapes centred on (x, y) points, ``size`` cells across, in the parent's data coordinates.

    ``symbol``: "s" square, "t" triangle (pyqtgraph's: point down, drawn in data coordinates so
    an inverted view turns it up), "o" dot, or an int ``span``: a box ``span`` cells wide and one
    high (an access of several elements is one outline); ``-span``: one cell wide and ``span``
    high (the same access down a column of an M-major tile). The subset of ScatterPlotItem's
    ``setData``/``getData`` the views use is kept, so callers read the same.
    """

    def __init__(self, symbol="s", size: float = 0.92, pen: QPen | None = None, brush=None):
        super().__init__()
        self.symbol, self.size = symbol, size
        self.pen = pen if pen is not None else _NO_PEN
        self.brush = QBrush(brush) if brush is not None else _NO_BRUSH
        self.x = np.zeros(0)
        self.y = np.zeros(0)
        self.pens: list[QPen] | None = None
        self._plan: list | None = None
        self._bounds = QRectF()

    # ---- data --------------------------------------------------------------------------------
    def setData(self, *args, pos=None, x=None, y=None, symbol=None, pen=None) -> None:  # noqa: N802 - pyqtgraph's name
        symbol = self.symbol if symbol is None else symbol
        if pos is not None:
            pos = np.asarray(pos, float).reshape(-1, 2)
            x, y = pos[:, 0], pos[:, 1]
        if x is None or args:  # setData([]): nothing
            x, y = np.zeros(0), np.zeros(0)
        x, y = np.asarray(x, float).ravel(), np.asarray(y, float).ravel()
        pens = list(pen) if isinstance(pen, (list, tuple)) else None
        if (symbol == self.symbol and pens == self.pens and not isinstance(pen, QPen)
                and np.array_equal(x, self.x) and np.array_equal(y, self.y)):
            return  # the same marks: nothing to repaint (a view whose picture stands is not redrawn)
        self.symbol = symbol
        self.x, self.y = x, y
        self.pens = pens
        if isinstance(pen, QPen):
            self.pen = pen
        self._plan = None
        self._update_bounds()
        self.update()

    def _update_bounds(self) -> None:
        self.prepareGeometryChange()
        if self.x.size:
            hw, hh = self._half()
            # room for a thick cosmetic pen: 3 pixels at today's zoom (re-done on every zoom)
            px, py = units_per_pixel(self.getViewBox())
            mx = max(0.05, 3 * px)
            my = max(0.05, 3 * py)
            self._bounds = QRectF(self.x.min() - hw - mx, self.y.min() - hh - my,
                                  self.x.max() - self.x.min() + 2 * (hw + mx), self.y.max() - self.y.min() + 2 * (hh + my))
        else:
            self._bounds = QRectF()

    def viewTransformChanged(self) -> None:  # noqa: N802 - pyqtgraph's name
        super().viewTransformChanged()
        self._update_bounds()

    def getData(self) -> tuple[np.ndarray, np.ndarray]:  # noqa: N802 - pyqtgraph's name
        return self.x, self.y

    def _half(self) -> tuple[float, float]:
        if isinstance(self.symbol, int) and self.symbol < 0:  # a box -symbol cells high
            return self.size / 2, (self.size * -self.symbol - 0.08) / 2
        if isinstance(self.symbol, int):  # a box span cells wide (0.92 of a cell high)
            return (self.size * self.symbol - 0.08) / 2, self.size / 2
        return self.size / 2, self.size / 2

    # ---- painting ----------------------------------------------------------------------------
    def boundingRect(self) -> QRectF:  # noqa: N802 - Qt's name
        return self._bounds

    def paint(self, p, *args) -> None:
        if self._plan is None:
            self._plan = self._make_plan()
        p.setBrush(self.brush)
        for pen, kind, shapes in self._plan:
            p.setPen(pen)
            if kind == "rects":
                p.drawRects(shapes)
            else:
                p.drawPath(shapes)

    def _make_plan(self) -> list:
        """The shapes grouped by pen, in data coordinates (they do not change with the zoom: made
        once per setData, not on every paint)."""
        n = self.x.size
        if not n:
            return []
        hw, hh = self._half()
        groups: dict[int, tuple[QPen, list[int]]] = {}
        if self.pens is not None and len(self.pens) == n:
            for i, pen in enumerate(self.pens):
                groups.setdefault(pen.color().rgba(), (pen, []))[1].append(i)
        else:
            groups[0] = (self.pen, range(n))
        xs, ys = self.x.tolist(), self.y.tolist()
        plan = []
        for pen, idx in groups.values():
            if self.symbol in ("o", "t"):
                path = QPainterPath()
                path.setFillRule(Qt.FillRule.WindingFill)
                for i in idx:
                    x, y = xs[i], ys[i]
                    if self.symbol == "o":
                        path.addEllipse(QPointF(x, y), hw, hh)
                    else:
                        path.addPolygon(QPolygonF([QPointF(x - hw, y - hh), QPointF(x, y + hh), QPointF(x + hw, y - hh)]))
                        path.closeSubpath()
                plan.append((pen, "path", path))
            else:
                plan.append((pen, "rects", [QRectF(xs[i] - hw, ys[i] - hh, 2 * hw, 2 * hh) for i in idx]))
        return plan


class Bars(pg.GraphicsObject):
    """Filled rectangles (x0, y0, width, height) in data coordinates, each in one of a few
    brushes: the bank-load bars and the instruction sequence, without pyqtgraph's BarGraphItem
    building a pen and a brush per bar on every edit."""

    def __init__(self, pen: QPen | None = None):
        super().__init__()
        self.pen = pen if pen is not None else _NO_PEN
        self.rects: list[tuple[QBrush, list[QRectF]]] = []
        self._key = None
        self._bounds = QRectF()

    def setBars(self, x0, y0, width, height, brush, key=None) -> None:  # noqa: N802 - Qt's style
        """``brush``: one colour for every bar, or a list of colours (one per bar). ``key``:
        any value that is equal when the bars are (then nothing is rebuilt or repainted)."""
        if key is not None and key == self._key:
            return
        self._key = key
        x0, y0, w, h = (np.broadcast_to(np.asarray(v, float), np.shape(x0)).ravel() for v in (x0, y0, width, height))
        groups: dict[int, tuple[QBrush, list[QRectF]]] = {}
        cols = brush if isinstance(brush, (list, tuple)) and len(brush) == x0.size and not isinstance(brush[0], int) else None
        for i, (a, b, c, d) in enumerate(zip(x0.tolist(), y0.tolist(), w.tolist(), h.tolist())):
            if c <= 0 or d == 0:
                continue
            col = cols[i] if cols is not None else brush
            groups.setdefault(col.rgba(), (QBrush(col), []))[1].append(QRectF(a, min(b, b + d), c, abs(d)))
        self.prepareGeometryChange()
        self.rects = list(groups.values())
        rs = [r for _, lst in self.rects for r in lst]
        self._bounds = _span([v for r in rs for v in (r.left(), r.right())],
                             [v for r in rs for v in (r.top(), r.bottom())], 0.05)
        self.update()

    def boundingRect(self) -> QRectF:  # noqa: N802 - Qt's name
        return self._bounds

    def paint(self, p, *args) -> None:
        p.setPen(self.pen)
        for brush, rects in self.rects:
            p.setBrush(brush)
            p.drawRects(rects)


class Segments(pg.GraphicsObject):
    """Straight lines in data coordinates with one cosmetic pen (the tile's padding edge and row
    separators): pyqtgraph's PlotDataItem re-derives a curve, its bounds and a path per setData."""

    def __init__(self, pen: QPen):
        super().__init__()
        self.pen = QPen(pen)
        self.pen.setCosmetic(True)
        self.lines: list[QLineF] = []
        self._key: list = []
        self._bounds = QRectF()

    def setSegments(self, segments) -> None:  # noqa: N802 - Qt's style
        """``segments``: (x0, y0, x1, y1) each."""
        key = [tuple(map(float, s)) for s in segments]
        if key == self._key:
            return
        self._key = key
        lines = [QLineF(*s) for s in key]
        self.prepareGeometryChange()
        self.lines = lines
        self._bounds = _span([v for ln in lines for v in (ln.x1(), ln.x2())],
                             [v for ln in lines for v in (ln.y1(), ln.y2())], 0.1)
        self.update()

    def boundingRect(self) -> QRectF:  # noqa: N802 - Qt's name
        return self._bounds

    def paint(self, p, *args) -> None:
        if self.lines:
            p.setPen(self.pen)
            p.drawLines(self.lines)
