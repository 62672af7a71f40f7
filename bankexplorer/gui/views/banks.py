"""Physical banks: shared memory as the hardware sees it, one row per bank-row (128 bytes on
NVIDIA), one column per bank. Each word is tinted by the logical column of the array element
stored there, so padding and swizzles show up as the diagonal they are; the words the selected
warp instruction touches are outlined in the colour of the wavefront that serves them.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from PySide6.QtCore import QPointF, QRectF

from ...model.analysis import Analysis
from ...model.memory_map import word_map
from ...model.pattern import Pattern
from ..document import Hover, Selection
from ..palette import BANK_COLORS, WAVE_COLORS
from .axis import FastAxis
from .base import (
    Caption,
    DocView,
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
from .marks import Marks

MAX_ROWS = 4096  # bank rows drawn (512 KiB of 128-byte rows): far beyond any SM


class _RowAxis(FastAxis):
    """Left axis: the byte address where each bank row starts."""

    row_bytes = 128

    def tickStrings(self, values, scale, spacing):  # noqa: N802 - pyqtgraph's name
        return [f"{int(v) * self.row_bytes}" if v >= 0 else "" for v in values]


_WAVE_PENS: list = []


def _wave_pens() -> list:
    """The outline pen of each wavefront colour, made once (a QPen per mark per edit added up)."""
    if not _WAVE_PENS:
        _WAVE_PENS.extend(cosmetic_pen(tuple(c), 3.0) for c in WAVE_COLORS)
    return _WAVE_PENS


@dataclass
class BankMap:
    """Which array element lives in each word of shared memory."""

    rows: int
    banks: int
    array: np.ndarray  # (rows, banks) array number, -1 none, -2 padding inside an array
    index: np.ndarray  # (rows, banks, 3) element index, -1 none
    image: np.ndarray
    k: int


_MAP_CACHE: dict = {}


def bank_map(p: Pattern, style, extra_bytes: int = 0) -> BankMap:
    hw = p.hardware
    key = (p.arrays, hw, style.name, extra_bytes)
    m = _MAP_CACHE.get(key)
    if m is not None:
        return m
    wm = word_map(p, extra_bytes, MAX_ROWS)
    rows, nb, arr_of, index, tint = wm.rows, wm.banks, wm.array, wm.index, wm.column
    n_words = rows * nb
    rgba = np.zeros((n_words, 4), np.uint8)
    rgba[:, 3] = 255
    has = tint >= 0
    pastel = (BANK_COLORS.astype(np.int64) * 5 + 255 * 3) // 8  # lighter: marks must stand out on it
    rgba[has, :3] = pastel[tint[has] % len(BANK_COLORS)]
    rgba[arr_of == -2, :3] = style.padding
    rgba[arr_of == -1, :3] = style.empty
    rgba = rgba.reshape(rows, nb, 4)
    k = pixels_per_cell(rows * nb)
    img = grid_image(rgba, k, style.background if k >= 4 else None)
    img = hatch(img, (arr_of == -2).reshape(rows, nb), k, style.faint)
    m = BankMap(rows, nb, arr_of.reshape(rows, nb), index.reshape(rows, nb, 3), img, k)
    if len(_MAP_CACHE) > 32:
        _MAP_CACHE.clear()
    _MAP_CACHE[key] = m
    return m


class BanksView(DocView):
    title = "Physical banks"

    def __init__(self, doc=None, style=None, parent=None):
        from ..palette import SCREEN

        super().__init__(doc, style or SCREEN, parent)
        st = self.style_
        self.axis = _RowAxis(orientation="left")
        self.plot = self.addPlot(row=0, col=0, axisItems={"left": self.axis}, axes=("top",))
        self.vb = self.plot.getViewBox()
        self.vb.invertY(True)
        self.vb.setAspectLocked(True)
        self.plot.setMenuEnabled(False)
        for ax in ("top", "left"):
            self.plot.getAxis(ax).setPen(qcolor(st.faint))
            self.plot.getAxis(ax).setTextPen(qcolor(st.ink))
        self.plot.setLabel("top", "bank", color=st.hex(st.ink))
        self.plot.setLabel("left", "byte address", color=st.hex(st.ink))
        self.image = RGBAImage()
        self.plot.addItem(self.image)
        self.marks = Marks("s", 0.9)
        self.marks.setZValue(10)
        self.plot.addItem(self.marks, ignoreBounds=True)
        self.badge = Marks("t", 0.34, brush=qcolor(st.conflict))
        self.badge.setZValue(11)
        self.plot.addItem(self.badge, ignoreBounds=True)
        self.hover_cells = Marks("s", 1.0, brush=qcolor(st.highlight, 90), pen=cosmetic_pen(st.highlight, 3.0))
        self.hover_cells.setZValue(20)
        self.plot.addItem(self.hover_cells, ignoreBounds=True)
        self.bank_band = RectHighlight(st.highlight, 2.0, fill_alpha=40)
        self.plot.addItem(self.bank_band, ignoreBounds=True)
        self.lane_labels = TextPool(self.vb, st.ink, st.font_pt, bold=True)
        self.index_labels = TextPool(self.vb, st.faint, max(6, st.font_pt - 2), anchor=(0.5, 1.0), z=55)
        self.caption = Caption(qcolor(st.ink), st.font_pt)
        self.addItem(self.caption, row=1, col=0)
        self.map: BankMap | None = None
        self._shape_key = None
        self._word_lanes: dict[int, list[int]] = {}
        self._label_src: list = []
        self.vb.sigRangeChanged.connect(self._update_labels)
        self.track_view(self.vb)

    def render(self, an: Analysis | None, sel: Selection) -> None:
        self.an, self.sel = an, sel
        st = self.style_
        if an is None:
            self.caption.setText("the pattern is not valid")
            return
        hw = an.hardware
        self.axis.row_bytes = hw.row_bytes
        row = selected_row(an, sel)
        det = detail_for(an, row)
        extra = 0
        if det is not None and (det.lane_addr >= 0).any():
            extra = int(det.lane_addr.max()) + int(an.batch.width[row])
        m = bank_map(an.pattern, st, extra)
        if m is not self.map or self.image.image is None:  # the same map: the picture stands
            self.image.setImage(m.image, autoLevels=False)
            self.image.setRect(QRectF(0, 0, m.banks, m.rows))
        self.map = m
        key = (m.rows, m.banks)
        if key != self._shape_key:
            self._shape_key = key
            self.shape_changed()
        step = 1 if m.banks <= 16 else 2 if self._cell_pixels() >= 11 else 4
        ticks_key = (m.banks, step, m.rows, hw.row_bytes)
        if ticks_key != getattr(self, "_ticks_key", None):  # the same ticks: nothing to build
            self._ticks_key = ticks_key
            self.plot.getAxis("top").setTicks([[(b + 0.5, str(b)) for b in range(0, m.banks, step)], []])
            ystep = max(1, m.rows // 16)
            ystep = 1 << (ystep.bit_length() - 1) if ystep > 1 else 1
            self.plot.getAxis("left").setTicks([[(r + 0.5, f"{r * hw.row_bytes}") for r in range(0, m.rows, ystep)], []])
        caption = (
            f"{hw.banks} banks × {hw.bank_width} B; one row = {hw.row_bytes} B of shared memory<br>"
            f"tint = column of the element stored in the word &nbsp;·&nbsp; number = lane, outline colour = "
            f"wavefront<br><span style='color:{st.hex(st.conflict)}'>▲ bank conflict</span> &nbsp;▨ padding")
        self.caption.setText(caption.split("<br>")[0] if getattr(self, "compact", False) else caption)
        self._word_lanes = {}
        if det is None:
            self.marks.setData([])
            self.badge.setData([])
            self._label_src = []
            self._update_labels()
            return
        words, waves, lanes = [], [], []
        for acc in det.accesses:
            words.append(acc.word)
            waves.append(acc.wavefront)
            lanes.append(acc.lanes)
            self._word_lanes.setdefault(acc.word, []).extend(acc.lanes)
        words_a = np.array(words, np.int64)
        waves_a = np.array(waves, np.int64)
        x = words_a % hw.banks + 0.5
        y = words_a // hw.banks + 0.5
        wave_pens = _wave_pens()
        pens = [wave_pens[w % len(wave_pens)] for w in waves_a.tolist()]
        self.marks.setData(x=x, y=y, pen=pens)
        # a conflict: the word's bank delivers several distinct words in the lanes' phase
        lane_conflict = det.lane_conflict.tolist()
        confl = np.array([any(lane_conflict[ln] for ln in ls) for ls in lanes], bool)
        self.badge.setData(x=x[confl] + 0.3, y=y[confl] - 0.28)
        labels = []
        for xx, yy, ls in zip(x.tolist(), y.tolist(), lanes):
            labels.append((xx, yy, str(ls[0]) if len(ls) == 1 else f"{ls[0]}+{len(ls) - 1}"))
        self._label_src = labels
        self._update_labels()

    def fit_range(self) -> None:
        m = self.map
        if m is None:
            return
        # every bank across; as many 128-byte rows from the top as the height allows
        fit_aspect(self.vb, 0, m.banks, 0, m.rows, width_only=True, margin=0.0)

    def _cell_pixels(self) -> float:
        (x0, x1), _ = self.vb.viewRange()
        return self.vb.width() / max(x1 - x0, 1e-9)

    def _update_labels(self, *args) -> None:
        px = self._cell_pixels()
        if len(self._label_src) <= 128:
            self.lane_labels.fit(self._label_src, px, self.style_.font_pt, room_h_px=px)
        else:
            self.lane_labels.set([])
        m = self.map
        if m is None or px < 40:
            self.index_labels.set([])
            return
        (x0, x1), (y0, y1) = self.vb.viewRange()
        c0, c1 = max(0, int(x0)), min(m.banks, int(np.ceil(x1)))
        r0, r1 = max(0, int(y0)), min(m.rows, int(np.ceil(y1)))
        if (c1 - c0) * (r1 - r0) > 400:
            self.index_labels.set([])
            return
        labels = []
        for r in range(r0, r1):
            for c in range(c0, c1):
                if m.array[r, c] >= 0:
                    idx = [int(i) for i in m.index[r, c] if i >= 0]
                    labels.append((c + 0.5, r + 0.97, ",".join(map(str, idx))))
        self.index_labels.set(labels)

    def resizeEvent(self, ev) -> None:  # noqa: N802
        super().resizeEvent(ev)
        if hasattr(self, "_label_src"):
            self._update_labels()

    def lane_rects(self, lane: int) -> list[QRectF]:
        nb = self.map.banks if getattr(self, "map", None) is not None else 1
        return [QRectF(w % nb, w // nb, 1, 1) for w, ls in getattr(self, "_word_lanes", {}).items() if lane in ls]

    def hover_at(self, scene_pos: QPointF) -> dict | None:
        m, an = self.map, self.an
        if m is None or an is None or not self.vb.sceneBoundingRect().contains(scene_pos):
            return None
        p = self.vb.mapSceneToView(scene_pos)
        r, c = int(np.floor(p.y())), int(np.floor(p.x()))
        if not (0 <= r < m.rows and 0 <= c < m.banks):
            return None
        hw = an.hardware
        word = r * m.banks + c
        a = word * hw.bank_width
        tip = f"<b>bank {c}</b>, word {word}, bytes {a}–{a + hw.bank_width - 1}"
        element = None
        k = int(m.array[r, c])
        if k >= 0:
            arr = an.pattern.arrays[k]
            element = tuple(int(i) for i in m.index[r, c, : arr.ndim])
            tip += f"<br>holds {arr.name}{''.join(f'[{i}]' for i in element)}"
        elif k == -2:
            tip += "<br>padding"
        lanes = sorted(set(self._word_lanes.get(word, [])))
        row = selected_row(an, self.sel)
        if lanes and row is not None:
            det = detail_for(an, row)
            tip += "<hr>" + "<hr>".join(lane_tip(an, row, ln, det) for ln in lanes[:3])
            if len(lanes) > 3:
                tip += f"<br>… and {len(lanes) - 3} more lanes (broadcast)"
        return {"bank": c, "word": word, "element": element, "lane": lanes[0] if lanes else None, "tip": tip}

    def render_hover(self, h: Hover) -> None:
        m, an = self.map, self.an
        self.bank_band.hide()
        if m is None or an is None or h.empty:
            self.hover_cells.setData([])
            return
        words: list[int] = []
        if h.lane is not None:
            words = [w for w, ls in self._word_lanes.items() if h.lane in ls]
        elif h.word is not None:
            words = [h.word]
        if words:
            w = np.array(words)
            self.hover_cells.setData(x=w % m.banks + 0.5, y=w // m.banks + 0.5)
        else:
            self.hover_cells.setData([])
        if h.bank is not None and h.lane is None and h.word is None:
            self.bank_band.show_rect(h.bank, 0, 1, m.rows)
