"""Banks panel: shared memory as the hardware sees it, one column per bank and one row per bank
row (128 bytes on NVIDIA). Each word says which array element it holds and is tinted by that
element's column, so padding and swizzles show as the diagonals they are; the words the selected
warp instruction reads are outlined in the colour of the wavefront that serves them.
"""

from __future__ import annotations

import numpy as np

from ..palette import ink_on
from ..model.memory_map import word_map
from .canvas import Canvas, font, text_width
from .panel import CONFLICT, PADDING, WAVES, Panel, lh, tick_step, tw
from .scene import Scene

MAX_ROWS = 64


class BanksPanel(Panel):
    name = "banks"

    def __init__(self, scene: Scene, max_w: float = 1400.0):
        super().__init__(scene)
        f, hw, det, row = self.f, scene.hw, scene.det, scene.row
        extra = 0
        if det is not None and (det.lane_addr >= 0).any():
            extra = int(det.lane_addr.max()) + int(scene.an.batch.width[row])
        self.map = m = word_map(scene.pattern, extra)
        self.accesses = det.accesses if det is not None else []
        self.r0, self.r1 = 0, m.rows
        if m.rows > MAX_ROWS:
            first = min((a.word // m.banks for a in self.accesses), default=0)
            self.r0 = max(0, min(first, m.rows - MAX_ROWS))
            self.r1 = self.r0 + MAX_ROWS
        self.elem_font = f.axis
        longest = max((self._index_text(i) for i in range(self.r0 * m.banks, self.r1 * m.banks) if m.array[i] >= 0),
                      key=len, default="0")
        self.cw = float(int(max(24, min(max_w / m.banks, text_width(longest, self.elem_font) + 8))))
        if text_width(longest, self.elem_font) + 4 > self.cw:  # 3-D indices: a smaller font, still whole
            self.elem_font = font(self.elem_font.pixelSize() * (self.cw - 4) / text_width(longest, self.elem_font))
        # several arrays: each one's name beside the row where it starts
        self.starts = [(a.name, a.base // hw.row_bytes) for a in scene.pattern.arrays
                       if self.r0 <= a.base // hw.row_bytes < self.r1] if len(scene.pattern.arrays) > 1 else []
        names_w = max((tw(n, f.small) + 24 for n, _ in self.starts), default=0)
        self.ch = float(int(lh(f.axis, 1.0) * 2 + 6))
        self.left = tw(f"{(self.r1 - 1) * hw.row_bytes}", f.axis) + 10
        self.head_h = lh(f.bold) + lh(f.small) + 4
        self.top = self.head_h + lh(f.axis) + 2
        self.bank_step = tick_step(m.banks, self.cw, tw(str(m.banks - 1), f.axis))
        self.grid_w, self.grid_h = m.banks * self.cw, (self.r1 - self.r0) * self.ch
        shown = self.r1 - self.r0
        self.note = f"rows {self.r0}–{self.r1 - 1} of {m.rows} shown" if shown < m.rows else ""
        self.width = max(self.left + self.grid_w + 2 + names_w, tw(self._head(), f.bold), tw(self._sub(), f.small))
        self.height = self.top + self.grid_h + (lh(f.small) + 2 if self.note else 0)

    def _head(self) -> str:
        hw = self.scene.hw
        return f"Physical banks: {hw.banks} banks × {hw.bank_width} B, one row = {hw.row_bytes} B"

    def _sub(self) -> str:
        return "each word shows the element it holds; tint = the element's column; outline colour = wavefront"

    def legend_entries(self) -> list[str]:
        e = [WAVES, CONFLICT]
        if (self.map.array == -2).any():
            e.append(PADDING)
        return e

    def _index_text(self, i: int) -> str:
        k = int(self.map.array[i])
        if k < 0:
            return ""
        nd = self.scene.pattern.arrays[k].ndim
        return ",".join(str(int(x)) for x in self.map.index[i, :nd])

    def word_rect(self, word: int) -> tuple[float, float, float, float]:
        r, b = divmod(word, self.map.banks)
        g = 1.0
        return (self.left + b * self.cw + g / 2, self.top + (r - self.r0) * self.ch + g / 2, self.cw - g, self.ch - g)

    def draw(self, cv: Canvas) -> None:
        st, f, m = self.st, self.f, self.map
        ink, faint = st.ink, st.colors.faint
        hw = self.scene.hw
        cv.text(0, 0, self._head(), f.bold, ink)
        cv.text(0, lh(f.bold), self._sub(), f.small, faint)
        for b in range(0, m.banks, self.bank_step):
            cv.text(self.left + (b + 0.5) * self.cw, self.top - 2, str(b), f.axis, faint, align="center",
                    valign="bottom")
        for r in range(self.r0, self.r1):
            if (r - self.r0) % max(1, int(np.ceil(lh(f.axis, 1.0) / self.ch))) == 0:
                cv.text(self.left - 5, self.top + (r - self.r0 + 0.5) * self.ch, str(r * hw.row_bytes), f.axis,
                        faint, align="right", valign="center")
        w0, w1 = self.r0 * m.banks, self.r1 * m.banks
        arr, col = m.array[w0:w1], m.column[w0:w1]
        tints: dict[int, tuple] = {}
        words = np.arange(w0, w1)
        cv.fill_many([self.word_rect(int(w)) for w in words[arr == -1]], st.colors.empty)
        pad = words[arr == -2]
        if pad.size:
            cv.fill_many([self.word_rect(int(w)) for w in pad], st.colors.padding)
            for w in pad.tolist():
                cv.hatch(*self.word_rect(w), faint, step=5.0)
        has = arr >= 0
        for t in np.unique(col[has] % len(st.banks)).tolist():
            sel = has & (col % len(st.banks) == t)
            tints[t] = st.pastel_rgb(t)
            cv.fill_many([self.word_rect(int(w)) for w in words[sel]], tints[t])
        touched = {a.word for a in self.accesses}
        for w in words[has].tolist():
            if w in touched:
                continue
            x, y, cw, ch = self.word_rect(w)
            t = int(m.column[w] % len(st.banks))
            cv.text(x + cw / 2, y + ch / 2, self._index_text(w), self.elem_font, _soft(ink_on(tints[t])),
                    align="center", valign="center")
        # the accesses: outline = wavefront colour, lane number on top, element below
        ow = max(2.0, st.outline)
        lanes_of: dict[int, list[int]] = {}
        for a in self.accesses:
            lanes_of.setdefault(a.word, []).extend(a.lanes)
        det = self.scene.det
        lf = font(f.axis.pixelSize() * 1.1, bold=True)
        for a in self.accesses:
            if not w0 <= a.word < w1:
                continue
            x, y, cw, ch = self.word_rect(a.word)
            cv.outline(x, y, cw, ch, st.wave_rgb(a.wavefront), ow)
            ls = sorted(set(lanes_of[a.word]))
            label = str(ls[0]) if len(ls) == 1 else f"{ls[0]}+{len(ls) - 1}"
            bg = tints.get(int(m.column[a.word] % len(st.banks)), st.colors.empty) if m.array[a.word] >= 0 \
                else st.colors.empty
            cv.text(x + cw / 2, y + ch * 0.3, label, lf, ink_on(bg), align="center", valign="center")
            cv.text(x + cw / 2, y + ch * 0.74, self._index_text(a.word), self.elem_font, ink_on(bg), align="center",
                    valign="center")
            if det is not None and det.lane_conflict[a.lanes].any():
                s = min(cw, ch) * 0.4
                cv.triangle(x + cw - s * 0.5, y + s * 0.45, s, st.colors.conflict, border=st.background)
        for name, r in self.starts:
            y = self.top + (r - self.r0 + 0.5) * self.ch
            cv.text(self.left + self.grid_w + 6, y, f"◀ {name}", f.small, ink, valign="center")
        if self.note:
            cv.text(self.left, self.top + self.grid_h + 2, self.note, f.small, faint)


def _soft(rgb) -> tuple[int, int, int]:
    """Element numbers of untouched words: the ink, a little lighter, so the accesses stand out."""
    return tuple(int(x * 0.75 + 128 * 0.25) for x in rgb)  # type: ignore[return-value]
