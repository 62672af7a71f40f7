"""How exported figures look: colours (from the shared palette, bankexplorer.palette), font sizes and line widths.

Three styles, picked by name (``--style``, or the pattern file's ``figure.style``):

* ``slide``: white background, large type, thick outlines and the colour-blind-safe bank palette
  below: what goes on a projector.
* ``dark``: the same sizes and palette on a dark background.
* ``default``: the window's own colours (the 32-hue rainbow palette) at figure sizes.

The colour-blind-safe bank palette uses the eight Okabe–Ito hues (designed to stay apart under
the common forms of colour blindness) at four tints: bank ``b`` gets hue ``b % 8`` and tint
``b // 8``. Neighbouring banks therefore always differ in hue, banks 8 apart differ in
lightness, and two cells of the same bank are always exactly the same colour, which is what a
reader has to see to spot a conflict. No 32-colour palette can be told apart colour by colour
by everyone, so the figures also say it in words: the bank legend is numbered, accessed cells
carry their lane number, and conflicts are marked by shape (a triangle) as well as colour.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..palette import BANK_COLORS, DARK, SCREEN, SLIDE, WAVE_COLORS, Style

RGB = tuple[int, int, int]

# Okabe & Ito (2008), "Color Universal Design": the eight hues, black replaced by a neutral
# blue-grey so that no bank is drawn in the ink colour.
OKABE_ITO: tuple[RGB, ...] = (
    (230, 159, 0),  # orange
    (86, 180, 233),  # sky blue
    (0, 158, 115),  # bluish green
    (240, 228, 66),  # yellow
    (0, 114, 178),  # blue
    (213, 94, 0),  # vermillion
    (204, 121, 167),  # reddish purple
    (120, 132, 150),  # blue-grey (instead of black)
)


def _tint(c: RGB, t: float) -> RGB:
    """Mix ``c`` with white (t > 0) or black (t < 0)."""
    if t >= 0:
        return tuple(round(x + (255 - x) * t) for x in c)  # type: ignore[return-value]
    return tuple(round(x * (1 + t)) for x in c)  # type: ignore[return-value]


def colorblind_bank_palette(n: int = 32) -> np.ndarray:
    """(n, 3) uint8: Okabe–Ito hue ``b % 8`` at tint ``b // 8`` (full, darker, lighter, lightest)."""
    tints = (0.0, -0.30, 0.35, 0.55)
    out = np.zeros((n, 3), np.uint8)
    for b in range(n):
        out[b] = _tint(OKABE_ITO[b % 8], tints[(b // 8) % 4])
    return out


CB_BANK_COLORS = colorblind_bank_palette(32)

# wavefronts: Okabe–Ito order without vermillion (too close to the conflict red), then darker
CB_WAVE_COLORS = np.array(
    [(0, 114, 178), (230, 159, 0), (0, 158, 115), (204, 121, 167), (86, 180, 233), (160, 140, 20),
     (0, 70, 120), (150, 100, 0), (0, 100, 70), (140, 70, 110), (40, 120, 160), (110, 110, 110)],
    np.uint8,
)


@dataclass(frozen=True)
class FigureStyle:
    """A :class:`~bankexplorer.palette.Style` (colours) plus what a figure needs on top."""

    name: str
    colors: Style
    banks: np.ndarray  # (n, 3) uint8 bank palette
    waves: np.ndarray  # (m, 3) uint8 wavefront palette
    font_px: float  # body text at 1x
    title_px: float
    outline: float  # accessed-cell outline width at 1x
    family: str = "DejaVu Sans"
    bar: RGB = (90, 90, 96)  # per-bank load bars that are not the worst
    ok: RGB = (0, 114, 178)  # timeline: wavefronts that are needed
    card: RGB = (244, 245, 247)  # background of the key-number cards

    def bank_rgb(self, bank: int) -> RGB:
        c = self.banks[int(bank) % len(self.banks)]
        return int(c[0]), int(c[1]), int(c[2])

    def wave_rgb(self, wave: int) -> RGB:
        c = self.waves[int(wave) % len(self.waves)]
        return int(c[0]), int(c[1]), int(c[2])

    def pastel_rgb(self, k: int) -> RGB:
        """Lighter bank colour (the banks view's tint), so outlines stay visible on it."""
        return _tint(self.bank_rgb(k), 0.55 if self.name != "dark" else -0.35)

    @property
    def background(self) -> RGB:
        return self.colors.background

    @property
    def ink(self) -> RGB:
        return self.colors.ink


_SLIDE_COLORS = Style("slide", background=SLIDE.background, ink=SLIDE.ink, faint=(120, 120, 120),
                      empty=SLIDE.empty, padding=SLIDE.padding, conflict=(215, 25, 28), broadcast=(0, 90, 200),
                      font_pt=SLIDE.font_pt)
_DARK_COLORS = Style("dark", background=DARK.background, ink=DARK.ink, faint=(150, 150, 155), empty=DARK.empty,
                     padding=DARK.padding, conflict=(255, 70, 70), broadcast=(90, 170, 255),
                     selection=DARK.selection, highlight=DARK.highlight, font_pt=DARK.font_pt)

STYLES: dict[str, FigureStyle] = {
    "default": FigureStyle("default", SCREEN, BANK_COLORS, WAVE_COLORS, font_px=12, title_px=22, outline=2.0,
                           bar=(120, 120, 125), ok=(20, 90, 200), card=(240, 240, 240)),
    "slide": FigureStyle("slide", _SLIDE_COLORS, CB_BANK_COLORS, CB_WAVE_COLORS, font_px=15, title_px=28, outline=3.0),
    "dark": FigureStyle("dark", _DARK_COLORS, CB_BANK_COLORS, CB_WAVE_COLORS, font_px=15, title_px=28, outline=3.0,
                        bar=(170, 170, 176), ok=(86, 180, 233), card=(44, 46, 52)),
}
STYLE_NAMES = tuple(STYLES)


def figure_style(name: str | None) -> FigureStyle:
    """The style called ``name`` (``None``: default). Unknown names raise KeyError."""
    return STYLES[name or "default"]
