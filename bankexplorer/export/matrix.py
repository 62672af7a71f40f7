"""Matrix panel: lanes (rows) x banks (columns), a cell where a lane touches a bank in the colour
of the wavefront that serves it, and above it each bank's load (distinct words it must deliver),
the busiest bank in the conflict colour. A column with several wavefront colours is a conflict.
"""

from __future__ import annotations

import numpy as np

from ..palette import ink_on
from .canvas import Canvas
from .panel import BROADCAST, LOAD, WAVES, Panel, lh, tick_step, tw
from .scene import Scene


class MatrixPanel(Panel):
    name = "matrix"

    def __init__(self, scene: Scene, max_w: float = 720.0):
        super().__init__(scene)
        f = self.f
        hw = scene.hw
        self.W, self.NB = hw.warp_size, hw.banks
        self.cell = float(int(max(12, min(26, max_w / self.NB))))
        c = self.cell
        self.left = max(tw(str(self.W - 1), f.axis), tw("lane", f.small), tw("words", f.small)) + 8
        self.head_h = lh(f.bold) + 4
        self.bars_h = max(60.0, c * 3.2)
        self.bars_top = self.head_h + lh(f.small)  # room for the busiest bank's label
        self.top = self.bars_top + self.bars_h + 6 + lh(f.axis) + 2
        self.bank_step = tick_step(self.NB, c, tw(str(self.NB - 1), f.axis))
        self.lane_step = tick_step(self.W, c, lh(f.axis, 1.0) - 3)
        self.grid_w, self.grid_h = self.NB * c, self.W * c
        self.width = max(self.left + self.grid_w + 4, tw(self._head(), f.bold))
        self.height = self.top + self.grid_h

    def _head(self) -> str:
        d = self.scene.det
        if d is None:
            return "Lanes → banks"
        return f"Lanes → banks: {d.degree}-way, {d.wavefronts} wavefront{'s' if d.wavefronts != 1 else ''}"

    def legend_entries(self) -> list[str]:
        return [WAVES, LOAD, BROADCAST]

    def cell_rect(self, lane: int, bank: int) -> tuple[float, float, float, float]:
        g = max(1.0, self.cell * 0.08)
        return (self.left + bank * self.cell + g / 2, self.top + lane * self.cell + g / 2, self.cell - g, self.cell - g)

    def draw(self, cv: Canvas) -> None:
        st, f, c, det = self.st, self.f, self.cell, self.scene.det
        faint, ink = st.colors.faint, st.ink
        cv.text(0, 0, self._head(), f.bold, st.colors.conflict if det is not None and det.degree > 1 else ink)
        # bank numbers between the bars and the grid; lane numbers on the left
        for b in range(0, self.NB, self.bank_step):
            cv.text(self.left + (b + 0.5) * c, self.top - 2, str(b), f.axis, faint, align="center", valign="bottom")
        cv.text(0, self.top - 2, "lane", f.small, ink, valign="bottom")
        for ln in range(0, self.W, self.lane_step):
            cv.text(self.left - 5, self.top + (ln + 0.5) * c, str(ln), f.axis, faint, align="right", valign="center")
        grid = np.full((self.W, self.NB), -1, np.int64)
        if det is not None:
            lb = det.lane_banks
            ok = lb >= 0
            lanes = np.broadcast_to(np.arange(self.W)[:, None], lb.shape)
            grid[lanes[ok], lb[ok]] = np.broadcast_to(det.lane_wave[:, None], lb.shape)[ok]
        ll, bb = np.nonzero(grid < 0)
        cv.fill_many([self.cell_rect(int(a), int(b)) for a, b in zip(ll, bb)], st.colors.empty)
        ll, bb = np.nonzero(grid >= 0)
        waves = grid[ll, bb]
        for w in np.unique(waves).tolist():
            sel = waves == w
            cv.fill_many([self.cell_rect(int(a), int(b)) for a, b in zip(ll[sel], bb[sel])], st.wave_rgb(w))
        # bank-load bars
        by0, bh = self.bars_top, self.bars_h
        cv.line(self.left, by0 + bh, self.left + self.grid_w, by0 + bh, faint, 1.0)
        cv.text(self.left - 5, by0 + bh, "0", f.axis, faint, align="right", valign="center")
        if det is None:
            msg = self.scene.error or "no instruction to show"
            self.message(cv, msg, self.left + 6, by0 + 4, self.grid_w - 12)
            return
        load = det.bank_load
        top = max(1, int(load.max()))
        cv.text(self.left - 5, by0, str(top), f.axis, faint, align="right", valign="center")
        cv.text(0, by0 + bh / 2, "words", f.small, ink, valign="center")
        worst = det.worst_bank
        hot = det.degree > 1
        for b in range(self.NB):
            h = bh * float(load[b]) / top
            if h <= 0:
                continue
            color = st.colors.conflict if hot and load[b] == load[worst] else st.bar
            cv.fill(self.left + b * c + c * 0.12, by0 + bh - h, c * 0.76, h, color)
        label = (f"bank {worst}: {int(load[worst])} words" if hot else
                 f"at most {int(load[worst])} word{'s' if load[worst] != 1 else ''} per bank")
        lx = self.left + (worst + 0.5) * c
        lx = min(max(lx, self.left + tw(label, f.small) / 2), self.left + self.grid_w - tw(label, f.small) / 2)
        cv.text(lx, by0 - 2, label, f.small, st.colors.conflict if hot else ink, align="center", valign="bottom")
        # numbers = wavefront (a column of several numbers is the conflict); dots = broadcast
        lf = self.f.axis
        if det.wavefronts > 1:
            for a, b, w in zip(ll.tolist(), bb.tolist(), waves.tolist()):
                x, y, cw, ch = self.cell_rect(a, b)
                cv.text(x + cw / 2, y + ch / 2, str(w + 1), lf, ink_on(st.wave_rgb(w)), align="center", valign="center")
        first = det.lane_banks[:, 0]
        s = c * 0.42
        for ln in np.flatnonzero(det.lane_shared & (first >= 0)).tolist():
            x, y, cw, ch = self.cell_rect(ln, int(first[ln]))
            cv.dot(x + s * 0.38, y + s * 0.38, s * 0.26, st.colors.broadcast, border=st.background)
