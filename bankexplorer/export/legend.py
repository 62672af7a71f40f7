"""The legend under a figure: the numbered bank-colour strip and a key to every mark used.

Entries are laid out left to right and wrap at the width they are given, so the same legend fits
a narrow single view and a wide composed figure.
"""

from __future__ import annotations

from ..palette import ink_on
from .canvas import Canvas
from .panel import ACCESSED, BANKS, BROADCAST, CONFLICT, EXCESS, IDEAL, LOAD, NEEDED, PADDING, WAVES, Panel, lh, tw
from .scene import Scene

LABELS = {
    ACCESSED: "accessed (number = lane)",
    CONFLICT: "bank conflict",
    BROADCAST: "broadcast (lanes share a word)",
    PADDING: "padding",
    IDEAL: "ideal (conflict-free) wavefronts",
    NEEDED: "needed wavefronts",
    EXCESS: "excess wavefronts (conflicts)",
    LOAD: "busiest bank's words (red: a conflict)",
}


class Legend(Panel):
    name = "legend"

    def __init__(self, scene: Scene, entries: list[str], width: float):
        super().__init__(scene)
        self.entries = [e for e in dict.fromkeys(entries)]
        f = self.f
        self.sw = max(14.0, lh(f.small, 1.0) * 1.05)  # swatch size
        self.row_h = self.sw + 8
        self.n_banks = scene.hw.banks
        n_waves = scene.det.wavefronts if scene.det is not None else 1
        self.n_waves = max(1, min(n_waves, len(self.st.waves)))
        # banks: one strip of numbered swatches on its own line(s)
        items = []  # (kind, width)
        for e in self.entries:
            if e == BANKS:
                continue
            if e == WAVES:
                items.append((e, tw("wavefront", f.small) + 6 + self.n_waves * (self.sw + 2) + 18))
            else:
                items.append((e, self.sw + 6 + tw(LABELS[e], f.small) + 18))
        self.bank_cell = self.sw * 1.45
        bank_label_w = tw("bank colour", f.small) + 8
        per_line = max(8, int((width - bank_label_w) // self.bank_cell))
        self.bank_lines = -(-self.n_banks // per_line) if BANKS in self.entries else 0
        self.bank_per_line = per_line
        self.bank_label_w = bank_label_w
        # flow the other items
        self.places: list[tuple[str, float, float]] = []
        x, y = 0.0, self.bank_lines * self.row_h
        used = 0.0
        for kind, w in items:
            if x > 0 and x + w > width:
                x, y = 0.0, y + self.row_h
            self.places.append((kind, x, y))
            x += w
            used = max(used, x)
        rows_h = (y + self.row_h) if items else y
        bank_w = bank_label_w + min(self.n_banks, per_line) * self.bank_cell if self.bank_lines else 0
        self.width = max(used, bank_w)
        self.height = rows_h

    def draw(self, cv: Canvas) -> None:
        st, f, sw = self.st, self.f, self.sw
        ink, faint = st.ink, st.colors.faint
        for line in range(self.bank_lines):
            y = line * self.row_h
            if line == 0:
                cv.text(0, y + sw / 2, "bank colour", f.small, ink, valign="center")
            b0 = line * self.bank_per_line
            for j, b in enumerate(range(b0, min(self.n_banks, b0 + self.bank_per_line))):
                x = self.bank_label_w + j * self.bank_cell
                rgb = st.bank_rgb(b)
                cv.fill(x, y, self.bank_cell - 2, sw, rgb)
                cv.text(x + (self.bank_cell - 2) / 2, y + sw / 2, str(b), self.f.axis, ink_on(rgb),
                        align="center", valign="center")
        ow = max(1.5, st.outline * 0.7)
        for kind, x, y in self.places:
            cy = y + sw / 2
            tx = x + sw + 6
            if kind == ACCESSED:
                cv.fill(x, y, sw, sw, st.bank_rgb(5))
                cv.outline(x, y, sw, sw, ink, ow)
                cv.text(x + sw / 2, cy, "7", self.f.axis, ink_on(st.bank_rgb(5)), align="center", valign="center")
            elif kind == CONFLICT:
                cv.outline(x, y, sw, sw, st.colors.conflict, ow)
                cv.triangle(x + sw / 2, cy, sw * 0.6, st.colors.conflict)
            elif kind == BROADCAST:
                cv.dot(x + sw / 2, cy, sw * 0.25, st.colors.broadcast)
            elif kind == PADDING:
                cv.fill(x, y, sw, sw, st.colors.padding)
                cv.hatch(x, y, sw, sw, faint, step=4.0)
            elif kind == IDEAL:
                cv.line(x + sw / 2, y, x + sw / 2, y + sw, ink, 2.0, dash=True)
            elif kind == NEEDED:
                cv.fill(x, y + 2, sw, sw - 4, st.ok)
            elif kind == LOAD:
                cv.fill(x + sw * 0.15, y + 3, sw * 0.3, sw - 3, st.bar)
                cv.fill(x + sw * 0.55, y, sw * 0.3, sw, st.colors.conflict)
            elif kind == EXCESS:
                cv.fill(x, y + 2, sw, sw - 4, st.colors.conflict)
            if kind == WAVES:
                cv.text(x, cy, "wavefront", f.small, ink, valign="center")
                x0 = x + tw("wavefront", f.small) + 6
                for w in range(self.n_waves):
                    rgb = st.wave_rgb(w)
                    cv.fill(x0 + w * (sw + 2), y, sw, sw, rgb)
                    cv.text(x0 + w * (sw + 2) + sw / 2, cy, str(w + 1), self.f.axis, ink_on(rgb),
                            align="center", valign="center")
            else:
                cv.text(tx, cy, LABELS[kind], f.small, ink, valign="center")
