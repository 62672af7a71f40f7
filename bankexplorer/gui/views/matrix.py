"""Thread-to-bank matrix: lanes (rows) x banks (columns), a mark where a lane touches a bank in
the colour of the wavefront that serves it; above it each bank's load (distinct words it must
deliver), the worst bank in the conflict colour. A vertical run of marks is a bank conflict.
"""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QPointF, QRectF

from ...model.analysis import Analysis
from ..document import Hover, Selection
from ..palette import wave_rgba
from .base import (
    Caption,
    DocView,
    Label,
    RectHighlight,
    TextPool,
    detail_for,
    grid_image,
    lane_tip,
    qcolor,
    selected_row,
)
from .image import RGBAImage
from .marks import Bars, Marks


_IMAGES: dict = {}


def _matrix_image(grid: np.ndarray, st) -> np.ndarray:
    """The lanes x banks picture of a grid of wavefronts (-1: no access), remembered for the last
    few grids: warps and instructions of one pattern often make the same one, as do undo and redo."""
    key = (grid.shape, grid.tobytes(), st.name)
    img = _IMAGES.get(key)
    if img is None:
        rgba = wave_rgba(grid)
        rgba[grid < 0] = (*st.empty, 255)
        img = grid_image(rgba, 8, st.background)
        if len(_IMAGES) >= 16:
            del _IMAGES[next(iter(_IMAGES))]
        _IMAGES[key] = img
    return img


class MatrixView(DocView):
    title = "Thread → bank"

    def __init__(self, doc=None, style=None, parent=None):
        from ..palette import SCREEN

        super().__init__(doc, style or SCREEN, parent)
        st = self.style_
        self.bars_plot = self.addPlot(row=0, col=0, axes=("left",))
        self.bars_plot.setMaximumHeight(110)
        self.bars_plot.setMenuEnabled(False)
        self.bars_plot.setLabel("left", "words", color=st.hex(st.ink))
        self.bars_plot.setMouseEnabled(x=True, y=False)
        self.bars = Bars()
        self.bars_plot.addItem(self.bars)
        # on a light box in the plot's top corner beside the busiest bar (above the bar it was
        # clipped by the plot's top edge)
        self.worst_label = Label(color=qcolor(st.conflict), anchor=(0.0, 0.0), fill=qcolor(st.background, 225))
        self.worst_label.setZValue(20)
        self.bars_plot.addItem(self.worst_label, ignoreBounds=True)
        self.plot = self.addPlot(row=1, col=0, axes=("left", "top"))
        self.vb = self.plot.getViewBox()
        self.vb.invertY(True)
        self.plot.setMenuEnabled(False)
        self.plot.setLabel("left", "lane", color=st.hex(st.ink))
        self.plot.setLabel("top", "bank", color=st.hex(st.ink))
        self.bars_plot.setXLink(self.plot)
        for ax in (self.plot.getAxis("top"), self.plot.getAxis("left"), self.bars_plot.getAxis("left")):
            ax.setPen(qcolor(st.faint))
            ax.setTextPen(qcolor(st.ink))
        self.plot.getAxis("left").setWidth(44)
        self.bars_plot.getAxis("left").setWidth(44)
        self.image = RGBAImage()
        self.plot.addItem(self.image)
        self.badges = Marks("t", 0.45, brush=qcolor(st.conflict))
        self.badges.setZValue(10)
        self.plot.addItem(self.badges, ignoreBounds=True)
        self.shared = Marks("o", 0.35, brush=qcolor(st.broadcast))
        self.shared.setZValue(10)
        self.plot.addItem(self.shared, ignoreBounds=True)
        self.lane_band = RectHighlight(st.highlight, 2.0, fill_alpha=60)
        self.bank_band = RectHighlight(st.highlight, 2.0, fill_alpha=60)
        self.sel_band = RectHighlight(st.selection, 1.5)
        for it in (self.lane_band, self.bank_band, self.sel_band):
            self.plot.addItem(it, ignoreBounds=True)
        self.wave_labels = TextPool(self.vb, (255, 255, 255), max(6, st.font_pt - 2))
        self.caption = Caption(qcolor(st.ink), st.font_pt)
        self.addItem(self.caption, row=2, col=0)
        self.grid: np.ndarray | None = None
        self._shape_key = None
        self.track_view(self.vb)

    def fit_range(self) -> None:
        if self.an is None:
            return
        hw = self.an.hardware
        self.vb.setRange(QRectF(0, 0, hw.banks, hw.warp_size), padding=0.005)

    def render(self, an: Analysis | None, sel: Selection) -> None:
        self.an, self.sel = an, sel
        st = self.style_
        row = selected_row(an, sel)
        det = detail_for(an, row)
        if an is None:
            self.caption.setText("the pattern is not valid")
            return
        hw = an.hardware
        W, NB = hw.warp_size, hw.banks
        grid = np.full((W, NB), -1, np.int64)
        if det is not None:
            lb = det.lane_banks
            ok = lb >= 0
            lanes = np.repeat(np.arange(W), lb.shape[1]).reshape(lb.shape)
            grid[lanes[ok], lb[ok]] = np.broadcast_to(det.lane_wave[:, None], lb.shape)[ok]
        if self.grid is None or self.grid.shape != grid.shape or not np.array_equal(self.grid, grid):
            self.image.setImage(_matrix_image(grid, st), autoLevels=False)
            self.image.setRect(QRectF(0, 0, NB, W))
        self.grid = grid
        if (W, NB) != self._shape_key:
            self._shape_key = (W, NB)
            self.shape_changed()
            step = 1 if NB <= 16 else 2 if NB <= 32 else 4
            self.plot.getAxis("top").setTicks([[(b + 0.5, str(b)) for b in range(0, NB, step)], []])
            lstep = 1 if W <= 16 else 2 if W <= 32 else 4
            self.plot.getAxis("left").setTicks([[(ln + 0.5, str(ln)) for ln in range(0, W, lstep)], []])
        if det is None:
            self.bars.setBars([], [], [], [], qcolor(st.faint), key=())
            self.badges.setData([])
            self.shared.setData([])
            self.worst_label.setText("")
            self._worst_look = None
            msg = an.errors[row] if row is not None and an.errors[row] else "no instruction selected"
            self.caption.setText(msg)
            self.sel_band.hide()
            return
        load = det.bank_load
        worst = det.worst_bank
        hot = det.degree > 1
        faint, top_c = qcolor(st.faint), qcolor(st.conflict if hot else st.ink)
        key = (load.tobytes(), worst, hot)
        if key != self.bars.key:  # the same bars: nothing to build
            brushes = [top_c if b == worst else faint for b in range(NB)]
            self.bars.setBars(np.arange(NB) + 0.1, 0.0, 0.8, load, brushes, key=key)
        top = max(1, int(load.max()))
        if getattr(self, "_top", None) != top:  # a range change repaints the axis: only when needed
            self._top = top
            # headroom over the tallest bar for the "bank 0: 1" label, which sat on the bars
            self.bars_plot.setYRange(0, top * 1.7, padding=0)
        ystep = max(1, -(-top // 4))  # whole words: 0, 1 or 0, 8, 16, 24, 32
        self.bars_plot.getAxis("left").setTicks([[(v, str(v)) for v in range(0, top + 1, ystep)], []])
        look = (hot, worst, int(load[worst]))
        if getattr(self, "_worst_look", None) != look:
            self._worst_look = look
            self.worst_label.setColor(top_c)
            self.worst_label.setText(f"bank {worst}: {int(load[worst])}")
            right = worst < NB / 2  # beside the busiest bar, above every bar (its bottom at 1.05 x top)
            self.worst_label.setAnchor((0.0, 1.0) if right else (1.0, 1.0))
            self.worst_label.setPos(worst + 1.0 if right else worst, top * 1.05)
        first_bank = np.where(det.lane_banks[:, 0] >= 0, det.lane_banks[:, 0], -1)
        cl = np.flatnonzero(det.lane_conflict & (first_bank >= 0))
        self.badges.setData(x=first_bank[cl] + 0.78, y=cl + 0.25)
        sh = np.flatnonzero(det.lane_shared & (first_bank >= 0))
        self.shared.setData(x=first_bank[sh] + 0.22, y=sh + 0.25)
        if sel.lane is not None and 0 <= sel.lane < W:
            self.sel_band.show_rect(0, sel.lane, NB, 1)
        else:
            self.sel_band.hide()
        labels = ()
        if det.wavefronts > 1:
            lanes = np.flatnonzero(det.lane_banks[:, 0] >= 0)
            labels = tuple(zip((first_bank[lanes] + 0.5).tolist(), (lanes + 0.55).tolist(),
                               map(str, (det.lane_wave[lanes] + 1).tolist())))
        self.wave_labels.set(labels)
        self.caption.setText(
            f"<b style='color:{st.hex(st.conflict) if det.wavefronts > det.ideal else st.hex(st.ink)}'>"
            f"{det.wavefronts}</b> wavefront{'s' if det.wavefronts != 1 else ''} (ideal {det.ideal}), "
            f"<b>{det.degree}-way</b> &nbsp;·&nbsp; bars: distinct words per bank<br>"
            f"mark colour / number = wavefront serving the lane &nbsp;"
            f"<span style='color:{st.hex(st.conflict)}'>▲ conflict</span> &nbsp;"
            f"<span style='color:{st.hex(st.broadcast)}'>● broadcast</span>")

    def lane_rects(self, lane: int) -> list[QRectF]:
        if self.grid is None or not 0 <= lane < self.grid.shape[0]:
            return []
        return [QRectF(int(b), lane, 1, 1) for b in np.flatnonzero(self.grid[lane] >= 0)]

    def hover_at(self, scene_pos: QPointF) -> dict | None:
        an = self.an
        if an is None or self.grid is None:
            return None
        hw = an.hardware
        row = selected_row(an, self.sel)
        det = detail_for(an, row)
        if self.bars_plot.getViewBox().sceneBoundingRect().contains(scene_pos):
            p = self.bars_plot.getViewBox().mapSceneToView(scene_pos)
            b = int(np.floor(p.x()))
            if 0 <= b < hw.banks and det is not None:
                return {"bank": b, "tip": f"<b>bank {b}</b>: {int(det.bank_load[b])} distinct word(s) to deliver"}
            return None
        if not self.vb.sceneBoundingRect().contains(scene_pos):
            return None
        p = self.vb.mapSceneToView(scene_pos)
        lane, b = int(np.floor(p.y())), int(np.floor(p.x()))
        if not (0 <= lane < hw.warp_size and 0 <= b < hw.banks):
            return None
        tip = lane_tip(an, row, lane, det) if row is not None else f"lane {lane}"
        word = None
        if det is not None and self.grid[lane, b] >= 0:
            hits = [w for w in det.lane_banks[lane] if w == b]
            if hits:
                first = int(det.lane_addr[lane]) // hw.bank_width
                word = first + int(np.flatnonzero(det.lane_banks[lane] == b)[0])
        return {"lane": lane, "bank": b, "word": word, "tip": tip}

    def render_hover(self, h: Hover) -> None:
        an = self.an
        if an is None:
            return
        hw = an.hardware
        if h.lane is not None and 0 <= h.lane < hw.warp_size:
            self.lane_band.show_rect(0, h.lane, hw.banks, 1)
        else:
            self.lane_band.hide()
        if h.bank is not None and 0 <= h.bank < hw.banks:
            self.bank_band.show_rect(h.bank, 0, 1, hw.warp_size)
        else:
            self.bank_band.hide()
