"""An axis that is cheap to redraw: the views' axes carry fixed tick lists, and an edit that
changes a view's range (a padding step widens the tile) redraws them.

pyqtgraph's AxisItem lays every tick label out again on each redraw (a ``QPainter.boundingRect``,
a handful of ``Point`` objects and a QPicture record per label): about 1 ms per axis, four or five
axes per edit. :class:`FastAxis` draws the same picture (same positions, alignment, crowding rule
and clipping) from labels laid out once per string (QStaticText) and ticks in one ``drawLines``,
and skips redraws when the range or the visible ticks did not actually change.
"""

from __future__ import annotations

import math

import pyqtgraph as pg
from PySide6.QtCore import QLineF, QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QPainter, QPen

from .richtext import sized_text

_VALID = object()  # AxisItem.picture: None = redraw; pyqtgraph only ever tests it against None


class FastAxis(pg.AxisItem):
    """An AxisItem for fixed ticks (``setTicks``) or whole-number ticks (:meth:`set_integer_ticks`);
    pyqtgraph's automatic ticks and grids still go through pyqtgraph's own drawing."""

    _in_init = True  # AxisItem.__init__ sets the (still visible) title a few times, then hides it

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._in_init = False
        # no axis here has units to scale: with the SI prefix on, every range change would set
        # the title's HTML again (a text layout each) to add a prefix that is never there
        self.autoSIPrefix = False
        self._integer_px: float | None = None
        self._plan = None
        self._pens: dict[tuple, QPen] = {}
        self._br = None  # (geometry, tick style, bounding rect) of the last boundingRect()
        self._across = None  # the labels' extent across the axis at the last plan
        self._pen_cache = None
        self._fkey = None

    def boundingRect(self):  # noqa: N802 - Qt's name
        """pyqtgraph's rectangle, worked out again only when the axis's geometry or tick length
        changes: Qt asks for it dozens of times per repaint (for the cached picture as well)."""
        if getattr(self, "grid", None) is not False:
            return super().boundingRect()
        geo = self.geometry()
        key = (self.style["tickLength"], self.style["hideOverlappingLabels"])
        cached = getattr(self, "_br", None)
        if cached is None or cached[0] != geo or cached[1] != key:
            cached = self._br = (geo, key, super().boundingRect())
        return QRectF(cached[2])

    def _updateLabel(self) -> None:  # noqa: N802 - pyqtgraph's name
        """pyqtgraph's, but the title's HTML is laid out only when it changed and the title is
        shown: most axes here have none, and building one sets it several times (pens, label)."""
        label = self.label
        if not self._in_init and label.isVisibleTo(self):
            html = self.labelString()
            if html != getattr(self, "_title_html", None):  # also called from AxisItem.__init__
                self._title_html = html
                label.setHtml(html)
        self._adjustSize()
        self.picture = None
        self.update()

    def showLabel(self, show: bool = True) -> None:  # noqa: N802 - pyqtgraph's name
        """Shown: with the title's current text (see :meth:`_updateLabel`)."""
        if show:
            self.label.setVisible(True)
            self._updateLabel()
        super().showLabel(show)

    def set_integer_ticks(self, min_px: float | None = 48.0) -> None:
        """Label whole numbers (cycles) at a 1-2-5 step that leaves ``min_px`` pixels per label,
        recomputed at each redraw so a resize or refit keeps them legible; None: back to setTicks."""
        if min_px != self._integer_px:
            self._integer_px = min_px
            self.picture = None
            self.update()

    def _integer_levels(self, length_px: float) -> list:
        lo, hi = sorted(self.range)
        per_unit = length_px / max(hi - lo, 1e-9)
        step = 1
        while step * per_unit < self._integer_px:
            step = step * 5 // 2 if str(step)[0] == "2" else step * 2
        minor = 1 if per_unit >= 6 else step
        first, last = int(math.ceil(lo)), int(math.floor(hi))
        major = [(float(v), str(v)) for v in range(first + (-first) % step, last + 1, step)]
        minor_ticks = [(float(v), "") for v in range(first, last + 1, minor) if v % step] if minor < step else []
        return [major, minor_ticks]

    def setRange(self, mn: float, mx: float) -> None:  # noqa: N802 - pyqtgraph's name
        """The linked view re-announces its range on every resize and refit: same range, no redraw."""
        if getattr(self, "range", None) == [mn, mx]:
            return
        super().setRange(mn, mx)

    def setTicks(self, ticks) -> None:  # noqa: N802 - pyqtgraph's name
        """The same ticks again (views set them on every render), or new ones that look the
        same in today's range (a row more, below the visible ones), are kept without a redraw:
        pyqtgraph redraws on every call; the next range change draws them."""
        old = self._tickLevels
        if ticks == old:
            return
        if old is not None and ticks is not None and self.picture is not None and len(old) == len(ticks):
            lo, hi = sorted(self.range)

            def seen(levels):
                return [[t for t in level if lo <= t[0] <= hi] for level in levels]

            if seen(old) == seen(ticks):
                self._tickLevels = ticks
                return
        super().setTicks(ticks)

    def _fast(self) -> bool:
        return ((self._tickLevels is not None or self._integer_px is not None) and self.grid is False
                and not any(self.style["stopAxisAtTick"]) and self.orientation in ("left", "right", "top", "bottom"))

    def paint(self, p, opt, widget) -> None:
        """Draw from a plan made once per change (pyqtgraph records a QPicture of per-label
        layouts; this item is cached as a pixmap anyway, see DocView.cache_static_items)."""
        if not self._fast():
            return super().paint(p, opt, widget)
        if self.picture is None:
            self._plan = self._make_plan()
            self.picture = _VALID
        if self._plan is None:
            return
        axis_pen, axis_line, ticks, texts, clip, font = self._plan
        p.save()
        p.setRenderHint(QPainter.RenderHint.Antialiasing, False)
        p.setRenderHint(QPainter.RenderHint.TextAntialiasing, True)
        p.setPen(axis_pen)
        p.drawLine(axis_line)
        for pen, lines in ticks:
            if lines:
                p.setPen(pen)
                p.drawLines(lines)
        if texts:
            p.setFont(font)
            p.setPen(self.textPen())
            p.setClipRect(clip)
            for pt, st in texts:
                p.drawStaticText(pt, st)
        p.restore()

    def _level_pen(self, base: QPen, alpha: int) -> QPen:
        """The tick pen at a level's opacity (made once per pen and level, not per redraw)."""
        key = (base.color().rgba(), base.widthF(), alpha)
        pen = self._pens.get(key)
        if pen is None:
            pen = self._pens[key] = QPen(base)
            c = QColor(base.color())
            c.setAlpha(alpha)
            pen.setColor(c)
        return pen

    def _make_plan(self):
        """pyqtgraph's generateDrawSpecs for fixed ticks (same positions, alignment, crowding
        rule and clipping), straight to lines and laid-out labels."""
        font = self.style["tickFont"] or _default_font()
        bounds = self.mapRectFromParent(self.geometry())
        o = self.orientation
        vertical = o in ("left", "right")
        if o == "left":
            a, b = bounds.topRight() + QPointF(-1, -1), bounds.bottomRight() + QPointF(-1, 1)
            stop, sign = bounds.right(), -1
        elif o == "right":
            a, b = bounds.topLeft() + QPointF(1, -1), bounds.bottomLeft() + QPointF(1, 1)
            stop, sign = bounds.left(), 1
        elif o == "top":
            a, b = bounds.bottomLeft() + QPointF(-1, -1), bounds.bottomRight() + QPointF(1, -1)
            stop, sign = bounds.bottom(), -1
        else:
            a, b = bounds.topLeft() + QPointF(-1, 1), bounds.topRight() + QPointF(1, 1)
            stop, sign = bounds.top(), 1
        # an axis is never scaled inside its view: its own units are pixels (pyqtgraph maps the
        # ends to the device, a costly transform lookup, for the same number)
        length_px = math.hypot(b.x() - a.x(), b.y() - a.y())
        if length_px <= 0 or self.getViewWidget() is None:
            return None
        levels = self._integer_levels(length_px) if self._integer_px is not None else self._tickLevels
        lo, hi = self.range
        if hi == lo:
            scale, offset = 1.0, 0.0
        elif vertical:
            scale = -bounds.height() / (hi - lo)
            offset = lo * scale - bounds.height()
        else:
            scale = bounds.width() / (hi - lo)
            offset = lo * scale
        x_min, x_max = sorted((lo * scale - offset, hi * scale - offset))
        axis_pen, base_pen, solid = self._plan_pens()
        alpha_style = self.style["tickAlpha"]
        ticks, placed = [], []
        for i, level in enumerate(levels):
            end = stop + sign * self.style["tickLength"] / (i * 0.5 + 1.0)
            pen = base_pen
            if solid:
                alpha = 255 / (i + 1) if alpha_style is None else (
                    alpha_style * 255 if isinstance(alpha_style, float) else alpha_style)
                pen = self._level_pen(base_pen, int(max(0, min(255, round(alpha)))))
            lines, pos = [], []
            for v, _ in level:
                x = v * scale - offset
                if x < x_min or x > x_max:
                    pos.append(None)
                    continue
                pos.append(x)
                lines.append(QLineF(stop, x, end, x) if vertical else QLineF(x, stop, x, end))
            ticks.append((pen, lines))
            placed.append(pos)
        texts: list = []
        br = self.boundingRect()
        clip = br.toAlignedRect()
        if self.style["showValues"]:
            bl, bt, bw, bh = br.left(), br.top(), br.width(), br.height()
            eps = 1e-6
            gap = max(0, self.style["tickLength"]) + self.style["tickTextOffset"][0 if vertical else 1]
            sizes_so_far: list[tuple[float, float]] = []
            across = 0.0
            key = self._font_key(font)
            for i, level in enumerate(levels[: self.style["maxTextLevel"] + 1]):
                labels = [(x, sized_text(text, font, key)) for (_, text), x in zip(level, placed[i]) if x is not None and text]
                if not level:
                    continue
                labels = _thinned(labels, vertical)
                sizes = [(w, h) for _, (_, w, h) in labels]
                labels = [(x, st) for x, (st, _, _) in labels]
                sizes_so_far += [(w, h * 0.8) for w, h in sizes]
                along = sum(h if vertical else w for w, h in sizes_so_far)
                if i > 0:  # pyqtgraph's crowding rule for the finer levels
                    fill = along / length_px
                    if any(len(texts) >= n and fill >= lim for n, lim in self.style["textFillLimits"]):
                        break
                across = max((w if vertical else h for w, h in sizes_so_far), default=0.0)
                for (x, st), (w, full_h) in zip(labels, sizes):
                    h = full_h * 0.8  # pyqtgraph's box: 0.8 of the line; the text is aligned in it
                    if o == "left":
                        rx, ry = stop - gap - w, x - h / 2
                        tx, ty = rx, x - full_h / 2
                    elif o == "right":
                        rx, ry = stop + gap, x - h / 2
                        tx, ty = rx, x - full_h / 2
                    elif o == "top":
                        rx, ry = x - w / 2, stop - gap - h
                        tx, ty = rx, ry + h - full_h
                    else:
                        rx, ry = x - w / 2, stop + gap
                        tx, ty = rx, ry
                    if rx < bl - eps or ry < bt - eps or rx + w > bl + bw + eps or ry + h > bt + bh + eps:
                        continue  # pyqtgraph drops a label that does not fit the axis
                    texts.append((QPointF(tx, ty), st))
            if across != self._across:  # pyqtgraph may resize the axis for its labels: on a change only
                self._across = across
                self._updateMaxTextSize(across)
        return axis_pen, QLineF(a, b), ticks, texts, clip, font

    def _plan_pens(self) -> tuple:
        """(axis pen, tick pen, tick pen is solid), made again only when a pen is set
        (pyqtgraph builds a new QPen on every pen() call)."""
        src = (self._pen, self._tickPen)
        cached = self._pen_cache
        if cached is None or cached[0][0] is not src[0] or cached[0][1] is not src[1]:
            axis_pen = self.pen()
            base_pen = axis_pen if self._tickPen is None else self.tickPen()
            cached = self._pen_cache = (src, axis_pen, base_pen, base_pen.brush().style() == Qt.BrushStyle.SolidPattern)
        return cached[1:]

    def _font_key(self, font: QFont) -> str:
        cached = self._fkey
        if cached is None or cached[0] != font:
            cached = self._fkey = (QFont(font), font.key())
        return cached[1]


_FONT: list = []


#: pixels kept free between two labels along an axis
LABEL_GAP = 2.0


def _thinned(labels: list, vertical: bool) -> list:
    """Every 2nd, 4th, ... label where evenly spaced labels would touch (32 lanes in a short
    Thread -> bank panel printed 0, 2, ... 30 one on another): the ticks stay, the numbers read."""
    if len(labels) < 3:
        return labels
    xs = [x for x, _ in labels]
    spacing = min(abs(b - a) for a, b in zip(xs, xs[1:]))
    need = max((st[2] * 0.8 if vertical else st[1]) for _, st in labels) + LABEL_GAP
    stride = 1
    while stride * spacing < need and stride < len(labels):
        stride *= 2
    return labels if stride == 1 else labels[::stride]


def _default_font() -> QFont:
    """The tick font when none is set (pyqtgraph's default: the application's font)."""
    if not _FONT:
        _FONT.append(QFont())
    return _FONT[0]
