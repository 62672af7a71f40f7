"""A thin layer over QPainter that both output formats share: the same calls draw into a QImage
(PNG, at any scale) and into a QSvgGenerator (SVG: real rectangles, lines and <text>).

Coordinates are logical pixels of the figure at 1x; the PNG painter is scaled, the SVG one is
not (its viewBox is the 1x size), so text stays text and shapes stay shapes.
"""

from __future__ import annotations

from functools import lru_cache

from PySide6.QtCore import QLineF, QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QFontMetricsF, QPainter, QPainterPath, QPen, QPolygonF

RGB = tuple[int, int, int]
FAMILIES = ["DejaVu Sans", "Verdana", "Arial", "Helvetica"]


def qc(rgb, alpha: int = 255) -> QColor:
    return QColor(int(rgb[0]), int(rgb[1]), int(rgb[2]), alpha)


@lru_cache(maxsize=128)
def font(px: float, bold: bool = False, mono: bool = False) -> QFont:
    f = QFont()
    f.setFamilies(["DejaVu Sans Mono", "Menlo", "Consolas"] if mono else FAMILIES)
    f.setPixelSize(max(1, round(px)))
    f.setBold(bold)
    f.setHintingPreference(QFont.HintingPreference.PreferNoHinting)  # same layout at every scale
    return f


@lru_cache(maxsize=128)
def metrics(f: QFont) -> QFontMetricsF:
    return QFontMetricsF(f)


def text_width(text: str, f: QFont) -> float:
    return metrics(f).horizontalAdvance(text)


def wrap(text: str, f: QFont, width: float) -> list[str]:
    """Greedy word wrap of ``text`` into lines no wider than ``width`` (a too-long word is kept)."""
    out: list[str] = []
    for para in text.split("\n"):
        line = ""
        for word in para.split(" "):
            trial = f"{line} {word}" if line else word
            if line and text_width(trial, f) > width:
                out.append(line)
                line = word
            else:
                line = trial
        out.append(line)
    return out


class Canvas:
    """Drawing primitives in logical (1x) coordinates."""

    def __init__(self, painter: QPainter):
        self.p = painter
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        painter.setRenderHint(QPainter.RenderHint.TextAntialiasing, True)

    # ---- state -------------------------------------------------------------------------------
    def save(self) -> None:
        self.p.save()

    def restore(self) -> None:
        self.p.restore()

    def translate(self, x: float, y: float) -> None:
        self.p.translate(x, y)

    def clip(self, x: float, y: float, w: float, h: float) -> None:
        self.p.setClipRect(QRectF(x, y, w, h))

    # ---- shapes ------------------------------------------------------------------------------
    def fill(self, x: float, y: float, w: float, h: float, rgb, alpha: int = 255) -> None:
        self.p.setPen(Qt.PenStyle.NoPen)
        self.p.setBrush(QBrush(qc(rgb, alpha)))
        self.p.drawRect(QRectF(x, y, w, h))

    def fill_many(self, rects: list[tuple[float, float, float, float]], rgb) -> None:
        """Many rectangles of one colour: one brush change, so one SVG group."""
        if not rects:
            return
        self.p.setPen(Qt.PenStyle.NoPen)
        self.p.setBrush(QBrush(qc(rgb)))
        self.p.drawRects([QRectF(*r) for r in rects])

    def outline(self, x: float, y: float, w: float, h: float, rgb, width: float = 1.0, inside: bool = True,
                dash: bool = False, radius: float = 0.0) -> None:
        """A rectangle outline; ``inside`` keeps the stroke within the rectangle."""
        pen = QPen(qc(rgb))
        pen.setWidthF(width)
        pen.setJoinStyle(Qt.PenJoinStyle.MiterJoin)
        if dash:
            pen.setStyle(Qt.PenStyle.DashLine)
        self.p.setPen(pen)
        self.p.setBrush(Qt.BrushStyle.NoBrush)
        d = width / 2 if inside else 0.0
        r = QRectF(x + d, y + d, w - 2 * d, h - 2 * d)
        if radius:
            self.p.drawRoundedRect(r, radius, radius)
        else:
            self.p.drawRect(r)

    def rounded(self, x: float, y: float, w: float, h: float, rgb, radius: float, border=None) -> None:
        self.p.setPen(QPen(qc(border), 1.0) if border is not None else Qt.PenStyle.NoPen)
        self.p.setBrush(QBrush(qc(rgb)))
        self.p.drawRoundedRect(QRectF(x, y, w, h), radius, radius)

    def line(self, x0: float, y0: float, x1: float, y1: float, rgb, width: float = 1.0, dash: bool = False) -> None:
        pen = QPen(qc(rgb))
        pen.setWidthF(width)
        pen.setCapStyle(Qt.PenCapStyle.FlatCap)
        if dash:
            pen.setDashPattern([4, 3])
        self.p.setPen(pen)
        self.p.drawLine(QLineF(x0, y0, x1, y1))

    def lines(self, segs: list[tuple[float, float, float, float]], rgb, width: float = 1.0) -> None:
        if not segs:
            return
        pen = QPen(qc(rgb))
        pen.setWidthF(width)
        pen.setCapStyle(Qt.PenCapStyle.FlatCap)
        self.p.setPen(pen)
        self.p.drawLines([QLineF(*s) for s in segs])

    def triangle(self, cx: float, cy: float, size: float, rgb, border=None) -> None:
        """An upward triangle (the conflict badge) centred on (cx, cy)."""
        h = size * 0.87
        poly = QPolygonF([QPointF(cx, cy - h / 2), QPointF(cx + size / 2, cy + h / 2),
                          QPointF(cx - size / 2, cy + h / 2)])
        pen = QPen(qc(border), max(0.8, size / 9)) if border is not None else Qt.PenStyle.NoPen
        self.p.setPen(pen)
        self.p.setBrush(QBrush(qc(rgb)))
        self.p.drawPolygon(poly)

    def triangles(self, centers: list[tuple[float, float]], size: float, rgb, border=None) -> None:
        for cx, cy in centers:
            self.triangle(cx, cy, size, rgb, border)

    def dot(self, cx: float, cy: float, r: float, rgb, border=None) -> None:
        pen = QPen(qc(border), max(0.8, r / 4)) if border is not None else Qt.PenStyle.NoPen
        self.p.setPen(pen)
        self.p.setBrush(QBrush(qc(rgb)))
        self.p.drawEllipse(QPointF(cx, cy), r, r)

    def hatch(self, x: float, y: float, w: float, h: float, rgb, step: float = 6.0, width: float = 1.0) -> None:
        """Diagonal stripes over a rectangle (padding)."""
        if w <= 0 or h <= 0:
            return
        self.save()
        self.clip(x, y, w, h)
        segs = []
        k = -h
        while k < w:
            segs.append((x + k, y + h, x + k + h, y))
            k += step
        self.lines(segs, rgb, width)
        self.restore()

    def path_polyline(self, pts: list[tuple[float, float]], rgb, width: float = 1.0) -> None:
        if len(pts) < 2:
            return
        path = QPainterPath(QPointF(*pts[0]))
        for pt in pts[1:]:
            path.lineTo(QPointF(*pt))
        pen = QPen(qc(rgb))
        pen.setWidthF(width)
        self.p.setPen(pen)
        self.p.setBrush(Qt.BrushStyle.NoBrush)
        self.p.drawPath(path)

    # ---- text --------------------------------------------------------------------------------
    def text(self, x: float, y: float, s: str, f: QFont, rgb, align: str = "left", valign: str = "top") -> float:
        """Draw ``s`` with its ``align`` edge at x and its ``valign`` (top/center/baseline/bottom)
        at y. Returns the width drawn."""
        m = metrics(f)
        w = m.horizontalAdvance(s)
        if align == "center":
            x -= w / 2
        elif align == "right":
            x -= w
        if valign == "top":
            base = y + m.ascent()
        elif valign == "center":
            base = y + (m.ascent() - m.descent()) / 2
        elif valign == "bottom":
            base = y - m.descent()
        else:
            base = y
        self.p.setFont(f)
        self.p.setPen(qc(rgb))
        self.p.drawText(QPointF(x, base), s)
        return w

    def text_lines(self, x: float, y: float, lines: list[str], f: QFont, rgb, spacing: float = 1.25) -> float:
        """Lines from the top at y; returns the height used."""
        lh = metrics(f).height() * spacing
        for k, line in enumerate(lines):
            self.text(x, y + k * lh, line, f, rgb)
        return lh * len(lines)

    def rich_line(self, x: float, y: float, runs: list[tuple[str, QFont, RGB]]) -> float:
        """One line made of runs of differently styled text, top at y; returns its width."""
        top_ascent = max(metrics(f).ascent() for _, f, _ in runs)
        cx = x
        for s, f, rgb in runs:
            self.p.setFont(f)
            self.p.setPen(qc(rgb))
            self.p.drawText(QPointF(cx, y + top_ascent), s)
            cx += metrics(f).horizontalAdvance(s)
        return cx - x


def line_height(f: QFont, spacing: float = 1.25) -> float:
    return metrics(f).height() * spacing
