"""Tile layout: the shared array as the program sees it, each cell coloured by its bank.

One ImageItem holds every cell (blown up to a few pixels per cell with grid lines); the accesses
of the selected warp instruction are a handful of scatter points (outlines, conflict and broadcast
badges) and lane-number labels. Dragging here edits the pattern (see :class:`TileViewBox`).
"""

from __future__ import annotations

import html
import itertools
import re
from dataclasses import dataclass, replace

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QPointF, QRectF, Qt

from ...model.analysis import Analysis, vector_dims
from ...model.layout import SharedArray
from ...model.pattern import Pattern
from ..document import Hover, Selection
from ..palette import BANK_COLORS, bank_color, bank_rgba, ink_on
from .base import (
    Caption,
    DocView,
    Label,
    RectHighlight,
    TextPool,
    cosmetic_pen,
    detail_for,
    fit_aspect,
    grid_image,
    hatch,
    lane_tip,
    pixels_per_cell,
    qcolor,
    selected_row,
)
from .image import RGBAImage
from .marks import Marks, Segments

_MERGE_IDS = itertools.count(1_000_000)


@dataclass
class TileGrid:
    """The array laid out as rows x columns of cells (padding columns included)."""

    array: SharedArray
    rows: int
    cols: int
    bank: np.ndarray  # (rows, cols) bank of the cell's first word, -1 padding, -2 beyond the end
    word: np.ndarray  # (rows, cols) word index (address // bank width), -1 none
    addr: np.ndarray  # (rows, cols) byte address, -1 none
    image: np.ndarray  # (rows*k, cols*k, 4)
    k: int
    #: a short, wide 2-D array is drawn with each row folded into ``fold`` lines of ``cols``
    #: elements (one 128-byte bank row each), so it is not a thin strip of tiny cells
    fold: int = 1
    #: the padding handle applies: a 2-D array drawn unfolded whose layout accepts padding
    #: (CuTe, Triton and TMA layouts set their own strides and refuse it)
    paddable: bool = False

    def cell_of(self, index: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(row, col) cells of element indices (n, ndim)."""
        a = self.array
        if a.ndim == 1:
            return index[:, 0] // self.cols, index[:, 0] % self.cols
        r = np.zeros(index.shape[0], np.int64)
        for d in range(a.ndim - 1):
            r = r * a.dims[d] + index[:, d]
        c = index[:, a.ndim - 1]
        if self.fold > 1:
            return r * self.fold + c // self.cols, c % self.cols
        return r, c

    def logical(self, r: int, c: int) -> tuple[int, int]:
        """The (row, column) of the array (rows = all leading dimensions) drawn at cell (r, c)."""
        if self.fold > 1:
            return r // self.fold, (r % self.fold) * self.cols + c
        return r, c

    def element_at(self, r: int, c: int) -> tuple[int, ...] | None:
        a = self.array
        if not (0 <= r < self.rows and 0 <= c < self.cols) or self.bank[r, c] < 0:
            return None
        if a.ndim == 1:
            return (r * self.cols + c,)
        lr, lc = self.logical(r, c)
        return tuple(int(x) for x in np.unravel_index(lr, a.dims[:-1])) + (lc,)


_INK_BY_BANK: list = []


def _bank_inks() -> list:
    """The lane number's colour on each bank colour (black or white, whichever reads)."""
    if not _INK_BY_BANK:
        _INK_BY_BANK.extend(ink_on(bank_color(b)) for b in range(len(BANK_COLORS)))
    return _INK_BY_BANK


_GRID_CACHE: dict = {}
#: fold rows wider than two bank rows only for arrays of at most this many rows (a 128x128 tile
#: stays square: folding it would give 512 lines and no overview)
FOLD_MAX_ROWS = 32
#: the default fit shows the whole array unless its cells would be smaller than this (pixels)
MIN_FIT_CELL_PX = 6
#: a long array scrolls with cells of at most this size (pixels): room for a lane number
MAX_SCROLL_CELL_PX = 26


def tile_grid(arr: SharedArray, hw, style) -> TileGrid:
    key = (arr, hw, style.name)
    g = _GRID_CACHE.get(key)
    if g is not None:
        return g
    fold = 1
    if arr.ndim == 1:  # one row per bank row (128 bytes on NVIDIA): 32 floats, 16 doubles
        cols = max(1, min(arr.dims[0], hw.row_bytes // arr.elem_size))
        rows = -(-arr.dims[0] // cols)
    else:
        cols, rows = arr.pitch, int(np.prod(arr.dims[:-1]))
        seg = max(1, hw.row_bytes // arr.elem_size)
        if cols > 2 * seg and rows <= FOLD_MAX_ROWS:  # short and wide: fold each row
            fold = -(-cols // seg)
            cols = seg
    lcols = cols * fold  # columns of one array row (with padding and the folded tail)
    bank = np.full((rows, lcols), -2, np.int64)
    word = np.full((rows, lcols), -1, np.int64)
    addr = np.full((rows, lcols), -1, np.int64)
    idx = arr.all_indices()
    a = arr.byte_addresses(idx)
    if arr.ndim == 1:
        r, c = idx[0] // cols, idx[0] % cols
    else:
        r = np.ravel_multi_index(idx[:-1], arr.dims[:-1]) if arr.ndim > 2 else idx[0]
        c = idx[-1]
        bank[:, arr.dims[-1]:arr.pitch] = -1
    w = a // hw.bank_width
    bank[r, c] = w % hw.banks
    word[r, c] = w
    addr[r, c] = a
    if fold > 1:  # (rows, fold * cols) -> (rows * fold, cols): each array row on fold lines
        bank, word, addr = (x.reshape(rows * fold, cols) for x in (bank, word, addr))
        rows *= fold
    k = pixels_per_cell(rows * cols)
    # the picture depends on the banks alone: an edit that keeps them (the base moved by whole
    # bank rows, a name) shares the last picture, so the tile is not repainted for it
    img = next((o.image for kk, o in _GRID_CACHE.items() if kk[2] == style.name and o.k == k
                and o.bank.shape == bank.shape and np.array_equal(o.bank, bank)), None)
    if img is None:
        rgba = bank_rgba(bank)
        rgba[bank == -1] = (*style.padding, 255)
        rgba[bank == -2] = (*style.background, 255)
        img = grid_image(rgba, k, style.background if k >= 4 else None)
        img = hatch(img, bank == -1, k, style.faint)
    paddable = arr.ndim > 1 and fold == 1 and not any(
        f.startswith("transform") for f, _ in replace(arr, padding=arr.padding + 1).validate())
    g = TileGrid(arr, rows, cols, bank, word, addr, img, k, fold, paddable)
    if len(_GRID_CACHE) > 32:
        _GRID_CACHE.clear()
    _GRID_CACHE[key] = g
    return g


def _offset_expr(expr: str, d: int, lane: int | None) -> str:
    """``expr`` moved by ``d``: ``(expr) + d`` for every lane, or only for one lane."""
    if d == 0:
        return expr
    if lane is None:
        m = re.fullmatch(r"\((.*)\) ([+-]) (\d+)", expr)
        if m:
            base, n = m.group(1), int(m.group(3)) * (1 if m.group(2) == "+" else -1) + d
            return base if n == 0 else f"({base}) {'+' if n > 0 else '-'} {abs(n)}"
        return f"({expr}) {'+' if d > 0 else '-'} {abs(d)}"
    return f"({expr}) + (lane == {lane} ? {d} : 0)"


def moved_pattern(p: Pattern, k: int, dr: int, dc: int, lane: int | None, grid: TileGrid) -> Pattern:
    """The pattern with instruction ``k``'s access moved by (rows, cols), for one lane or all."""
    ins = p.instructions[k]
    idx = list(ins.index)
    a = grid.array
    if a.ndim == 1:
        idx[0] = _offset_expr(idx[0], dr * grid.cols + dc, lane)
    else:
        idx[-1] = _offset_expr(idx[-1], dc, lane)
        idx[-2] = _offset_expr(idx[-2], dr, lane)
    return p.with_instruction(k, replace(ins, index=tuple(idx)))


class TileViewBox(pg.ViewBox):
    """Left-drag: on the right edge -> padding; on an accessed cell -> move that lane's access,
    with Shift (or Ctrl/Alt) -> move the whole footprint. Elsewhere the usual pan."""

    def __init__(self, owner: "TileView"):
        super().__init__(invertY=True, lockAspect=True, enableMenu=False)  # no context menu: see DocView
        self.owner = owner
        self._mode = None

    def mouseDragEvent(self, ev, axis=None):  # noqa: N802 - pyqtgraph's name
        if ev.button() != Qt.MouseButton.LeftButton:
            return super().mouseDragEvent(ev, axis)
        if ev.isStart():
            self._mode = self.owner.drag_begin(self.mapSceneToView(ev.buttonDownScenePos()), ev.modifiers())
        if self._mode is None:
            return super().mouseDragEvent(ev, axis)
        ev.accept()
        self.owner.drag_move(self.mapSceneToView(ev.scenePos()))
        if ev.isFinish():
            self._mode = None
            self.owner.drag_end()


class TileView(DocView):
    title = "Tile layout"
    #: a second tile beside the main one (the Before pane): no colour legend, a one-line caption
    compact = False

    def __init__(self, doc=None, style=None, parent=None):
        from ..palette import SCREEN

        super().__init__(doc, style or SCREEN, parent)
        st = self.style_
        self.vb = TileViewBox(self)
        self.plot = self.addPlot(row=0, col=0, viewBox=self.vb, axes=("left", "top"))
        for ax in ("top", "left"):
            self.plot.getAxis(ax).setPen(qcolor(st.faint))
            self.plot.getAxis(ax).setTextPen(qcolor(st.ink))
        self.plot.setMenuEnabled(False)
        self.image = RGBAImage()
        self.plot.addItem(self.image)
        self.outline = Marks("s", 0.92, pen=cosmetic_pen(st.ink, 2.0))
        self.conflict = Marks("s", 0.92, pen=cosmetic_pen(st.conflict, 3.0))
        self.badge_conflict = Marks("t", 0.34, brush=qcolor(st.conflict))
        self.badge_shared = Marks("o", 0.26, brush=qcolor(st.broadcast))
        self.hover_cells = Marks("s", 1.0, brush=qcolor(st.highlight, 90), pen=cosmetic_pen(st.highlight, 3.0))
        for z, it in enumerate((self.outline, self.conflict, self.badge_conflict, self.badge_shared, self.hover_cells)):
            it.setZValue(10 + z)
            self.plot.addItem(it, ignoreBounds=True)
        self.edge = Segments(pg.mkPen(qcolor(st.ink), width=3, style=Qt.PenStyle.DashLine))
        self.edge.setZValue(30)
        self.plot.addItem(self.edge, ignoreBounds=True)
        self.row_lines = Segments(pg.mkPen(qcolor(st.ink), width=2))
        self.row_lines.setZValue(9)
        self.plot.addItem(self.row_lines, ignoreBounds=True)
        self.edge_hint = Label("padding ⇔", color=qcolor(st.ink), anchor=(1, 0))
        self.plot.addItem(self.edge_hint, ignoreBounds=True)
        # "rows 49-63 below": a long array is fitted to its width, and this says more rows exist
        self.more_cue = Label(color=qcolor(st.ink), anchor=(0.5, 1.0), fill=qcolor(st.background, 230),
                                    border=cosmetic_pen(st.faint))
        self.more_cue.setZValue(70)
        self.more_cue.hide()
        self.plot.addItem(self.more_cue, ignoreBounds=True)
        self.hover_rect = RectHighlight(st.highlight, 3.0)
        self.plot.addItem(self.hover_rect, ignoreBounds=True)
        self.lane_labels = TextPool(self.vb, st.ink, st.font_pt, bold=True, margin=0)
        self.index_labels = TextPool(self.vb, st.faint, max(6, st.font_pt - 2), anchor=(0.5, 1.0), z=55)
        # the bank palette, as a strip of numbered swatches under the tile
        self.legend = self.addPlot(row=1, col=0)
        self.legend.setMaximumHeight(46)
        self.legend.setMinimumHeight(46)
        self.legend.setMaximumWidth(620)
        self.legend.setMenuEnabled(False)
        self.legend.setMouseEnabled(x=False, y=False)
        self.legend.hideButtons()
        self.legend.getAxis("left").setWidth(78)
        self.legend.getAxis("left").setTicks([[(0.5, "bank colour")], []])
        for ax in ("bottom", "left"):
            self.legend.getAxis(ax).setPen(qcolor(st.faint))
            self.legend.getAxis(ax).setTextPen(qcolor(st.ink))
        self.legend.getViewBox().invertY(True)
        self.legend_img = RGBAImage()
        self.legend.addItem(self.legend_img)
        self._legend_n = -1
        if self.compact:
            self.ci.removeItem(self.legend)
        self.caption = Caption(qcolor(st.ink), st.font_pt)
        self.addItem(self.caption, row=2, col=0)
        self.grid: TileGrid | None = None
        self._shape_key = None
        self._keep_if_fits = False
        self._lane_cells: dict[int, list[tuple[int, int]]] = {}
        self._drag = None
        self.vb.sigRangeChanged.connect(self._update_labels)
        self.track_view(self.vb)
        self._label_src: list[tuple[float, float, str]] = []
        self._label_firsts: list[tuple[int, int]] = []  # (first lane, lanes) of each label's cell
        self._label_short: list | None = []
        self._label_span = 1
        self._label_tall = 1  # cells a boxed label may use downwards (an M-major tile's runs)

    # ---- drawing -----------------------------------------------------------------------------
    def _array_for(self, an: Analysis | None, sel: Selection) -> SharedArray | None:
        if an is None or not an.pattern.arrays:
            return None
        p = an.pattern
        if p.instructions:
            name = p.instructions[min(sel.instruction, len(p.instructions) - 1)].array
            if name in p.array_map():
                return p.array_map()[name]
        return p.arrays[0]

    def render(self, an: Analysis | None, sel: Selection) -> None:
        self.an, self.sel = an, sel
        arr = self._array_for(an, sel)
        if arr is None:
            self.grid = None
            self._label_firsts, self._label_short = [], []
            self.image.clear()
            for it in (self.outline, self.conflict, self.badge_conflict, self.badge_shared):
                it.setData([])
            self.edge.setSegments([])
            self.edge_hint.hide()
            self._lines_key = None
            self.caption.setText("no array to show" if an is not None else "the pattern is not valid")
            self._label_src = []
            self._update_labels()
            return
        g = tile_grid(arr, an.hardware, self.style_)
        same_grid = g is self.grid  # a selection change or an edit elsewhere: the picture stands
        self.grid = g
        if not same_grid or self.image.image is None:
            self.image.setImage(g.image, autoLevels=False)
            self.image.setRect(QRectF(0, 0, g.cols, g.rows))
        shape_key = (arr.name, g.rows, g.cols)
        if shape_key != self._shape_key:
            # the same array, a few rows or columns more or fewer (padding, dimensions): the
            # next fit keeps the present zoom if the array still fits it well
            self._keep_if_fits = self._shape_key is not None and self._shape_key[0] == arr.name and (
                abs(g.rows - self._shape_key[1]) + abs(g.cols - self._shape_key[2]) <= 4)
            self._shape_key = shape_key
            self.shape_changed()
        self._render_legend(an.hardware.banks)
        self._set_ticks(g)
        lines_key = (g.fold, g.rows, g.cols, g.paddable)
        if lines_key != getattr(self, "_lines_key", None):  # setData re-lays the curves out
            self._lines_key = lines_key
            if g.fold > 1:  # a separator under each folded array row
                self.row_lines.setSegments([(0, y, g.cols, y) for y in range(g.fold, g.rows, g.fold)])
            else:
                self.row_lines.setSegments([])
            if g.paddable and not self.compact:  # a snapshot's edge cannot be dragged
                self.edge.setSegments([(g.cols, 0, g.cols, g.rows)])
                self.edge_hint.setPos(g.cols + 0.4, g.rows + 0.05)
                self.edge_hint.show()
            else:
                self.edge.setSegments([])
                self.edge_hint.hide()
        self._draw_accesses(an, sel, g)

    def fit_range(self) -> None:
        g = self.grid
        if g is None:
            return
        handle = g.paddable
        cols = g.cols + (1.2 if handle else 0)  # room for the padding handle
        w, h = max(self.vb.width(), 1.0), max(self.vb.height(), 1.0)
        rows = g.rows + (1.6 if handle else 0)  # and for its caption under the array
        whole = min(w / cols, h / rows)
        # a long array: fit its width and scroll down rather than shrink cells to a blur (the
        # rows left below say so, see _update_cue); 6 pixels still show every cell's colour
        width_only = whole < MIN_FIT_CELL_PX and w / cols > whole
        keep, self._keep_if_fits = self._keep_if_fits, False
        if keep:  # an edit grew or shrank the array a little: keep the cells where they are
            (x0, x1), (y0, y1) = self.vb.viewRange()
            now = w / max(x1 - x0, 1e-9)
            best = (w / cols if width_only else whole) / 1.04  # what fit_aspect would choose
            if x0 <= 0 and x1 >= cols and y0 <= 0 and (width_only or y1 >= rows) and now >= 0.85 * best:
                return
        if width_only and w / cols > MAX_SCROLL_CELL_PX:
            # a tall, narrow array (A[128][8]): cells as large as lane numbers need, not as wide
            # as the view (80-pixel cells showed three rows and no lane number)
            cell = max(whole, MAX_SCROLL_CELL_PX)
            vw, vh = w / cell, h / cell
            self.vb.setRange(xRange=(cols / 2 - vw / 2, cols / 2 + vw / 2), yRange=(-0.15, vh - 0.15), padding=0)
            return
        fit_aspect(self.vb, 0, cols, 0, rows, width_only=width_only)

    def _on_loaded(self) -> None:
        self._keep_if_fits = False  # another file: fit it afresh
        super()._on_loaded()

    def _render_legend(self, nb: int) -> None:
        if nb == self._legend_n:
            return
        self._legend_n = nb
        rgba = bank_rgba(np.arange(nb)[None, :])
        self.legend_img.setImage(grid_image(rgba, 8, self.style_.background), autoLevels=False)
        self.legend_img.setRect(QRectF(0, 0, nb, 1))
        step = 1 if nb <= 16 else 4 if nb <= 64 else 8
        self.legend.getAxis("bottom").setTicks([[(b + 0.5, str(b)) for b in range(0, nb, step)], []])
        self.legend.setXRange(0, nb, padding=0)
        self.legend.setYRange(0, 1, padding=0)

    def _set_ticks(self, g: TileGrid) -> None:
        key = (g.rows, g.cols, g.fold)
        if key == getattr(self, "_ticks_key", None):  # the same ticks: nothing to build
            return
        self._ticks_key = key

        def ticks(n: int):
            step = 1 if n <= 16 else 4 if n <= 64 else 8 if n <= 256 else 32
            return [[(i + 0.5, str(i)) for i in range(0, n, step)], []]

        self.plot.getAxis("top").setTicks(ticks(g.cols))
        if g.fold > 1:  # label the first line of each array row with the row's index
            n = g.rows // g.fold
            step = 1 if n <= 16 else 4
            self.plot.getAxis("left").setTicks([[(r * g.fold + 0.5, str(r)) for r in range(0, n, step)], []])
        else:
            self.plot.getAxis("left").setTicks(ticks(g.rows))

    def _draw_accesses(self, an: Analysis, sel: Selection, g: TileGrid) -> None:
        row = selected_row(an, sel)
        det = detail_for(an, row)
        self._lane_cells = {}
        arr = g.array
        ins = an.pattern.instructions[int(an.source[row])] if row is not None else None
        st = self.style_
        hw = an.hardware
        esc = html.escape  # user text and layout names (``Sw<3,3,3>``) are not markup
        caption = (f"<b>{esc(arr.declaration())}</b> &nbsp; {arr.elem_size} B elements"
                   + (f", padding {arr.padding}" if arr.padding else "")
                   + (f", {esc(arr.transform.describe())}" if arr.transform.kind != "none" else "")
                   + (f" &nbsp;·&nbsp; <b>{esc(ins.title())}</b>" if ins is not None and ins.array == arr.name else "")
                   + f"<br>cell colour = bank of its first word ({hw.banks} banks × {hw.bank_width} B) &nbsp;·&nbsp; "
                   f"□ accessed, number = lane &nbsp;"
                   f"<span style='color:{st.hex(st.conflict)}'>▲□ bank conflict</span> &nbsp;"
                   f"<span style='color:{st.hex(st.broadcast)}'>● broadcast</span>"
                   + (" &nbsp;▨ padding" if g.paddable or arr.padding else "")
                   + (" (drag the dashed edge)" if g.paddable else "")
                   + (f"<br>each row of {arr.pitch} elements is drawn as {g.fold} lines of {g.cols} "
                      f"(one {hw.row_bytes}-byte bank row each), rows separated by a line" if g.fold > 1 else ""))
        self.caption.setText(caption.split("<br>")[0] if self.compact else caption)
        if det is None or ins is None or ins.array != arr.name:
            for it in (self.outline, self.conflict, self.badge_conflict, self.badge_shared):
                it.setData([])
            self._label_src, self._label_firsts, self._label_short = [], [], []
            self._update_labels()
            return
        li = an.lane_index[row]
        lanes = np.flatnonzero((li[:, 0] >= 0) & (det.lane_addr >= 0))
        r, c = g.cell_of(li[lanes, : arr.ndim])
        span = max(1, int(an.batch.width[row]) // arr.elem_size)
        # an M-major tile: the lane's bytes are the elements below its first one, not beside it
        down = np.zeros(lanes.size, bool)
        if span > 1 and arr.ndim > 1 and lanes.size:
            idx = tuple(li[lanes, d] for d in range(arr.ndim))
            down = vector_dims(arr, idx, det.lane_addr[lanes], np.ones(lanes.size, bool), span) == arr.ndim - 2
        cells_r = np.repeat(r, span)
        cells_c = (c[:, None] + np.arange(span)[None, :]).ravel()
        if arr.ndim == 1 or g.fold > 1:
            flat = cells_r * g.cols + cells_c
            cells_r, cells_c = flat // g.cols, flat % g.cols
        if down.any():
            k = np.tile(np.arange(span), lanes.size)
            dn = np.repeat(down, span)
            cells_r = np.where(dn, np.repeat(r, span) + k * g.fold, cells_r)
            cells_c = np.where(dn, np.repeat(c, span), cells_c)
        tall = bool(down.all()) and g.fold == 1  # every lane's run is a box down one column
        lane_rep = np.repeat(lanes, span)
        conf = det.lane_conflict[lane_rep]
        shared = det.lane_shared[lanes]
        cl = det.lane_conflict[lanes]
        if tall:
            pos = np.column_stack([c + 0.5, r + span / 2]).astype(float)
            self.outline.setData(pos=pos[~cl], symbol=-span)
            self.conflict.setData(pos=pos[cl], symbol=-span)
        elif span > 1 and arr.ndim > 1 and not down.any():  # one box per lane around all the elements it reads
            pos = np.column_stack([c + span / 2, r + 0.5]).astype(float)
            self.outline.setData(pos=pos[~cl], symbol=span)
            self.conflict.setData(pos=pos[cl], symbol=span)
        else:
            pos = np.column_stack([cells_c + 0.5, cells_r + 0.5]).astype(float)
            self.outline.setData(pos=pos[~conf], symbol="s")
            self.conflict.setData(pos=pos[conf], symbol="s")
        first = np.column_stack([c + 0.5, r + 0.5]).astype(float)
        self.badge_conflict.setData(pos=first[cl] + [0.3, -0.28])
        self.badge_shared.setData(pos=first[shared] + [-0.3, -0.3])
        for ln, rr, cc in zip(lane_rep.tolist(), cells_r.tolist(), cells_c.tolist()):
            self._lane_cells.setdefault(ln, []).append((rr, cc))
        by_cell: dict[tuple[int, int], list[int]] = {}
        for ln, rr, cc in zip(lanes.tolist(), r.tolist(), c.tolist()):
            by_cell.setdefault((rr, cc), []).append(ln)
        labels, firsts = [], []
        boxed = tall or (span > 1 and arr.ndim > 1 and not down.any())
        inks = _bank_inks()
        bank_of = g.bank
        for (rr, cc), ls in by_cell.items():
            n = len(ls)
            text = str(ls[0]) if n == 1 else f"{ls[0]},{ls[1]}" if n == 2 else f"{ls[0]}+{n - 1}"
            if tall:
                lab = (cc + 0.5, rr + span / 2, text, st.ink, (255, 255, 255, 215))
            elif boxed:  # over several colours: dark text on a light box
                lab = (cc + span / 2, rr + 0.5, text, st.ink, (255, 255, 255, 215))
            else:
                b = int(bank_of[rr, cc])
                lab = (cc + 0.5, rr + 0.5, text, inks[b % len(inks)] if b >= 0 else st.ink)
            labels.append(lab)
            firsts.append((ls[0], n))
        self._label_src = labels
        self._label_firsts = firsts
        self._label_short = None  # made when the full labels do not fit (see _short_labels)
        self._label_span = span if arr.ndim > 1 and not down.any() else 1
        self._label_tall = span if tall else 1
        self._update_labels()

    def _short_labels(self) -> list[list[tuple]]:
        """Where "12+3" (lanes 12 to 15 on one word) does not fit, "12+", else "12": still the
        cell's first lane (the tooltip lists them all). Made only when the full labels do not fit."""
        if self._label_short is None:
            src, firsts = self._label_src, self._label_firsts
            self._label_short = [
                [lab[:2] + (str(first) + ("+" if n > 1 else ""),) + lab[3:] for lab, (first, n) in zip(src, firsts)],
                [lab[:2] + (str(first),) + lab[3:] for lab, (first, n) in zip(src, firsts)],
            ] if src else []
        return self._label_short

    def _cell_pixels(self) -> float:
        w = self.vb.width()
        (x0, x1), _ = self.vb.viewRange()
        return w / max(x1 - x0, 1e-9)

    def _update_labels(self, *args) -> None:
        px = self._cell_pixels()
        # lane numbers only where they fit their cells (a smaller font first), never overlapping;
        # a boxed label (several elements per lane) must fit inside its box's outline
        if len(self._label_src) <= 128:
            src, room, pt = self._label_src, px * self._label_span, self.style_.font_pt
            for k in range(3):  # the full labels, else shorter ones (made only then)
                labels = src if k == 0 else self._short_labels()[k - 1] if src else None
                if labels is None:
                    break
                if labels and len(labels[0]) > 4:  # boxed: the label's box stays inside the outline, or none
                    shown = self.lane_labels.fit(labels, room, pt, room_h_px=px * self._label_tall - 2,
                                                 whole_height=True, min_pt=5)
                else:
                    shown = self.lane_labels.fit(labels, room, pt, room_h_px=px)
                if shown:
                    break
        else:
            self.lane_labels.set([])
        self._update_cue()
        g = self.grid
        if g is None or px < 34:
            self.index_labels.set([])
            return
        (x0, x1), (y0, y1) = self.vb.viewRange()
        c0, c1 = max(0, int(x0)), min(g.cols, int(np.ceil(x1)))
        r0, r1 = max(0, int(y0)), min(g.rows, int(np.ceil(y1)))
        if (c1 - c0) * (r1 - r0) > 400:
            self.index_labels.set([])
            return
        labels = []
        for rr in range(r0, r1):
            for cc in range(c0, c1):
                e = g.element_at(rr, cc)
                if e is not None:
                    labels.append((cc + 0.5, rr + 0.97, ",".join(map(str, e))))
        self.index_labels.set(labels)

    def _update_cue(self) -> None:
        """Say which rows lie below the visible range (a long array is fitted to its width)."""
        g = self.grid
        (x0, x1), (y0, y1) = self.vb.viewRange()
        first_hidden = max(0, int(np.floor(y1)))
        if g is None or first_hidden >= g.rows or y1 <= 0:
            self.more_cue.hide()
            return
        if g.fold > 1:
            a, b, what = first_hidden // g.fold, g.rows // g.fold - 1, "rows"
        else:
            a, b, what = first_hidden, g.rows - 1, "rows"
        text = f"{what} {a}–{b} below ↓ (scroll)" if b > a else f"row {b} below ↓ (scroll)"
        if getattr(self.more_cue, "_be_text", None) != text:
            self.more_cue._be_text = text
            self.more_cue.setText(text)
        cx = (max(x0, 0) + min(x1, g.cols)) / 2
        self.more_cue.setPos(cx, y1)
        self.more_cue.show()

    def resizeEvent(self, ev) -> None:  # noqa: N802 - Qt's name
        super().resizeEvent(ev)
        if hasattr(self, "_label_src"):
            self._update_labels()

    # ---- hover -------------------------------------------------------------------------------
    def _cell_at(self, scene_pos: QPointF) -> tuple[int, int] | None:
        if self.grid is None or not self.vb.sceneBoundingRect().contains(scene_pos):
            return None
        p = self.vb.mapSceneToView(scene_pos)
        r, c = int(np.floor(p.y())), int(np.floor(p.x()))
        if 0 <= r < self.grid.rows and 0 <= c < self.grid.cols:
            return r, c
        return None

    def lane_rects(self, lane: int) -> list[QRectF]:
        return [QRectF(c, r, 1, 1) for r, c in getattr(self, "_lane_cells", {}).get(lane, [])]

    def lanes_at(self, r: int, c: int) -> list[int]:
        return sorted(ln for ln, cells in self._lane_cells.items() if (r, c) in cells)

    def hover_at(self, scene_pos: QPointF) -> dict | None:
        rc = self._cell_at(scene_pos)
        if rc is None:
            return None
        g, an = self.grid, self.an
        r, c = rc
        e = g.element_at(r, c)
        if e is None:
            return {"tip": f"padding (row {r}, column {c})" if g.bank[r, c] == -1 else ""}
        hw = an.hardware
        a = int(g.addr[r, c])
        lanes = self.lanes_at(r, c)
        tip = (f"<b>{g.array.name}{''.join(f'[{i}]' for i in e)}</b><br>byte {a} (0x{a:x}) · word {a // hw.bank_width}"
               f" · bank {int(g.bank[r, c])}")
        row = selected_row(an, self.sel)
        if lanes and row is not None:
            det = detail_for(an, row)
            tip += "<hr>" + "<hr>".join(lane_tip(an, row, ln, det) for ln in lanes[:4])
            if len(lanes) > 4:
                tip += f"<br>… and {len(lanes) - 4} more lanes"
        return {"element": e, "bank": int(g.bank[r, c]), "word": int(g.word[r, c]),
                "lane": lanes[0] if lanes else None, "tip": tip}

    def render_hover(self, h: Hover) -> None:
        g = self.grid
        self.hover_rect.hide()
        if g is None or h.empty:
            self.hover_cells.setData([])
            return
        cells: list[tuple[int, int]] = []
        if h.lane is not None and h.lane in self._lane_cells:
            cells = self._lane_cells[h.lane]
        elif h.element is not None and len(h.element) == g.array.ndim:
            try:
                r, c = g.cell_of(np.array([h.element]))
                cells = [(int(r[0]), int(c[0]))]
            except (IndexError, ValueError):
                cells = []
        elif h.word is not None:
            rr, cc = np.nonzero(g.word == h.word)
            cells = list(zip(rr.tolist(), cc.tolist()))
        elif h.bank is not None:
            rr, cc = np.nonzero(g.bank == h.bank)
            cells = list(zip(rr.tolist(), cc.tolist()))
        if cells:
            self.hover_cells.setData(pos=np.array([(c + 0.5, r + 0.5) for r, c in cells], float))
        else:
            self.hover_cells.setData([])

    # ---- dragging ----------------------------------------------------------------------------
    def _edge_tolerance(self) -> float:
        return max(0.3, 8.0 / max(self._cell_pixels(), 1e-9))

    def drag_begin(self, p: QPointF, modifiers) -> str | None:
        g, doc = self.grid, self.doc
        if g is None or doc is None or self.an is None:
            return None
        arr = g.array
        if g.paddable and abs(p.x() - g.cols) <= self._edge_tolerance() and -0.5 <= p.y() <= g.rows + 0.5:
            self._drag = ("pad", doc.pattern, next(_MERGE_IDS), p, arr)
            return "pad"
        r, c = int(np.floor(p.y())), int(np.floor(p.x()))
        lanes = self.lanes_at(r, c)
        if not lanes:
            return None
        whole = bool(modifiers & (Qt.KeyboardModifier.ShiftModifier | Qt.KeyboardModifier.ControlModifier
                                  | Qt.KeyboardModifier.AltModifier))
        self._drag = ("move", doc.pattern, next(_MERGE_IDS), p, (None if whole else lanes[0], self.sel.instruction, g))
        return "move"

    def drag_move(self, p: QPointF) -> None:
        if self._drag is None or self.doc is None:
            return
        mode, start, mid, p0, extra = self._drag
        if mode == "pad":
            arr = extra
            pad = max(0, int(round(p.x())) - arr.dims[-1])
            k = [a.name for a in start.arrays].index(arr.name)
            new = start.with_array(k, replace(arr, padding=pad))
            self.doc.apply(new, f"padding {arr.name} → {pad}", mid)
            return
        lane, k, g = extra
        r0, c0 = g.logical(int(np.floor(p0.y())), int(np.floor(p0.x())))
        r1, c1 = g.logical(int(np.floor(p.y())), int(np.floor(p.x())))
        dr, dc = (r1 - r0, c1 - c0) if g.array.ndim > 1 else (
            int(np.floor(p.y())) - int(np.floor(p0.y())), int(np.floor(p.x())) - int(np.floor(p0.x())))
        who = "footprint" if lane is None else f"lane {lane}"
        self.doc.apply(moved_pattern(start, k, dr, dc, lane, g), f"move {who} of instruction {k}", mid)

    def drag_end(self) -> None:
        self._drag = None
        if self._fit_pending:  # the array changed size under the mouse: fit it now
            self.fit()

    def fit(self, force: bool = False) -> None:
        if self._drag is not None and not force:  # never move the picture under a dragging mouse
            self._fit_pending = True
            return
        super().fit(force)
