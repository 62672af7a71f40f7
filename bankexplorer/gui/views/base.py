"""What every view shares: a pyqtgraph canvas that draws (Analysis, Selection, Hover, Style).

A view either observes a Document (the window) or is driven by hand (exported figures, tests):
``v = TileView(style=SLIDE); v.render(an, Selection()); v.render_hover(Hover()); v.grab()``.
Redraws after document changes are coalesced into one per event-loop turn, because one edit
emits several signals (pattern, analysis, a clamped selection).
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QPointF, QRectF, Qt, QTimer
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QPainter, QPen, QTransform
from PySide6.QtWidgets import QGraphicsItem, QGraphicsRectItem, QGraphicsView, QSizePolicy, QToolTip

from ...model.analysis import Analysis, InstructionDetail, instruction_detail
from ..document import Document, Hover, Selection
from ..palette import SCREEN, Style
from . import richtext
from .plot import Plot
from .marks import units_per_pixel

pg.setConfigOptions(antialias=False, imageAxisOrder="row-major")

_DETAIL_CACHE: list = [None, None, None]  # (analysis, row, detail): views of one state share it


def detail_for(an: Analysis | None, row: int | None) -> InstructionDetail | None:
    """Lane-level detail of one warp instruction, or None when there is nothing valid to show."""
    if an is None or row is None or an.errors[row]:
        return None
    if _DETAIL_CACHE[0] is an and _DETAIL_CACHE[1] == row:
        return _DETAIL_CACHE[2]
    d = instruction_detail(an, row)
    _DETAIL_CACHE[:] = [an, row, d]
    return d


_ROW_CACHE: list = [None, None, None]  # (analysis, (instruction, iteration, warp), row)


def selected_row(an: Analysis | None, sel: Selection) -> int | None:
    """The analysis row of the selected warp instruction (every view asks, several times per
    redraw: remembered for the last analysis and selection)."""
    if an is None or not len(an):
        return None
    key = (sel.instruction, sel.iteration, sel.warp)
    if _ROW_CACHE[0] is an and _ROW_CACHE[1] == key:
        return _ROW_CACHE[2]
    row = an.row_of(*key)
    _ROW_CACHE[:] = [an, key, row]
    return row


def qcolor(rgb, alpha: int = 255) -> QColor:
    return QColor(int(rgb[0]), int(rgb[1]), int(rgb[2]), alpha)


def cosmetic_pen(rgb, width: float = 1.0, alpha: int = 255, dash: bool = False) -> QPen:
    pen = QPen(qcolor(rgb, alpha))
    pen.setWidthF(width)
    pen.setCosmetic(True)
    if dash:
        pen.setDashPattern([4, 3])
    return pen


def grid_image(rgba: np.ndarray, k: int, line: tuple[int, int, int] | None) -> np.ndarray:
    """Blow each cell up to k x k pixels with a 1-pixel grid line on its top/left edge, so a
    dense grid stays one ImageItem yet reads as separate cells."""
    img = np.repeat(np.repeat(rgba, k, axis=0), k, axis=1)
    if line is not None and k >= 3:
        img[::k, :, :3] = line
        img[:, ::k, :3] = line
        img[::k, :, 3] = np.maximum(img[::k, :, 3], 255)
        img[:, ::k, 3] = np.maximum(img[:, ::k, 3], 255)
    return img


def pixels_per_cell(n_cells: int) -> int:
    if n_cells <= 20000:
        return 8
    if n_cells <= 80000:
        return 4
    return 1


def hatch(rgba: np.ndarray, mask: np.ndarray, k: int, color) -> np.ndarray:
    """Diagonal stripes over the cells in ``mask`` (already blown up by ``k``)."""
    if k < 4 or not mask.any():
        return rgba
    H, W = rgba.shape[:2]
    stripes = ((np.arange(H, dtype=np.int32)[:, None] + np.arange(W, dtype=np.int32)[None, :]) & 3) == 0
    big = np.repeat(np.repeat(mask, k, axis=0), k, axis=1)
    sel = big & stripes
    rgba[sel, :3] = color
    return rgba


class Caption(pg.GraphicsWidget):
    """A caption in the views' small markup (see :mod:`.richtext`) that wraps to the width it is
    given (pyqtgraph's LabelItem makes the whole view at least as wide as its text, which clipped
    the views in narrow docks) and is painted without a QTextDocument (cheap to change per edit)."""

    MARGIN = 2.0

    def __init__(self, color, size_pt: int = 9):
        super().__init__()
        self.ink = QColor(pg.mkColor(color))
        self.fonts = richtext.Fonts(size_pt)
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
        self.setMinimumWidth(10)
        self._html = ""
        self._pieces: list = []
        self._ops: list = []  # the pieces as drawing steps (richtext.paint_plan)
        self._laid_width = -1.0
        self._height = -1.0
        self._relayout()

    def setText(self, html: str) -> None:  # noqa: N802 - LabelItem's name
        if html != self._html:
            self._html = html
            self._laid_width = -1.0
            self._relayout()
            self.update()

    def text(self) -> str:
        """The caption as plain text (tests read it)."""
        return richtext.plain_text(self._html)

    def _relayout(self) -> None:
        w = self.size().width() - 2 * self.MARGIN
        if w == self._laid_width:
            return
        self._laid_width = w
        self._pieces, n, _ = self.fonts.laid_out(self._html, max(w, 20.0))
        self._ops = richtext.paint_plan(self._pieces, self.fonts, self.ink, self.MARGIN, self.MARGIN)
        h = max(n, 1) * self.fonts.line_height + 2 * self.MARGIN
        if h != self._height:
            self._height = h
            self.setMinimumHeight(h)
            self.setMaximumHeight(h)
            self.setPreferredHeight(h)

    def resizeEvent(self, ev) -> None:  # noqa: N802 - Qt's name
        if self.size().width() > 10:
            self._relayout()

    def paint(self, p, *args) -> None:
        p.setRenderHint(QPainter.RenderHint.TextAntialiasing, True)
        richtext.paint_ops(p, self._ops)


class RectHighlight(QGraphicsRectItem):
    """A rectangle in data coordinates with a cosmetic pen: hover and selection marks."""

    def __init__(self, rgb, width: float = 2.5, fill_alpha: int = 0):
        super().__init__()
        self.setPen(cosmetic_pen(rgb, width))
        if fill_alpha:
            self.setBrush(qcolor(rgb, fill_alpha))
        self.setZValue(50)
        self.hide()

    def show_rect(self, x: float, y: float, w: float, h: float) -> None:
        self.setRect(x, y, w, h)
        self.show()


class Label(pg.GraphicsObject):
    """A short text at a point of the data, at a fixed size in pixels, anchored like pyqtgraph's
    TextItem (whose QTextDocument is laid out again on every ``setText``: a tenth of a
    millisecond or more per label and edit)."""

    MARGIN = 4.0  # the text's margin, as a TextItem's document margin

    def __init__(self, text: str = "", color=(0, 0, 0), anchor=(0.0, 0.0), fill=None, border=None):
        super().__init__()
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIgnoresTransformations, True)
        self.font = QFont()
        self._color = QColor(pg.mkColor(color))
        self._anchor = (float(anchor[0]), float(anchor[1]))
        self._fill = QColor(pg.mkColor(fill)) if fill is not None else None
        self._border = pg.mkPen(border) if border is not None else None
        self._text = ""
        self._rect = QRectF()
        self.setText(text)

    def text(self) -> str:
        return self._text

    def setText(self, text: str, color=None) -> None:  # noqa: N802 - TextItem's name
        if color is not None:
            self.setColor(color)
        if text != self._text or self._rect.isNull():
            self._text = str(text)
            self._relayout()

    def setColor(self, color) -> None:  # noqa: N802 - TextItem's name
        c = QColor(pg.mkColor(color))
        if c != self._color:
            self._color = c
            self.update()

    def setAnchor(self, anchor) -> None:  # noqa: N802 - TextItem's name
        a = (float(anchor[0]), float(anchor[1]))
        if a != self._anchor:
            self._anchor = a
            self._relayout()

    def _relayout(self) -> None:
        self._st = richtext.sized_text(self._text, self.font) if self._text else None
        self._st_font = QFont(self.font)
        w = (self._st[1] if self._st else 0.0) + 2 * self.MARGIN
        h = (self._st[2] if self._st else 0.0) + 2 * self.MARGIN
        self.prepareGeometryChange()
        self._rect = QRectF(-self._anchor[0] * w, -self._anchor[1] * h, w, h)
        self.update()

    def boundingRect(self) -> QRectF:  # noqa: N802 - Qt's name
        return self._rect

    def paint(self, p, *args) -> None:
        if not self._text:
            return
        r = self._rect
        if self._fill is not None:
            p.fillRect(r, self._fill)
        if self._border is not None:
            p.setPen(self._border)
            p.drawRect(r)
        p.setRenderHint(QPainter.RenderHint.TextAntialiasing, True)
        p.setFont(self.font)
        p.setPen(self._color)
        st = self._st[0] if self.font == self._st_font else richtext.static_text(self._text, self.font)
        p.drawStaticText(QPointF(r.left() + self.MARGIN, r.top() + self.MARGIN), st)


class _LabelLayer(pg.GraphicsObject):
    """Every label of a :class:`TextPool`, painted in one go at a fixed pixel size: hundreds of
    pg.TextItems each re-laid out their text and re-mapped their transform on every edit and
    zoom, a good part of an edit's time."""

    def __init__(self, pool: "TextPool"):
        super().__init__()
        self.pool = pool
        self._bounds = QRectF()

    def set_bounds(self, r: QRectF) -> None:
        if r != self._bounds:  # the labels moved beyond their old rectangle
            self.prepareGeometryChange()
            self._bounds = r
        self.update()

    def viewTransformChanged(self) -> None:  # noqa: N802 - pyqtgraph's name
        """The labels keep their size in pixels: at another zoom they cover other data."""
        super().viewTransformChanged()
        self.pool.update_bounds()

    def boundingRect(self) -> QRectF:  # noqa: N802 - Qt's name
        return self._bounds

    def paint(self, p, *args) -> None:
        drawn = self.pool.drawn
        if not drawn:
            return
        tr = p.transform()
        # the views' transforms only scale and move: a label's point maps with four numbers
        sx, sy, dx, dy = tr.m11(), tr.m22(), tr.dx(), tr.dy()
        general = tr.type() not in _AXIS_ALIGNED
        p.save()
        p.resetTransform()
        p.setRenderHint(QPainter.RenderHint.TextAntialiasing, True)
        p.setFont(self.pool.font)
        ink_now = None
        for x, y, st, ox, oy, w, h, ink, fill in drawn:
            if general:
                x, y = tr.map(x, y)
            else:
                x, y = x * sx + dx, y * sy + dy
            left, top = x - ox, y - oy
            if fill is not None:
                p.fillRect(QRectF(left, top, w, h), fill)
            if ink is not ink_now:
                p.setPen(ink)
                ink_now = ink
            p.drawStaticText(QPointF(left + self.pool.text_margin, top + self.pool.text_margin), st)
        p.restore()


_AXIS_ALIGNED = (QTransform.TransformationType.TxNone, QTransform.TransformationType.TxTranslate,
                 QTransform.TransformationType.TxScale)
_INKS: dict = {}


def _ink(rgb) -> QColor:
    """A shared QColor per colour (labels are painted with many of few colours)."""
    c = _INKS.get(rgb)
    if c is None:
        if len(_INKS) > 256:
            _INKS.clear()
        c = _INKS[rgb] = QColor(*rgb) if len(rgb) == 4 else qcolor(rgb)
    return c


class TextPool:
    """The labels of one kind in one view (lane numbers, element indices), shown only when they
    fit (zoomed in). One item paints them all (see :class:`_LabelLayer`)."""

    def __init__(self, vb: pg.ViewBox, color, size_pt: int, bold: bool = False, anchor=(0.5, 0.5), z: float = 60,
                 margin: float | None = None):
        self.vb, self.color, self.anchor, self.z = vb, color, anchor, z
        #: the text's margin in pixels (a pg.TextItem's 4 makes a filled label's box 8 pixels
        #: taller than its text: in a small cell it covered the cell's outline)
        self.margin = margin
        self.font = QFont()
        self.font.setPointSize(size_pt)
        self.font.setBold(bold)
        #: (x, y, text, QColor ink, QColor fill or None) in data coordinates
        self.labels: list[tuple] = []
        #: what the layer paints: (x, y, QStaticText, offset x, offset y, box w, box h, ink, fill)
        self.drawn: list[tuple] = []
        self._fm: dict[int, tuple] = {}
        self._laid: dict[int, dict] = {}
        self._key = None
        self.layer = _LabelLayer(self)
        self.layer.setZValue(z)
        vb.addItem(self.layer, ignoreBounds=True)

    @property
    def used(self) -> int:
        return len(self.labels)

    @property
    def text_margin(self) -> float:
        return self.margin if self.margin is not None else 4.0

    def _metrics(self, pt: int) -> tuple:
        """(QFontMetricsF, its {text: advance}) of this pool's font at ``pt`` points, made once."""
        m = self._fm.get(pt)
        if m is None:
            f = QFont(self.font)
            f.setPointSize(pt)
            m = self._fm[pt] = (QFontMetricsF(f), {})
        return m

    def advance(self, pt: int, text: str) -> float:
        """The width of ``text`` in this pool's font at ``pt`` points (measured once)."""
        fm, widths = self._metrics(pt)
        w = widths.get(text)
        if w is None:
            if len(widths) > 4096:
                widths.clear()
            w = widths[text] = fm.horizontalAdvance(text)
        return w

    def _box(self, text: str) -> tuple:
        """(QStaticText, offset x, offset y, box width, box height) of ``text`` in today's font."""
        st = richtext.static_text(text, self.font)
        size = st.size()
        m = self.text_margin
        w, h = size.width() + 2 * m, size.height() + 2 * m
        return st, self.anchor[0] * w, self.anchor[1] * h, w, h

    def fit(self, labels: list[tuple], room_px: float, base_pt: int, min_pt: int = 6, color=None,
            room_h_px: float | None = None, whole_height: bool = False) -> bool:
        """Show ``labels`` in the largest font (at most ``base_pt``) in which the widest one fits
        ``room_px`` pixels across (and ``room_h_px`` high: its digits, or with ``whole_height``
        its whole line box); none at all when even ``min_pt`` would overlap its neighbours."""
        if not labels:
            self.set([])
            return True
        widest = max(labels, key=lambda t: len(t[2]))[2]
        pt = base_pt
        while pt >= min_pt:
            fm = self._metrics(pt)[0]
            tall = fm.height() + 2 * (self.margin or 0) if whole_height else fm.ascent()
            if self.advance(pt, widest) + 3 <= room_px and (room_h_px is None or tall <= room_h_px):
                break
            pt -= 1
        if pt < min_pt:
            self.set([])
            return False
        if pt != self.font.pointSize():
            self.font.setPointSize(pt)
            self._key = None
        self.set(labels, color)
        return True

    def set(self, labels: list[tuple], color=None) -> None:
        """``labels``: (x, y, text), (x, y, text, rgb) for a label with its own colour, or
        (x, y, text, rgb, (r, g, b, a)) for one on a filled box."""
        pt = self.font.pointSize()
        key = (labels if isinstance(labels, tuple) else tuple(map(tuple, labels)), color, pt)
        if key == self._key:  # the same labels: nothing to lay out or repaint
            return
        self._key = key
        out, drawn = [], []
        laid = self._laid.get(pt)
        if laid is None:
            laid = self._laid[pt] = {}
        elif len(laid) > 4096:
            laid.clear()
        default = _ink(tuple(color or self.color))
        for lab in labels:
            x, y, text = float(lab[0]), float(lab[1]), str(lab[2])
            n = len(lab)
            ink = _ink(tuple(lab[3])) if n > 3 and lab[3] is not None else default
            fill = _ink(tuple(lab[4])) if n > 4 and lab[4] is not None else None
            out.append((x, y, text, ink, fill))
            # laid out once per text and size, not on every paint: the text, its box and the
            # box's offset from the label's point
            box = laid.get(text)
            if box is None:
                box = laid[text] = self._box(text)
            drawn.append((x, y) + box + (ink, fill))
        self.labels = out
        self.drawn = drawn
        self.update_bounds()
        self.layer.update()

    def update_bounds(self) -> None:
        out = self.labels
        if not out:
            self.layer.set_bounds(QRectF())
            return
        xs = [lab[0] for lab in out]
        ys = [lab[1] for lab in out]
        # the text is sized in pixels: pad the label points by the widest label at today's zoom
        # (done again on every zoom, see _LabelLayer.viewTransformChanged)
        pt = self.font.pointSize()
        fm = self._metrics(pt)[0]
        m = self.text_margin
        wpx = max(self.advance(pt, t) for t in {lab[2] for lab in out}) + 2 * m + 4
        hpx = fm.height() + 2 * m + 4
        sx, sy = units_per_pixel(self.vb)
        px, py = wpx * sx if sx else 1.0, hpx * sy if sy else 1.0
        self.layer.set_bounds(QRectF(min(xs) - px, min(ys) - py, max(xs) - min(xs) + 2 * px, max(ys) - min(ys) + 2 * py))


class DocView(pg.GraphicsLayoutWidget):
    """Base of the linked views; subclasses implement :meth:`render` and :meth:`render_hover`."""

    title = "view"

    def __init__(self, doc: Document | None = None, style: Style = SCREEN, parent=None):
        super().__init__(parent=parent)
        self.addPlot = self._add_plot  # GraphicsLayoutWidget binds ci.addPlot per instance
        # an edit changes most of a view: repainting the whole viewport is cheaper than clipping
        # every item to the union of a hundred small dirty rectangles (pyqtgraph's "minimal" mode)
        self.setViewportUpdateMode(QGraphicsView.ViewportUpdateMode.FullViewportUpdate)
        # the background is one flat colour: filling it is cheaper than pyqtgraph's cached
        # background pixmap (a blit of the whole viewport per paint), and the view paints every
        # pixel of its viewport, so nothing beneath it need be painted first
        self.setCacheMode(QGraphicsView.CacheModeFlag.CacheNone)
        self.viewport().setAttribute(Qt.WidgetAttribute.WA_OpaquePaintEvent, True)
        self.viewport().setAttribute(Qt.WidgetAttribute.WA_NoSystemBackground, True)
        self.doc = doc
        self.style_ = style
        self.an: Analysis | None = None
        self.sel = Selection()
        self.setBackground(qcolor(style.background))
        self.ci.setContentsMargins(4, 4, 4, 4)
        self._pending = False
        #: the user zoomed or panned by hand: keep that range across edits and resizes until the
        #: next file is opened or View > Fit Views
        self.user_zoomed = False
        self._fit_pending = True
        self.scene().sigMouseMoved.connect(self._mouse_moved)
        self.scene().sigMouseClicked.connect(self._mouse_clicked)
        self.setMouseTracking(True)
        if doc is not None:
            doc.analysisChanged.connect(self.schedule)
            doc.selectionChanged.connect(self.schedule)
            doc.hoverChanged.connect(self._hover_changed)
            doc.loaded.connect(self._on_loaded)
            doc.replayChanged.connect(self._replay_changed)
        self.replay_marks = None

    # ---- replay ------------------------------------------------------------------------------
    def lane_rects(self, lane: int) -> list[QRectF]:
        """Where this view marks ``lane`` of the selected instruction, in its main view box's
        coordinates (the replay washes out waiting lanes and outlines the current ones)."""
        return []

    def _replay_changed(self) -> None:
        step = self.doc.replay_step if self.doc is not None else None
        self.render_replay(step)

    def render_replay(self, step) -> None:
        vb = getattr(self, "vb", None)
        if vb is None:
            return
        if self.replay_marks is None:
            from .replay_marks import ReplayMarks

            st = self.style_
            self.replay_marks = ReplayMarks(st.background, st.ink)
            vb.addItem(self.replay_marks, ignoreBounds=True)
        if step is None or step.kind != "wavefront":
            self.replay_marks.clear()
            return
        now = {int(ln): self.lane_rects(int(ln)) for ln in step.now}
        waiting = {int(ln): self.lane_rects(int(ln)) for ln in step.waiting}
        self.replay_marks.set_marks(now, waiting)

    def _add_plot(self, row=None, col=None, rowspan=1, colspan=1, **kargs) -> Plot:
        """``addPlot`` for the views: a lean :class:`~.plot.Plot` (a view box and the
        :class:`~.axis.FastAxis` axes it shows) instead of a full PlotItem."""
        plot = Plot(**kargs)
        self.ci.addItem(plot, row=row, col=col, rowspan=rowspan, colspan=colspan)
        return plot

    # ---- document plumbing -------------------------------------------------------------------
    def schedule(self) -> None:
        if not self._pending:
            self._pending = True
            QTimer.singleShot(0, self.refresh)

    def cache_static_items(self) -> None:
        """Paint axes, captions and images from a pixmap cache: an edit usually changes a few
        marks, and redrawing every tick label and scaling every image on each paint was most of
        an edit's cost (pyqtgraph re-renders a cached item only when it calls update())."""
        mode = QGraphicsItem.CacheMode.DeviceCoordinateCache
        for it in self.scene().items():
            if isinstance(it, (pg.AxisItem, Caption)):
                it.setCacheMode(mode)
                if isinstance(it, pg.AxisItem) and it.label is not None:
                    # the axis title is a child text item (a text document laid out on every
                    # paint), not part of the axis's cached picture
                    it.label.setCacheMode(mode)
            if isinstance(it, pg.AxisItem) and it.autoSIPrefix:
                # no axis here has units to scale: without this every range change re-sets the
                # axis title's HTML (a text layout) to add an SI prefix that is never there
                it.enableAutoSIPrefix(False)
        self._cached = True

    def refresh(self) -> None:
        """Draw the document's current state now."""
        self._pending = False
        if not getattr(self, "_cached", False):
            self.cache_static_items()
        if self.doc is None:
            return
        self.render(self.doc.analysis, self.doc.selection)
        if self._fit_pending:
            self.fit()
        self.render_hover(self.doc.hover_state)
        # apply new ranges now rather than at paint time: labels that follow a view's transform
        # would otherwise ask for a second paint from inside the first one
        for vb in self._viewboxes():
            vb.prepareForPaint()

    # ---- zoom ----------------------------------------------------------------------------------
    def track_view(self, vb: pg.ViewBox) -> None:
        """Fit ``vb`` when it is resized (unless the user zoomed) and note manual zooms."""
        vb.sigRangeChangedManually.connect(self._zoomed_by_hand)
        vb.sigResized.connect(self._resized)

    def _zoomed_by_hand(self, *args) -> None:
        self.user_zoomed = True

    def _resized(self, *args) -> None:
        if not self.user_zoomed:
            self.fit()

    def _on_loaded(self) -> None:
        self.user_zoomed = False
        self._fit_pending = True

    def fit(self, force: bool = False) -> None:
        """Zoom to the fitted range (what :meth:`fit_range` shows); ``force`` also drops a
        zoom the user made by hand."""
        if force:
            self.user_zoomed = False
        if self.user_zoomed or self.an is None:
            return
        self._fit_pending = False
        self.fit_range()

    def _viewboxes(self) -> list:
        vbs = getattr(self, "_vbs", None)
        if vbs is None:
            vbs = self._vbs = [it for it in self.scene().items() if isinstance(it, pg.ViewBox)]
        return vbs

    def fit_range(self) -> None:
        """Subclasses: set the range that shows the whole picture legibly."""

    def shape_changed(self) -> None:
        """Subclasses call this when what they draw changes size: refit unless zoomed by hand."""
        self._fit_pending = True
        if self.doc is None:  # driven by hand (figures, tests): no refresh() will follow
            self.fit()

    def _hover_changed(self) -> None:
        if self.doc is not None:
            self.render_hover(self.doc.hover_state)

    def _mouse_moved(self, scene_pos: QPointF) -> None:
        info = self.hover_at(scene_pos)
        if self.doc is not None:
            if info is None:
                self.doc.hover()
            else:
                self.doc.hover(**{k: v for k, v in info.items() if k in ("lane", "bank", "element", "word")})
        tip = info.get("tip") if info else None
        if tip:
            gp = self.mapToGlobal(self.mapFromScene(scene_pos))
            QToolTip.showText(gp, tip, self)
        else:
            QToolTip.hideText()

    def _mouse_clicked(self, ev) -> None:
        """A click on a lane selects that lane in every view (click it again to clear)."""
        if self.doc is None or ev.button() != Qt.MouseButton.LeftButton:
            return
        info = self.hover_at(ev.scenePos())
        if info and info.get("lane") is not None:
            lane = info["lane"]
            self.doc.select(lane=None if self.doc.selection.lane == lane else lane)
        self.clicked(ev, info)

    def clicked(self, ev, info: dict | None) -> None:
        """Views that select something else on a click (an instruction) override this."""

    def leaveEvent(self, ev) -> None:  # noqa: N802 - Qt's name
        if self.doc is not None:
            self.doc.hover()
        super().leaveEvent(ev)

    # ---- to implement ------------------------------------------------------------------------
    def render(self, an: Analysis | None, sel: Selection) -> None:
        raise NotImplementedError

    def render_hover(self, hover: Hover) -> None:
        pass

    def hover_at(self, scene_pos: QPointF) -> dict | None:
        """What is under ``scene_pos``: keys lane/bank/element/word (for linking) and tip."""
        return None


def fit_aspect(vb: pg.ViewBox, x0: float, x1: float, y0: float, y1: float, width_only: bool = False,
               margin: float = 0.02) -> None:
    """Show [x0, x1] x [y0, y1] in an aspect-locked ViewBox at the largest scale that fits,
    centred (a picture that fills the height starts at its top, ``y0``). ``width_only``: fit the
    width and show as many rows from the top as the height allows (the banks view: all 32
    banks, rows scroll)."""
    w, h = max(vb.width(), 1.0), max(vb.height(), 1.0)
    mx, my = (x1 - x0) * margin, (y1 - y0) * margin if not width_only else 0.0
    x0, x1 = x0 - mx, x1 + mx
    scale = w / (x1 - x0) if width_only else min(w / (x1 - x0), h / max(y1 - y0 + 2 * my, 1e-9))
    vw, vh = w / scale, h / scale
    cx = (x0 + x1) / 2
    top = y0 - my if not width_only else y0 - 0.15
    if not width_only and y1 - y0 + 2 * my < vh:  # a short, wide picture: centred, not stuck on top
        top = (y0 + y1) / 2 - vh / 2
    vb.setRange(xRange=(cx - vw / 2, cx + vw / 2), yRange=(top, top + vh), padding=0)


def lane_tip(an: Analysis, row: int, lane: int, det: InstructionDetail | None) -> str:
    """The one tooltip text every view uses for a lane of a warp instruction."""
    p = an.pattern
    tid = int(an.lane_tid[row, lane])
    bx, by, _ = p.block
    lines = [f"<b>lane {lane}</b> of warp {int(an.warp[row])}"]
    if tid >= 0:
        lines.append(f"thread {tid} = ({tid % bx}, {(tid // bx) % by}, {tid // (bx * by)})")
    ins = p.instructions[int(an.source[row])]
    idx = an.lane_index[row, lane]
    if ins.array and idx[0] >= 0:
        arr = p.array_map().get(ins.array)
        nd = arr.ndim if arr else 1
        lines.append(f"element {ins.array}" + "".join(f"[{int(i)}]" for i in idx[:nd]))
    if det is not None and det.lane_addr[lane] >= 0:
        hw = an.hardware
        a = int(det.lane_addr[lane])
        banks = [int(b) for b in det.lane_banks[lane] if b >= 0]
        bank_txt = f"bank {banks[0]}" if len(banks) == 1 else f"banks {banks[0]}–{banks[-1]}"
        lines.append(f"byte {a} (0x{a:x}) · word {a // hw.bank_width} · {bank_txt}")
        lines.append(f"wavefront {int(det.lane_wave[lane]) + 1} of {det.wavefronts} · phase {int(det.lane_phase[lane])}")
        flags = []
        if det.lane_conflict[lane]:
            flags.append("<span style='color:#d01010'>bank conflict</span>")
        if det.lane_shared[lane]:
            flags.append("<span style='color:#1450c8'>broadcast (word shared)</span>")
        if flags:
            lines.append(" · ".join(flags))
    elif det is not None:
        lines.append("inactive / not served")
    return "<br>".join(lines)
