"""Before vs after: two patterns' layouts side by side in one figure, with what changed.

Both sides show the same pattern instruction (or the pair the caller names) and warp, drawn at
the same cell sizes in the same style, so a padded or swizzled tile reads directly against the
naive one. Above them, the key numbers of each and the change: ``32 → 1 wavefronts``,
``1,056 → 64 per block``, ``+128 B shared memory``. No Qt here beyond the panels' drawing.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from ..model.analysis import analyze
from ..model.pattern import Pattern
from .banks import BanksPanel
from .canvas import Canvas
from .figure import Picture
from .legend import Legend
from .panel import ACCESSED, BANKS, BROADCAST, CONFLICT, PADDING, WAVES, lh, pct, tw
from .scene import ExportError, Scene, make_scene
from .tile import TilePanel


@dataclass(frozen=True)
class Change:
    """One key number before and after: ``label``, the two values as text, the change as text,
    and whether the after is better (True), worse (False) or the same (None)."""

    label: str
    before: str
    after: str
    delta: str
    better: bool | None

    @property
    def text(self) -> str:
        """``32 -> 1 wavefronts`` (plain ASCII, for the command line)."""
        return f"{self.label}: {self.before} -> {self.after}" + (f" ({self.delta})" if self.delta else "")


def _cmp(b: float, a: float, lower_is_better: bool = True) -> bool | None:
    if a == b:
        return None
    return (a < b) == lower_is_better


def changes(sb: Scene, sa: Scene) -> list[Change]:
    """The key numbers of ``sb`` (before) and ``sa`` (after) and how they changed."""
    out = []
    db, da = sb.det, sa.det
    if db is not None and da is not None:
        out.append(Change(f"wavefronts, #{sb.instruction}" + (f" vs #{sa.instruction}" if sa.instruction != sb.instruction
                                                              else ""),
                          f"{db.wavefronts}", f"{da.wavefronts}",
                          f"ideal {da.ideal}" if da.ideal == db.ideal else f"ideal {db.ideal} → {da.ideal}",
                          _cmp(db.wavefronts, da.wavefronts)))
        out.append(Change("bank conflict", f"{db.degree}-way", f"{da.degree}-way", "", _cmp(db.degree, da.degree)))
    tb, ta = sb.an.totals(), sa.an.totals()
    out.append(Change("wavefronts per block", f"{tb.wavefronts:,}", f"{ta.wavefronts:,}",
                      pct(ta.efficiency) + " efficient", _cmp(tb.wavefronts, ta.wavefronts)))
    d = ta.shared_bytes - tb.shared_bytes
    out.append(Change("shared memory", f"{tb.shared_bytes:,} B", f"{ta.shared_bytes:,} B",
                      f"{d:+,} B" if d else "same", _cmp(tb.shared_bytes, ta.shared_bytes)))
    return out


def compare_scenes(before: Pattern, after: Pattern, style: str | None = None, instruction: int | None = None,
                   instruction_after: int | None = None, warp: int = 0, iteration: int = 0) -> tuple[Scene, Scene]:
    """The two scenes of a comparison. Without ``instruction`` the before's most expensive one is
    shown on both sides; patterns with different instruction counts need both ``instruction`` and
    ``instruction_after`` (which instruction of the after pattern pairs with it)."""
    nb, na = len(before.instructions), len(after.instructions)
    if nb != na and (instruction is None or instruction_after is None):
        raise ExportError(f"the patterns have different instruction lists (before: {nb}, after: {na} instructions); "
                          f"say which to pair with --instruction K --instruction-after K2")
    for name, p in (("before", before), ("after", after)):
        if not 0 <= warp < p.warps:
            raise ExportError(f"--warp {warp} is out of range for the {name} pattern: its block has {p.warps} warp"
                              f"{'s' if p.warps != 1 else ''}")
    name = style if style is not None else before.figure.style
    an_b = analyze(before)
    k = an_b.most_expensive() if instruction is None else instruction
    k2 = k if instruction_after is None else instruction_after
    if nb and not 0 <= k < nb:
        raise ExportError(f"--instruction {k} is out of range: the before pattern has {nb} instructions (0 to {nb - 1})")
    if na and not 0 <= k2 < na:
        raise ExportError(f"--instruction-after {k2} is out of range: the after pattern has {na} instructions "
                          f"(0 to {na - 1})")
    sb = make_scene(before, name, k, warp, iteration, title=before.name, an=an_b)
    sa = make_scene(after, name, k2, warp, iteration, title=after.name)
    return sb, sa


class CompareFigure(Picture):
    """Title, the change cards, and two columns (before | after) of tile over physical banks,
    both at the same cell sizes, then one legend."""

    def __init__(self, before: Scene, after: Scene, title: str | None = None):
        super().__init__(before)
        self.before, self.after = before, after
        self.title = title or f"{before.title}  →  {after.title}"
        self.scene = before
        M, f = self.margin, self.f
        self.changes = changes(before, after)
        tiles = self._same_scale(lambda s, w, h: TilePanel(s, max_w=w, max_h=h), 900, 560, "cell",
                                 lambda p: (p.c1 - p.c0, p.r1 - p.r0))
        banks = self._same_scale(lambda s, w, h: BanksPanel(s, max_w=w), 900, 0, "cw",
                                 lambda p: (p.map.banks, 1))
        self.title_h = lh(f.title, 1.15) + lh(f.body) + 6
        self.card_h = lh(f.small) + lh(f.heading) * 1.2 + 14
        self.side_h = lh(f.heading, 1.2) + lh(f.small) + 6
        top = M + self.title_h + self.card_h + M * 0.8
        col_w = max(max(t.width, b.width, tw(s.title, f.heading), tw(s.heading(), f.small))
                    for t, b, s in zip(tiles, banks, (before, after)))
        self.col_w, self.top = col_w, top
        self.gap = M * 2
        body_h = 0.0
        for i, (t, b) in enumerate(zip(tiles, banks)):
            x = M + i * (col_w + self.gap)
            y = top + self.side_h
            self.place_as(f"{('before', 'after')[i]}.tile", t, x, y)
            self.place_as(f"{('before', 'after')[i]}.banks", b, x, y + t.height + M)
            body_h = max(body_h, self.side_h + t.height + M + b.height)
        inner_w = 2 * col_w + self.gap
        entries = [BANKS, ACCESSED, CONFLICT, BROADCAST, WAVES]
        if any(PADDING in p.legend_entries() for p in (*tiles, *banks)):
            entries.insert(4, PADDING)
        worst = before if (before.det and after.det and before.det.wavefronts >= after.det.wavefronts) else after
        self.legend = Legend(worst, entries, inner_w)
        ly = top + body_h + M
        self.place_as("legend", self.legend, M, ly)
        cards_w = sum(self._card_w(c) for c in self.changes) + 12 * (len(self.changes) - 1)
        self.width = round(max(inner_w, cards_w, tw(self.title, f.title)) + 2 * M)
        self.height = round(ly + self.legend.height + M * 0.6)

    def place_as(self, key: str, panel, x: float, y: float) -> None:
        self.placements[key] = (panel, x, y)

    def _same_scale(self, make, max_w, max_h, attr, counts):
        """Build both sides' panels, then again at the smaller of their two cell sizes."""
        panels = [make(s, max_w, max_h or max_w) for s in (self.before, self.after)]
        size = min(getattr(p, attr) for p in panels)
        if all(getattr(p, attr) == size for p in panels):
            return panels
        out = []
        for s, p in zip((self.before, self.after), panels):
            nx, ny = counts(p)
            out.append(make(s, size * nx + 0.01, size * ny + 0.01) if max_h else make(s, size * nx + 0.01, 0))
        return out

    def _card_w(self, c: Change) -> float:
        return max(tw(c.label, self.f.small), tw(self._card_value(c), self.f.heading),
                   tw(c.delta, self.f.small)) + 24

    @staticmethod
    def _card_value(c: Change) -> str:
        return f"{c.before} → {c.after}"

    def draw_text(self, cv: Canvas) -> None:
        M, f, st = self.margin, self.f, self.st
        cv.text(M, M, self.title, f.title, st.ink)
        b, a = self.before, self.after
        sub = f"before vs after  ·  {b.hw.name}  ·  same instruction and warp, same scale and colours"
        cv.text(M, M + lh(f.title, 1.15), sub, f.body, st.colors.faint)
        x, y = float(M), M + self.title_h
        ok = st.ok
        for c in self.changes:
            w = self._card_w(c)
            h = self.card_h + lh(f.small)
            cv.rounded(x, y, w, h, st.card, 6)
            cv.text(x + 12, y + 7, c.label, f.small, st.colors.faint)
            color = st.ink if c.better is None else (ok if c.better else st.colors.conflict)
            cv.text(x + 12, y + 7 + lh(f.small), self._card_value(c), f.heading, color)
            if c.delta:
                cv.text(x + 12, y + 7 + lh(f.small) + lh(f.heading, 1.2), c.delta, f.small, st.colors.faint)
            x += w + 12
        for i, s in enumerate((b, a)):
            cx = M + i * (self.col_w + self.gap)
            tag = ("BEFORE: ", "AFTER: ")[i]
            cv.text(cx, self.top, tag + s.title, f.heading, st.ink)
            cv.text(cx, self.top + lh(f.heading, 1.2), s.heading(), f.small, st.colors.faint)
        xd = M + self.col_w + self.gap / 2
        cv.line(xd, self.top, xd, self.placements["legend"][2] - M / 2, st.colors.faint, 1.0)


def compare_picture(before: Pattern, after: Pattern, style: str | None = None, instruction: int | None = None,
                    instruction_after: int | None = None, warp: int = 0, title: str | None = None) -> CompareFigure:
    from .render import ensure_gui_app

    ensure_gui_app()  # fonts are measured while laying out
    sb, sa = compare_scenes(before, after, style, instruction, instruction_after, warp)
    return CompareFigure(sb, sa, title)


def export_compare(before: Pattern, after: Pattern, out: str | os.PathLike, scale: int = 1,
                   style: str | None = None, instruction: int | None = None, instruction_after: int | None = None,
                   warp: int = 0, title: str | None = None) -> tuple[int, CompareFigure]:
    """Write the comparison to ``out`` (.png or .svg) all at once; returns (bytes, the figure)."""
    from ..io.atomic import atomic_write
    from .render import check_scale, check_writable, format_of, to_png, to_svg

    fmt = format_of(out)
    check_scale(scale)
    check_writable(out)
    pic = compare_picture(before, after, style, instruction, instruction_after, warp, title)
    data = to_png(pic, scale) if fmt == "png" else to_svg(pic)
    try:
        atomic_write(out, data)
    except OSError as e:
        raise ExportError(f"{out}: could not write ({e.strerror or e})")
    return len(data), pic
