"""Whole pictures: one view with its title and legend, or the composed figure (title, key numbers,
tile, lane-to-bank matrix, timeline and the bank-colour legend).

Both are plain layouts of panels; :mod:`bankexplorer.export.render` paints them into a PNG or
an SVG with the same calls.
"""

from __future__ import annotations

from ..model.hardware import latency_cycles
from . import VIEWS
from .banks import BanksPanel
from .canvas import Canvas, wrap
from .legend import Legend
from .matrix import MatrixPanel
from .panel import (ACCESSED, BANKS, BROADCAST, CONFLICT, EXCESS, IDEAL, LOAD, PADDING, WAVES, Panel, fonts_for, lh,
                    pct, tw)
from .scene import ExportError, Scene
from .tile import TilePanel
from .timeline import TimelinePanel

PANELS: dict[str, type[Panel]] = {"tile": TilePanel, "banks": BanksPanel, "matrix": MatrixPanel,
                                  "timeline": TimelinePanel}


class Picture:
    """A laid-out picture: ``width`` x ``height`` logical pixels at 1x and where each panel sits."""

    width: float
    height: float
    placements: dict[str, tuple[Panel, float, float]]

    def __init__(self, scene: Scene):
        self.scene = scene
        self.st = scene.style
        self.f = fonts_for(scene)
        self.margin = round(self.st.font_px * 1.6)
        self.placements = {}

    def place(self, panel: Panel, x: float, y: float) -> None:
        self.placements[panel.name] = (panel, x, y)

    def draw(self, cv: Canvas) -> None:
        cv.fill(0, 0, self.width, self.height, self.st.background)
        self.draw_text(cv)
        for panel, x, y in self.placements.values():
            cv.save()
            cv.translate(x, y)
            panel.draw(cv)
            cv.restore()

    def draw_text(self, cv: Canvas) -> None:
        """Titles and anything else not in a panel."""


def subtitle(scene: Scene) -> str:
    p, hw = scene.pattern, scene.hw
    bx, by, bz = p.block
    return (f"{scene.heading()}  ·  {hw.name}  ·  block {bx}×{by}×{bz} "
            f"({p.warps} warp{'s' if p.warps != 1 else ''})")


class SingleView(Picture):
    """One panel under a title line, with the legend for what it draws."""

    def __init__(self, scene: Scene, view: str):
        super().__init__(scene)
        if view not in PANELS:
            raise ExportError(f"unknown view {view!r} (views: {', '.join(VIEWS)})")
        M, f = self.margin, self.f
        panel = PANELS[view](scene)
        self.title_h = lh(f.heading) + lh(f.small) + 8
        # the tile and banks panels draw the layout even when the instruction is invalid: say why
        # its accesses are missing (the matrix and timeline say it in place of their data)
        self.error_lines = wrap(scene.error, f.small, max(panel.width, 480)) if scene.error and view in (
            "tile", "banks") else []
        self.title_h += len(self.error_lines) * lh(f.small)
        self.place(panel, M, M + self.title_h)
        self.legend = Legend(scene, panel.legend_entries(), max(panel.width, 480))
        ly = M + self.title_h + panel.height + M * 0.75
        self.place(self.legend, M, ly)
        self.width = round(max(panel.width, self.legend.width, tw(scene.title, f.heading),
                               tw(subtitle(scene), f.small)) + 2 * M)
        self.height = round(ly + self.legend.height + M * 0.6)

    def draw_text(self, cv: Canvas) -> None:
        M, f, st = self.margin, self.f, self.st
        cv.text(M, M, self.scene.title, f.heading, st.ink)
        cv.text(M, M + lh(f.heading), subtitle(self.scene), f.small, st.colors.faint)
        cv.text_lines(M, M + lh(f.heading) + lh(f.small), self.error_lines, f.small, st.colors.conflict, 1.25)


class ComposedFigure(Picture):
    """Title, key numbers, the tile, the lane-to-bank matrix and the timeline, and the legend.

    The three panels are arranged in whichever of three layouts takes the least area (a square
    tile beside a column of matrix and timeline; a wide, flat tile above the timeline beside the
    matrix; or the tile above matrix and timeline side by side), so the figure stays compact."""

    def __init__(self, scene: Scene):
        super().__init__(scene)
        M, f = self.margin, self.f
        self.gap = gap = M
        self.title_h = lh(f.title, 1.15) + lh(f.body) + 6
        self.cards = self._cards()
        self.card_h = lh(f.small) + lh(f.heading) * 1.2 + 14
        tile = TilePanel(scene, max_w=700, max_h=700)
        matrix = MatrixPanel(scene, max_w=520)
        timeline = TimelinePanel(scene, max_w=520)
        top = M + self.title_h + self.card_h + gap * 0.8
        layouts = [[[tile], [matrix, timeline]], [[tile, timeline], [matrix]], [[tile], [matrix, timeline]]]
        best = None
        for k, cols in enumerate(layouts):
            places, w, h = self._arrange(cols, rows=k == 2)
            if best is None or w * h < best[1] * best[2] * 0.97:  # prefer the first on a near tie
                best = (places, w, h)
        places, inner_w, body_h = best
        for panel, x, y in places:
            self.place(panel, M + x, top + y)
        entries = [BANKS, ACCESSED, CONFLICT, BROADCAST] + ([PADDING] if PADDING in tile.legend_entries() else [])
        entries += [WAVES, LOAD, IDEAL, EXCESS]
        self.legend = Legend(scene, entries, max(inner_w, 640))
        ly = top + body_h + gap
        self.place(self.legend, M, ly)
        cards_w = sum(self._card_w(c) for c in self.cards) + 12 * (len(self.cards) - 1)
        self.width = round(max(inner_w, self.legend.width, cards_w, tw(scene.title, f.title),
                               tw(subtitle(scene), f.body)) + 2 * M)
        self.height = round(ly + self.legend.height + M * 0.6)

    def _arrange(self, groups, rows: bool = False):
        """Place groups of panels: as columns (each group stacked top to bottom), or with
        ``rows`` the first group on top and the second group's panels side by side below."""
        gap = self.gap
        places = []
        if rows:
            (tile,), rest = groups
            places.append((tile, 0.0, 0.0))
            x, y = 0.0, tile.height + gap
            for p in rest:
                places.append((p, x, y))
                x += p.width + gap * 1.5
            w = max(tile.width, x - gap * 1.5)
            h = y + max(p.height for p in rest)
            return places, w, h
        x, h = 0.0, 0.0
        for group in groups:
            y = 0.0
            for p in group:
                places.append((p, x, y))
                y += p.height + gap
            h = max(h, y - gap)
            x += max(p.width for p in group) + gap * 1.5
        return places, x - gap * 1.5, h

    def _cards(self) -> list[tuple[str, str, bool]]:
        """(label, value, bad) for the key numbers."""
        s, det = self.scene, self.scene.det
        t = s.an.totals()
        out = []
        if det is not None:
            eff = det.ideal / det.wavefronts if det.wavefronts else 1.0
            bad = det.wavefronts > det.ideal
            out += [("bank conflict", f"{det.degree}-way", det.degree > 1),
                    ("wavefronts", f"{det.wavefronts} vs ideal {det.ideal}", bad),
                    ("efficiency", pct(eff), bad),
                    ("latency", f"≈ {float(latency_cycles(det.wavefronts)):.0f} cycles", bad)]
        else:
            out.append(("selected instruction", "invalid" if s.error else "none", bool(s.error)))
        out.append(("whole pattern (one block pass)",
                    f"{t.wavefronts:,} vs {t.ideal:,} ({pct(t.efficiency)})", t.excess > 0))
        return out

    def _card_w(self, card) -> float:
        label, value, _ = card
        return max(tw(label, self.f.small), tw(value, self.f.heading)) + 24

    def draw_text(self, cv: Canvas) -> None:
        M, f, st = self.margin, self.f, self.st
        cv.text(M, M, self.scene.title, f.title, st.ink)
        sub = subtitle(self.scene)
        lines = wrap(sub, f.body, self.width - 2 * M)
        cv.text(M, M + lh(f.title, 1.15), lines[0], f.body, st.colors.faint)
        x, y = float(M), M + self.title_h
        for card in self.cards:
            label, value, bad = card
            w = self._card_w(card)
            cv.rounded(x, y, w, self.card_h, st.card, 6)
            cv.text(x + 12, y + 7, label, f.small, st.colors.faint)
            cv.text(x + 12, y + 7 + lh(f.small), value, f.heading, st.colors.conflict if bad else st.ink)
            x += w + 12
        if self.scene.error:
            cv.text(x + 6, y + self.card_h / 2, self.scene.error, f.small, st.colors.conflict, valign="center")


def picture(scene: Scene, view: str) -> Picture:
    """The picture of ``view`` (one of :data:`VIEWS`) for ``scene``."""
    if view == "figure":
        return ComposedFigure(scene)
    return SingleView(scene, view)
