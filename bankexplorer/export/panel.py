"""What every figure panel shares: a size, a draw method, fonts of the style, axis ticks and the
legend entries that explain it.

A panel is laid out when it is made (its ``width``/``height`` are known before anything is
drawn) and draws itself at the origin of the canvas; a figure translates the canvas to place it.
"""

from __future__ import annotations

from dataclasses import dataclass

from .canvas import Canvas, font, line_height, metrics, text_width
from .scene import Scene

#: legend entry kinds, drawn by :mod:`bankexplorer.export.legend`
BANKS, ACCESSED, CONFLICT, BROADCAST, PADDING, WAVES, IDEAL, NEEDED, EXCESS, LOAD = (
    "banks", "accessed", "conflict", "broadcast", "padding", "waves", "ideal", "needed", "excess", "load")


@dataclass
class Fonts:
    body: object
    bold: object
    small: object
    axis: object
    title: object
    heading: object


def fonts_for(scene: Scene) -> Fonts:
    st = scene.style
    px = st.font_px
    return Fonts(body=font(px), bold=font(px, bold=True), small=font(px * 0.85), axis=font(px * 0.8),
                 title=font(st.title_px, bold=True), heading=font(px * 1.1, bold=True))


def tick_step(n: int, cell: float, label_w: float, steps=(1, 2, 4, 8, 16, 32, 64, 128, 256, 512)) -> int:
    """The smallest step at which labels ``label_w`` wide fit side by side over cells ``cell`` wide."""
    for s in steps:
        if s * cell >= label_w + 4 or s >= n:
            return s
    return steps[-1]


class Panel:
    """Base class: subclasses set ``width``/``height`` in ``__init__`` and implement ``draw``."""

    name = "panel"
    width: float = 0.0
    height: float = 0.0

    def __init__(self, scene: Scene):
        self.scene = scene
        self.st = scene.style
        self.f = fonts_for(scene)

    def draw(self, cv: Canvas) -> None:
        raise NotImplementedError

    def legend_entries(self) -> list[str]:
        """Which legend entries a standalone export of this panel needs."""
        return []

    # helpers ----------------------------------------------------------------------------------
    def message(self, cv: Canvas, text: str, x: float, y: float, w: float) -> float:
        """A wrapped note (an invalid instruction, nothing to show); returns its height."""
        from .canvas import wrap

        lines = wrap(text, self.f.body, w)
        return cv.text_lines(x, y, lines, self.f.body, self.st.colors.conflict)


def pct(x: float) -> str:
    """An efficiency as a percentage that never reads 100% while there is excess (99.7%, not 100%)."""
    return f"{x:.1%}" if 0.995 <= x < 1 else f"{x:.0%}"


def lh(f, spacing: float = 1.25) -> float:
    return line_height(f, spacing)


def tw(s: str, f) -> float:
    return text_width(s, f)


def ascent(f) -> float:
    return metrics(f).ascent()
