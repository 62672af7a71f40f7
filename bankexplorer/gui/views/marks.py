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
import shiboken6
from PySide6.QtCore import QLineF, QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QPainterPath, QPen

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
        if self.x.size:
            hw, hh = self._half()
            # room for a thick cosmetic pen: 3 pixels at today's zoom (re-done on every zoom)
            px, py = units_per_pixel(self.getViewBox())
            mx = max(0.05, 3 * px)
            my = max(0.05, 3 * py)
            x0, x1, y0, y1 = float(self.x.min()), float(self.x.max()), float(self.y.min()), float(self.y.max())
            bounds = QRectF(x0 - hw - mx, y0 - hh - my, x1 - x0 + 2 * (hw + mx), y1 - y0 + 2 * (hh + my))
        else:
            bounds = QRectF()
        if bounds != self._bounds:  # new marks in the same rectangle need no new geometry
            self.prepareGeometryChange()
            self._bounds = bounds

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
            elif kind == "lines":  # (first line, count, the array that holds them)
                p.drawLines(shapes[0], shapes[1])
            else:
                p.drawPath(shapes)

    def _make_plan(self) -> list:
        """The shapes grouped by pen, in data coordinates (they do not change with the zoom: made
        once per setData, not on every paint), from numpy arrays where the shape allows."""
        n = self.x.size
        if not n:
            return []
        hw, hh = self._half()
        x, y = self.x, self.y
        if self.pens is not None and len(self.pens) == n:  # one group per pen colour, in order
            by_color: dict[int, tuple[QPen, list[int]]] = {}
            for i, pen in enumerate(self.pens):
                by_color.setdefault(pen.color().rgba(), (pen, []))[1].append(i)
            groups = [(pen, idx) for pen, idx in by_color.values()]
        else:
            groups = [(self.pen, None)]
        if self.symbol not in ("o", "t") and self.brush.style() == Qt.BrushStyle.NoBrush:
            # outlines: their four sides as lines, which Qt strokes with a thick cosmetic pen
            # about three times faster than the same rectangles; made for all marks at once
            order = np.arange(n) if groups[0][1] is None else np.concatenate([g[1] for g in groups])
            xo, yo = x[order], y[order]
            l, r, t, b = xo - hw, xo + hw, yo - hh, yo + hh
            lines = np.empty((n, 4, 4))
            lines[:, 0, 0], lines[:, 0, 1], lines[:, 0, 2], lines[:, 0, 3] = l, t, r, t
            lines[:, 1, 0], lines[:, 1, 1], lines[:, 1, 2], lines[:, 1, 3] = r, t, r, b
            lines[:, 2, 0], lines[:, 2, 1], lines[:, 2, 2], lines[:, 2, 3] = r, b, l, b
            lines[:, 3, 0], lines[:, 3, 1], lines[:, 3, 2], lines[:, 3, 3] = l, b, l, t
            plan, start = [], 0
            for pen, idx in groups:
                count = n if idx is None else len(idx)
                plan.append((pen, "lines", _line_array(lines.reshape(-1, 4), 4 * start, 4 * count)))
                start += count
            return plan
        plan = []
        for pen, idx in groups:
            gx, gy = (x, y) if idx is None else (x[idx], y[idx])
            if self.symbol == "o":
                path = QPainterPath()
                path.setFillRule(Qt.FillRule.WindingFill)
                for xx, yy in zip(gx.tolist(), gy.tolist()):
                    path.addEllipse(QPointF(xx, yy), hw, hh)
                plan.append((pen, "path", path))
            elif self.symbol == "t":  # pyqtgraph's triangle (point down), as one path of them all
                px = np.column_stack([gx - hw, gx, gx + hw, gx - hw]).ravel()
                py = np.column_stack([gy - hh, gy + hh, gy - hh, gy - hh]).ravel()
                connect = np.ones(px.size, np.int32)
                connect[3::4] = 0  # each triangle its own closed outline
                path = pg.functions.arrayToQPath(px, py, connect=connect, finiteCheck=False)
                path.setFillRule(Qt.FillRule.WindingFill)
                plan.append((pen, "path", path))
            else:
                plan.append((pen, "rects", [QRectF(xx - hw, yy - hh, 2 * hw, 2 * hh)
                                            for xx, yy in zip(gx.tolist(), gy.tolist())]))
        return plan


def _line_array(lines: np.ndarray, start: int = 0, count: int | None = None) -> tuple:
    """(first QLineF, count, array) over rows ``start``.. of an (n, 4) array of x1, y1, x2, y2,
    for QPainter's ``drawLines(const QLineF *, int)``: no Python object per line. The array must
    outlive the drawing, so it travels with the pointer."""
    a = np.ascontiguousarray(lines, np.float64)
    count = len(a) - start if count is None else count
    return shiboken6.wrapInstance(a.ctypes.data + start * a.strides[0], QLineF), count, a


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
        xs = np.asarray(x0, float).ravel().tolist()
        n = len(xs)

        def per_bar(v) -> list:
            return [float(v)] * n if np.ndim(v) == 0 else np.asarray(v, float).ravel().tolist()

        ys, ws, hs = per_bar(y0), per_bar(width), per_bar(height)
        cols = brush if isinstance(brush, (list, tuple)) and len(brush) == n and not isinstance(brush[0], int) else None
        groups: dict[int, tuple[QBrush, list[QRectF]]] = {}
        left = top = float("inf")
        right = bottom = float("-inf")
        for i in range(n):  # a few dozen bars: plain Python beats numpy's per-call cost here
            c, d = ws[i], hs[i]
            if c <= 0 or d == 0:
                continue
            a, b = xs[i], ys[i]
            t = min(b, b + d)
            d = abs(d)
            col = cols[i] if cols is not None else brush
            rgba = col.rgba()
            g = groups.get(rgba)
            if g is None:
                g = groups[rgba] = (QBrush(col), [])
            g[1].append(QRectF(a, t, c, d))
            left, right = min(left, a), max(right, a + c)
            top, bottom = min(top, t), max(bottom, t + d)
        self.prepareGeometryChange()
        self.rects = list(groups.values())
        self._bounds = _span([left, right], [top, bottom], 0.05) if groups else QRectF()
        self.update()

    @property
    def key(self):
        """The ``key`` of the bars shown (see :meth:`setBars`)."""
        return self._key

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
