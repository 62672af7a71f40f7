"""Timeline panel: the selected warp instruction's wavefronts along a cycle axis (one wavefront per
cycle, a mark for each lane it serves) with the ideal count as a dashed line, and under it the
whole instruction sequence of the warp, needed wavefronts in blue and the excess in red.
"""

from __future__ import annotations

import numpy as np

from ..palette import ink_on
from .canvas import Canvas
from .panel import EXCESS, IDEAL, NEEDED, WAVES, Panel, lh, pct, tick_step, tw
from .scene import Scene


class TimelinePanel(Panel):
    name = "timeline"

    def __init__(self, scene: Scene, max_w: float = 720.0):
        super().__init__(scene)
        f = self.f
        det = scene.det
        self.W = scene.hw.warp_size
        self.n = max(det.wavefronts, det.ideal, 1) if det is not None else 1
        self.left = max(tw(str(self.W - 1), f.axis), tw("lane", f.small), tw("actual", f.axis)) + 8
        self.cell_h = float(int(max(6, min(14, lh(f.axis, 1.0) * 0.75))))
        self.cell_w = float(max(6.0, min(40.0, (max_w - self.left) / self.n)))
        self.head_h = lh(f.bold) + lh(f.small) * 0.5 + 6
        self.top = self.head_h + lh(f.axis)
        self.grid_w, self.grid_h = self.n * self.cell_w, self.W * self.cell_h
        self.lane_step = tick_step(self.W, self.cell_h, lh(f.axis, 1.0) - 3)
        self.cyc_step = tick_step(self.n, self.cell_w, tw(str(self.n), f.axis) + 2)
        self.axis_h = lh(f.axis) + lh(f.small) + 6
        # the warp's instruction sequence
        rows = np.flatnonzero(scene.an.warp == scene.warp)
        self.seq_rows = rows
        row_wf, row_ideal = scene.an.row_costs()  # a compare-and-swap loop's loads with it, as the totals
        wf, ideal = row_wf[rows], row_ideal[rows]
        self.seq_wf, self.seq_ideal = wf, ideal
        self.seq_top = self.top + self.grid_h + self.axis_h + 8
        self.bar_h = max(12.0, lh(f.axis, 1.0) + 2)
        self.seq_w = max(self.grid_w, min(max_w - self.left, 560.0))
        self.height = self.seq_top + lh(f.small) + 2 * self.bar_h + 6 + lh(f.axis)
        self.width = max(self.left + max(self.grid_w, self.seq_w) + 4, tw(self._head(), f.bold))

    def _head(self) -> str:
        d = self.scene.det
        if d is None:
            return "Wavefronts"
        eff = d.ideal / d.wavefronts if d.wavefronts else 1.0
        return f"{d.wavefronts} wavefront{'s' if d.wavefronts != 1 else ''} vs ideal {d.ideal} ({pct(eff)})"

    def legend_entries(self) -> list[str]:
        return [WAVES, IDEAL, NEEDED, EXCESS]

    def draw(self, cv: Canvas) -> None:
        st, f, det = self.st, self.f, self.scene.det
        ink, faint = st.ink, st.colors.faint
        hot = det is not None and det.wavefronts > det.ideal
        cv.text(0, 0, self._head(), f.bold, st.colors.conflict if hot else ink)
        L, T, cw, ch = self.left, self.top, self.cell_w, self.cell_h
        cv.text(0, T - 2, "lane", f.small, ink, valign="bottom")
        for ln in range(0, self.W, self.lane_step):
            cv.text(L - 5, T + (ln + 0.5) * ch, str(ln), f.axis, faint, align="right", valign="center")
        cv.fill(L, T, self.grid_w, self.grid_h, st.colors.empty)
        if det is None:
            self.message(cv, self.scene.error or "no instruction to show", L + 6, T + 4, max(self.grid_w, 300) - 12)
        else:
            lanes = np.flatnonzero(det.lane_wave >= 0)
            waves = det.lane_wave[lanes]
            g = max(0.5, min(cw, ch) * 0.1)
            for w in np.unique(waves).tolist():
                ls = lanes[waves == w]
                cv.fill_many([(L + w * cw + g / 2, T + ln * ch + g / 2, cw - g, ch - g) for ln in ls.tolist()],
                             st.wave_rgb(w))
            # the ideal: a dashed line after the last wavefront a conflict-free access would need
            xi = L + det.ideal * cw
            cv.line(xi, T - 4, xi, T + self.grid_h + 4, ink, 2.0, dash=True)
            lab = f"ideal {det.ideal}"
            cv.text(min(xi + 4, L + self.grid_w - tw(lab, f.small)) if det.ideal < self.n else xi - 4,
                    T - 2, lab, f.small, ink, align="left" if det.ideal < self.n else "right", valign="bottom")
        ay = T + self.grid_h + 2
        for k in range(0, self.n, self.cyc_step):
            cv.text(L + (k + 0.5) * cw, ay, str(k + 1), f.axis, faint, align="center")
        cv.text(L, ay + lh(f.axis), "cycle (one wavefront each)", f.small, ink)
        self._draw_sequence(cv)

    def _draw_sequence(self, cv: Canvas) -> None:
        st, f = self.st, self.f
        L, y0, bh = self.left, self.seq_top, self.bar_h
        an, rows = self.scene.an, self.seq_rows
        wf, ideal = self.seq_wf.astype(float), self.seq_ideal.astype(float)
        scale = self.seq_w / max(float(wf.sum()), float(ideal.sum()), 1.0)
        head = (f"all {len(rows):,} warp instruction{'s' if len(rows) != 1 else ''} of warp {self.scene.warp}: "
                f"{int(wf.sum()):,} wavefronts vs ideal {int(ideal.sum()):,}")
        cv.text(L, y0, head, f.small, st.ink)
        ya = y0 + lh(f.small)
        yi = ya + bh + 3
        cv.text(L - 5, ya + bh / 2, "actual", f.axis, st.colors.faint, align="right", valign="center")
        cv.text(L - 5, yi + bh / 2, "ideal", f.axis, st.colors.faint, align="right", valign="center")
        x = L + np.concatenate([[0.0], np.cumsum(wf)[:-1]]) * scale  # where each instruction starts
        sel = np.flatnonzero(rows == self.scene.row) if self.scene.row is not None else []
        sel_box = (x[sel[0]], wf[sel[0]] * scale) if len(sel) else None
        good = np.minimum(wf, ideal)
        bad = wf - good
        if len(rows) > 1024:  # a long loop: sum runs of instructions, the totals stay exact
            cuts = np.linspace(0, len(rows), 1025).astype(int)[:-1]
            good, bad = np.add.reduceat(good, cuts), np.add.reduceat(bad, cuts)
            x = x[cuts]
        cv.fill_many([(a, ya, g * scale, bh) for a, g in zip(x.tolist(), good.tolist()) if g > 0], st.ok)
        cv.fill_many([(a + g * scale, ya, b * scale, bh) for a, g, b in zip(x.tolist(), good.tolist(), bad.tolist())
                      if b > 0], st.colors.conflict)
        if ideal.sum():
            cv.fill(L, yi, float(ideal.sum()) * scale, bh, st.colors.faint)
        if len(rows) <= 256:
            cv.lines([(a, ya, a, ya + bh) for a in x[1:].tolist()], st.background, 1.0)
            xi = L + np.cumsum(ideal)[:-1] * scale
            cv.lines([(a, yi, a, yi + bh) for a in xi.tolist()], st.background, 1.0)
        if len(rows) <= 24:
            for j, r in enumerate(rows.tolist()):
                k = int(an.source[r])
                if wf[j] * scale > tw(f"#{k}", f.axis) + 4:
                    cv.text(x[j] + wf[j] * scale / 2, ya + bh / 2, f"#{k}", f.axis,
                            ink_on(st.ok if bad[j] == 0 else st.colors.conflict), align="center", valign="center")
        if sel_box is not None:
            cv.outline(sel_box[0] - 1.5, ya - 1.5, sel_box[1] + 3, bh + 3, st.ink, 2.0, inside=False)
