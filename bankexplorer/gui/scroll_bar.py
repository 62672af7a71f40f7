"""A scroll bar that is cheap to paint.

Qt's Fusion style fills a scroll bar's groove with a gradient, span by span: about 4.5 µs per
pixel of length, so the editor panel's bar (about 670 px) took 3 ms at every repaint, as long as
the rest of the window together, and twice that at start-up. :class:`FlatScrollBar` keeps the
style's geometry (the arrow buttons and the handle are where Fusion puts them, so clicks, drags
and the wheel behave exactly as before) and paints it in flat fills.
"""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPalette, QPolygonF
from PySide6.QtWidgets import QAbstractScrollArea, QScrollBar, QStyle, QStyleOptionSlider

_CC = QStyle.ComplexControl.CC_ScrollBar
_SC = QStyle.SubControl


class FlatScrollBar(QScrollBar):
    def paintEvent(self, ev) -> None:  # noqa: N802 - Qt's name
        opt = QStyleOptionSlider()
        self.initStyleOption(opt)
        style = self.style()
        pal = self.palette()
        window = pal.color(QPalette.ColorRole.Window)
        border = pal.color(QPalette.ColorRole.Mid)
        ink = pal.color(QPalette.ColorRole.ButtonText)
        vertical = self.orientation() == Qt.Orientation.Vertical
        p = QPainter(self)
        r = QRectF(self.rect())
        p.fillRect(r, window.darker(104))
        p.setPen(border.lighter(125))
        p.drawRect(r.adjusted(0, 0, -1, -1))
        enabled = self.isEnabled() and self.maximum() > self.minimum()
        arrow = QColor(ink)
        arrow.setAlpha(170 if enabled else 70)
        p.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        for sc, towards_end in ((_SC.SC_ScrollBarSubLine, False), (_SC.SC_ScrollBarAddLine, True)):
            box = QRectF(style.subControlRect(_CC, opt, sc, self))
            if box.isEmpty():
                continue
            p.setPen(border.lighter(125))
            if vertical:
                y = box.bottom() + 0.5 if not towards_end else box.top() - 0.5
                p.drawLine(QPointF(box.left() + 2, y), QPointF(box.right() - 2, y))
            else:
                x = box.right() + 0.5 if not towards_end else box.left() - 0.5
                p.drawLine(QPointF(x, box.top() + 2), QPointF(x, box.bottom() - 2))
            p.setPen(Qt.PenStyle.NoPen)
            p.setBrush(arrow)
            p.drawPolygon(_triangle(box.center(), min(box.width(), box.height()) * 0.22, vertical, towards_end))
        handle = QRectF(style.subControlRect(_CC, opt, _SC.SC_ScrollBarSlider, self))
        if enabled and not handle.isEmpty():
            hot = self.isSliderDown() or (opt.activeSubControls & _SC.SC_ScrollBarSlider
                                           and opt.state & QStyle.StateFlag.State_MouseOver)
            fill = pal.color(QPalette.ColorRole.Button).darker(118 if self.isSliderDown() else 108 if hot else 100)
            inset = handle.adjusted(2.5, 1.5, -2.5, -1.5) if vertical else handle.adjusted(1.5, 2.5, -1.5, -2.5)
            p.setPen(border)
            p.setBrush(fill)
            p.drawRoundedRect(inset, 3, 3)
        p.end()


def _triangle(c: QPointF, s: float, vertical: bool, towards_end: bool) -> QPolygonF:
    d = 1 if towards_end else -1
    if vertical:
        pts = [QPointF(c.x() - s * 1.6, c.y() - d * s * 0.8), QPointF(c.x() + s * 1.6, c.y() - d * s * 0.8),
               QPointF(c.x(), c.y() + d * s * 0.8)]
    else:
        pts = [QPointF(c.x() - d * s * 0.8, c.y() - s * 1.6), QPointF(c.x() - d * s * 0.8, c.y() + s * 1.6),
               QPointF(c.x() + d * s * 0.8, c.y())]
    return QPolygonF(pts)


def flat_scroll_bars(area: QAbstractScrollArea) -> None:
    """Give a scroll area :class:`FlatScrollBar` s (its policies and ranges carry over)."""
    area.setVerticalScrollBar(FlatScrollBar(Qt.Orientation.Vertical))
    area.setHorizontalScrollBar(FlatScrollBar(Qt.Orientation.Horizontal))
