"""Timeline: the wavefronts of the selected warp instruction along a cycle axis (one wavefront per
cycle, the lanes each serves), the ideal next to it, and below the whole instruction sequence of
the selected warp with the excess wavefronts of every instruction in the conflict colour.
"""

from __future__ import annotations

import html

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QPen

from ...model.analysis import Analysis
from ...model.hardware import issue_cycles_one_warp, latency_cycles
from ..document import Hover, Selection
from ..palette import wave_rgba
from .base import (
    Caption,
    DocView,
    Label,
    RectHighlight,
    TextPool,
    cosmetic_pen,
    detail_for,
    lane_tip,
    qcolor,
    selected_row,
)
from .image import RGBAImage
from .marks import Bars, units_per_pixel


_IMAGES: dict = {}


def _lanes_image(grid: np.ndarray, st) -> np.ndarray:
    """The lanes x wavefronts picture of a grid (lane's wavefront or -1), remembered for the last
    few grids (warps and instructions of one pattern often make the same one)."""
    key = (grid.shape, grid.tobytes(), st.name)
    img = _IMAGES.get(key)
    if img is None:
        rgba = wave_rgba(grid)
        rgba[grid < 0] = (*st.empty, 255)
        # 16 pixels per wavefront with a 1-pixel gap between wavefronts, one per lane: wide,
        # short cells would turn grid_image's square grid lines into stripes
        img = np.repeat(rgba, 16, axis=1)
        img[:, ::16, :3] = st.background
        if len(_IMAGES) >= 16:
            del _IMAGES[next(iter(_IMAGES))]
        _IMAGES[key] = img
    return img


class VLine(pg.GraphicsObject):
    """A vertical line at x = value across the whole height of the view, as pyqtgraph's
    ``InfiniteLine(angle=90)`` draws it, without its per-change work on the view's extent."""

    def __init__(self, pen: QPen):
        super().__init__()
        self.pen = QPen(pen)
        self.pen.setJoinStyle(Qt.PenJoinStyle.MiterJoin)
        self._x = 0.0
        self._bounds = None

    def value(self) -> float:
        return self._x

    def setValue(self, x: float) -> None:  # noqa: N802 - InfiniteLine's name
        x = float(x)
        if x != self._x:
            self.prepareGeometryChange()
            self._x = x
            self._bounds = None
            self.update()

    def viewTransformChanged(self) -> None:  # noqa: N802 - pyqtgraph's name
        super().viewTransformChanged()
        self.prepareGeometryChange()
        self._bounds = None

    def _extent(self) -> tuple[float, float] | None:
        vb = self.getViewBox()
        if vb is None or not hasattr(vb, "viewRange"):
            return None
        y0, y1 = vb.viewRange()[1]
        return min(y0, y1), max(y0, y1)

    def boundingRect(self) -> QRectF:  # noqa: N802 - Qt's name
        if self._bounds is None:
            ext = self._extent()
            if ext is None:
                return QRectF()
            sx, _ = units_per_pixel(self.getViewBox())
            w = (self.pen.widthF() / 2 + 1) * (sx or 1.0)
            self._bounds = QRectF(self._x - w, ext[0], 2 * w, ext[1] - ext[0])
        return QRectF(self._bounds)

    def paint(self, p, *args) -> None:
        ext = self._extent()
        if ext is None:
            return
        p.setPen(self.pen)
        p.drawLine(QPointF(self._x, ext[0]), QPointF(self._x, ext[1]))

#: a warp sequence longer than this is drawn as a strip picture (each pixel column coloured by the
#: share of excess cycles in it), not one bar per instruction: an imported kernel's warp can run
#: thousands of shared-memory instructions, more bars than the strip has pixels
SEQ_BARS = 400
SEQ_STRIP_PX = 2048


class TimelineView(DocView):
    title = "Timeline"

    def __init__(self, doc=None, style=None, parent=None):
        from ..palette import SCREEN

        super().__init__(doc, style or SCREEN, parent)
        st = self.style_
        self.head = Caption(qcolor(st.ink), st.font_pt)
        self.addItem(self.head, row=0, col=0)
        self.plot = self.addPlot(row=1, col=0)
        self.vb = self.plot.getViewBox()
        self.vb.invertY(True)
        self.plot.setMenuEnabled(False)
        self.plot.setLabel("left", "lane", color=st.hex(st.ink))
        # no axis title under the wavefronts (the caption says what they are): in a short dock
        # it took the plot's last rows and was clipped ("selected instruc") when narrow
        self.plot.setMouseEnabled(x=True, y=False)
        self.image = RGBAImage()
        self.plot.addItem(self.image)
        self.ideal_line = VLine(pg.mkPen(qcolor(st.ink), width=2, style=Qt.PenStyle.DashLine))
        self.plot.addItem(self.ideal_line, ignoreBounds=True)
        # the line's caption sits in a band above lane 0, so it never covers a wavefront's bars
        self.ideal_text = Label(color=qcolor(st.ink), anchor=(1, 0.5))
        self.plot.addItem(self.ideal_text, ignoreBounds=True)
        self.lane_band = RectHighlight(st.highlight, 2.0, fill_alpha=60)
        self.plot.addItem(self.lane_band, ignoreBounds=True)
        self.seq = self.addPlot(row=2, col=0)
        self.seq.setMaximumHeight(70)
        self.seq.setMenuEnabled(False)
        self.seq.setMouseEnabled(x=True, y=False)
        self.seq.getViewBox().invertY(True)
        self.seq.setLabel("bottom", "cycles of the warp's instructions", color=st.hex(st.ink))
        self.seq.getAxis("left").setTicks([[(0.5, "actual"), (1.7, "ideal")], []])
        for pl in (self.plot, self.seq):
            pl.getAxis("bottom").set_integer_ticks()
            for ax in ("bottom", "left"):
                pl.getAxis(ax).setPen(qcolor(st.faint))
                pl.getAxis(ax).setTextPen(qcolor(st.ink))
            pl.getAxis("left").setWidth(52)
        self.seq_ok = Bars(cosmetic_pen(st.background))
        self.seq_bad = Bars(cosmetic_pen(st.background))
        self.seq_ideal = Bars(cosmetic_pen(st.background))
        for it in (self.seq_ok, self.seq_bad, self.seq_ideal):
            self.seq.addItem(it)
        self.seq_strip = RGBAImage()
        self.seq.addItem(self.seq_strip)
        self.seq_sel = RectHighlight(st.selection, 2.5)
        self.seq.addItem(self.seq_sel, ignoreBounds=True)
        self.seq_labels = TextPool(self.seq.getViewBox(), st.ink, max(6, st.font_pt - 1))
        self._seq_rows = np.zeros(0, np.int64)
        self._seq_x0 = np.zeros(0)
        self._seq_w = np.zeros(0)
        self._key = None
        self.track_view(self.vb)

    def fit_range(self) -> None:
        det = detail_for(self.an, selected_row(self.an, self.sel))
        if det is None:
            return
        W = self.an.hardware.warp_size
        self.vb.setRange(xRange=(0, max(det.wavefronts, det.ideal, 1) + 0.5), yRange=(-self._band(W), W), padding=0.02)

    @staticmethod
    def _band(warp_size: int) -> float:
        """Height (in lanes) of the caption band above lane 0."""
        return max(2.0, warp_size / 8)

    def render(self, an: Analysis | None, sel: Selection) -> None:
        self.an, self.sel = an, sel
        st = self.style_
        if an is None:
            self.head.setText("the pattern is not valid")
            return
        hw = an.hardware
        W = hw.warp_size
        row = selected_row(an, sel)
        det = detail_for(an, row)
        if det is None:
            self.image.clear()
            self._grid = None
            self.ideal_line.hide()
            self.ideal_text.hide()
            msg = an.errors[row] if row is not None and an.errors[row] else "no valid instruction selected"
            self.head.setText(msg)
        else:
            n = max(det.wavefronts, 1)
            grid = np.full((W, n), -1, np.int64)
            lanes = np.flatnonzero(det.lane_wave >= 0)
            grid[lanes, det.lane_wave[lanes]] = det.lane_wave[lanes]
            last = getattr(self, "_grid", None)
            if last is None or last.shape != grid.shape or not np.array_equal(last, grid) or self.image.image is None:
                # a new picture only when the lanes' wavefronts changed (an edit elsewhere: none)
                self._grid = grid
                self.image.setImage(_lanes_image(grid, st), autoLevels=False)
                self.image.setRect(QRectF(0, 0, n, W))
            self.ideal_line.setValue(det.ideal)
            self.ideal_line.show()
            right = det.ideal < n / 2  # room on the right of the line: say it there
            self.ideal_text.setAnchor((0, 0.5) if right else (1, 0.5))
            self.ideal_text.setText(f" ideal {det.ideal}" if right else f"ideal {det.ideal} ")
            self.ideal_text.setPos(det.ideal, -self._band(W) / 2)
            self.ideal_text.show()
            self.plot.getAxis("left").setTicks([[(ln + 0.5, str(ln)) for ln in range(0, W, 8)], []])
            key = (n, W, det.ideal)
            if key != self._key:
                self._key = key
                self.shape_changed()
            ins = an.pattern.instructions[int(an.source[row])]
            eff = det.ideal / det.wavefronts if det.wavefronts else 1.0
            color = st.hex(st.conflict) if det.wavefronts > det.ideal else st.hex(st.ink)
            self.head.setText(
                f"<b>{html.escape(ins.title())}</b> · warp {int(an.warp[row])}: "
                f"<b style='color:{color}'>{det.wavefronts}</b> wavefront{'s' if det.wavefronts != 1 else ''} "
                f"vs ideal {det.ideal} ({eff:.0%}) · latency ≈ {float(latency_cycles(det.wavefronts)):.0f} cycles · "
                f"issue ≈ {float(issue_cycles_one_warp(det.wavefronts)):.0f} cycles/warp")
        self._render_sequence(an, sel, row)

    def lane_rects(self, lane: int) -> list[QRectF]:
        grid = getattr(self, "_grid", None)
        if grid is None or not 0 <= lane < grid.shape[0]:
            return []
        return [QRectF(int(k), lane, 1, 1) for k in np.flatnonzero(grid[lane] >= 0)]

    def render_replay(self, step) -> None:
        """The lanes as everywhere, and a cursor on the current wavefront's cycle."""
        super().render_replay(step)
        if not hasattr(self, "wave_cursor"):
            st = self.style_
            self.wave_cursor = RectHighlight(st.ink, 2.5, fill_alpha=0)
            self.plot.addItem(self.wave_cursor, ignoreBounds=True)
        grid = getattr(self, "_grid", None)
        if step is None or step.kind != "wavefront" or grid is None:
            self.wave_cursor.hide()
            self.cursor_wave = None
            return
        W = grid.shape[0]
        self.cursor_wave = int(step.wave)
        self.wave_cursor.show_rect(step.wave, -self._band(W), 1, W + self._band(W))

    def _render_sequence(self, an: Analysis, sel: Selection, row: int | None) -> None:
        st = self.style_
        rows = np.flatnonzero(an.warp == sel.warp)
        row_wf, row_ideal = an.row_costs()  # a compare-and-swap loop's loads with it, as the totals
        wf, ideal = row_wf[rows], row_ideal[rows]
        x0 = np.concatenate([[0], np.cumsum(wf)[:-1]]).astype(float)
        ix0 = np.concatenate([[0], np.cumsum(ideal)[:-1]]).astype(float)
        self._seq_rows, self._seq_x0, self._seq_w = rows, x0, wf.astype(float)
        good = np.minimum(ideal, wf).astype(float)
        bad = (wf - good).astype(float)
        key = (wf.tobytes(), ideal.tobytes())
        if rows.size > SEQ_BARS:
            self._render_strip(x0, good, bad, key)
            total_ideal = float(ideal.sum())
            self.seq_ok.setBars([], [], [], [], qcolor(st.broadcast, 170), key=("strip",))
            self.seq_bad.setBars([], [], [], [], qcolor(st.conflict, 200), key=("strip",))
            self.seq_ideal.setBars([0.0], 1.2, [total_ideal], 1.0, qcolor(st.faint, 160), key=("strip", total_ideal))
        else:
            self.seq_strip.clear()
            self._strip_key = None
            self.seq_ok.setBars(x0, 0.0, good, 1.0, qcolor(st.broadcast, 170), key=key)
            self.seq_bad.setBars(x0 + good, 0.0, bad, 1.0, qcolor(st.conflict, 200), key=key)
            self.seq_ideal.setBars(ix0, 1.2, ideal.astype(float), 1.0, qcolor(st.faint, 160), key=key)
        total = float(wf.sum())
        if getattr(self, "_seq_total", None) != total:  # a range change repaints the axis
            self._seq_total = total
            self.seq.setXRange(0, max(total, 1), padding=0.02)
            if not getattr(self, "_seq_y_set", False):  # the two rows (actual, ideal) never change
                self._seq_y_set = True
                self.seq.setYRange(0, 2.2, padding=0.05)
        hit = np.flatnonzero(rows == row) if row is not None else []
        if len(hit):
            j = int(hit[0])
            self.seq_sel.show_rect(x0[j], -0.05, max(wf[j], 0.3), 1.1)
        else:
            self.seq_sel.hide()
        labels = []
        if rows.size <= 24:
            for j, r in enumerate(rows.tolist()):
                if wf[j] > 0:
                    k, it = int(an.source[r]), int(an.iteration[r])
                    labels.append((x0[j] + wf[j] / 2, 0.5, f"#{k}" + (f".{it}" if an.loop_values[k] else "")))
        # a label only on a segment wide enough to hold it (on narrow ones they overlapped)
        svb = self.seq.getViewBox()
        (sx0, sx1), _ = svb.viewRange()
        px = svb.width() / max(sx1 - sx0, 1e-9)
        pool = self.seq_labels
        pt = pool.font.pointSize()
        widths = [float(w) for w in wf if w > 0]
        labels = [lab for lab, w in zip(labels, widths) if pool.advance(pt, lab[2]) + 4 <= w * px]
        self.seq_labels.set(labels, color=(255, 255, 255))

    def _render_strip(self, x0: np.ndarray, good: np.ndarray, bad: np.ndarray, key) -> None:
        """The sequence as one picture: the warp's cycles in at most SEQ_STRIP_PX columns, each
        the conflict colour in the share of its cycles that are excess, else the served colour."""
        if getattr(self, "_strip_key", None) == key:
            return
        self._strip_key = key
        st = self.style_
        total = float((good + bad).sum())
        if total <= 0:
            self.seq_strip.clear()
            return
        n = int(min(total, SEQ_STRIP_PX))
        edges = np.linspace(0.0, total, n + 1)
        bad_before = np.concatenate([[0.0], np.cumsum(bad)])
        j = np.clip(np.searchsorted(x0, edges, side="right") - 1, 0, x0.size - 1)
        cum = bad_before[j] + np.clip(edges - (x0[j] + good[j]), 0.0, bad[j])
        frac = np.clip(np.diff(cum) / np.diff(edges), 0.0, 1.0)[:, None]
        ok_c = np.array([*st.broadcast], float)
        bad_c = np.array([*st.conflict], float)
        bg = np.array([*st.background], float)
        rgb = (1 - frac) * (bg + (ok_c - bg) * 170 / 255) + frac * (bg + (bad_c - bg) * 200 / 255)
        img = np.empty((1, n, 4), np.uint8)
        img[0, :, :3] = np.round(rgb).astype(np.uint8)
        img[0, :, 3] = 255
        self.seq_strip.setImage(img)
        self.seq_strip.setRect(QRectF(0, 0, total, 1))

    def hover_at(self, scene_pos: QPointF) -> dict | None:
        an = self.an
        if an is None:
            return None
        svb = self.seq.getViewBox()
        if svb.sceneBoundingRect().contains(scene_pos):
            j = self._segment_at(svb.mapSceneToView(scene_pos))
            if j is None:
                return None
            r = int(self._seq_rows[j])
            k = int(an.source[r])
            wf, ideal = int(an.result.wavefronts[r]), int(an.result.ideal[r])
            lv = an.loop_values[k][int(an.iteration[r])] if an.loop_values[k] else {}
            return {"tip": f"<b>#{k} {an.pattern.instructions[k].title()}</b>"
                           + (" " + ", ".join(f"{a}={b}" for a, b in lv.items()) if lv else "")
                           + (f"<br>{wf} wavefronts, ideal {ideal}" if wf >= 0 else f"<br>{an.errors[r]}")
                           + "<br>click to select"}
        if not self.vb.sceneBoundingRect().contains(scene_pos):
            return None
        p = self.vb.mapSceneToView(scene_pos)
        lane = int(np.floor(p.y()))
        row = selected_row(an, self.sel)
        if row is None or not 0 <= lane < an.hardware.warp_size:
            return None
        return {"lane": lane, "tip": lane_tip(an, row, lane, detail_for(an, row))}

    def _segment_at(self, p: QPointF) -> int | None:
        if not (0 <= p.y() <= 1) or not self._seq_rows.size:
            return None
        j = int(np.searchsorted(self._seq_x0, p.x(), side="right")) - 1
        return j if 0 <= j < self._seq_rows.size else None

    def clicked(self, ev, info) -> None:
        an = self.an
        svb = self.seq.getViewBox()
        if an is None or self.doc is None or not svb.sceneBoundingRect().contains(ev.scenePos()):
            return
        j = self._segment_at(svb.mapSceneToView(ev.scenePos()))
        if j is not None:
            r = int(self._seq_rows[j])
            self.doc.select(instruction=int(an.source[r]), iteration=int(an.iteration[r]))

    def render_hover(self, h: Hover) -> None:
        an = self.an
        if an is not None and h.lane is not None and 0 <= h.lane < an.hardware.warp_size:
            (x0, x1), _ = self.vb.viewRange()
            self.lane_band.show_rect(min(x0, 0), h.lane, max(x1, 1) - min(x0, 0), 1)
        else:
            self.lane_band.hide()
