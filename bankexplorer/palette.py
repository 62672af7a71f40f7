"""Colours every view and every exported figure share, so a bank or a wavefront has one colour.

* Banks: 32 hues around the colour wheel in bank order, so 32 consecutive banks read as a
  rainbow and a column of one colour is a bank conflict; neighbouring banks alternate light and
  dark so they stay distinguishable side by side. More than 32 banks repeat the wheel.
* Wavefronts: a short categorical palette (1st, 2nd, ... wavefront serving a lane).
* Conflict (red) and broadcast (blue) marks, padding grey, and the hover highlight.

No Qt import here: colours are RGB tuples, so the window (``gui``) and the headless figure code
(``export``) both use this module, which sits below both of them; ``gui.palette`` re-exports it.
"""

from __future__ import annotations

import colorsys
from dataclasses import dataclass

import numpy as np

RGB = tuple[int, int, int]


def _bank_palette(n: int = 32) -> np.ndarray:
    out = np.zeros((n, 3), np.uint8)
    for b in range(n):
        h = (b / n + 0.02) % 1.0
        light = b % 2 == 0
        s, v = (0.45, 0.98) if light else (0.65, 0.80)
        r, g, bl = colorsys.hsv_to_rgb(h, s, v)
        out[b] = (round(r * 255), round(g * 255), round(bl * 255))
    return out


BANK_COLORS: np.ndarray = _bank_palette(32)  # (32, 3) uint8

# tab10 without red (conflicts) and grey (padding), then darker variants
WAVE_COLORS: np.ndarray = np.array(
    [
        (31, 119, 180), (255, 127, 14), (44, 160, 44), (148, 103, 189), (140, 86, 75),
        (227, 119, 194), (188, 189, 34), (23, 190, 207), (57, 59, 121), (214, 97, 107),
        (99, 121, 57), (140, 109, 49),
    ],
    np.uint8,
)


def bank_color(bank: int) -> RGB:
    c = BANK_COLORS[int(bank) % len(BANK_COLORS)]
    return int(c[0]), int(c[1]), int(c[2])


def wave_color(wave: int) -> RGB:
    c = WAVE_COLORS[int(wave) % len(WAVE_COLORS)]
    return int(c[0]), int(c[1]), int(c[2])


def ink_on(rgb) -> RGB:
    """Black or white text, whichever reads better on a cell of colour ``rgb`` (the window's
    labels and the exported figures' use the same rule, so a cell reads the same in both)."""
    r, g, b = (int(x) / 255 for x in rgb[:3])
    return (15, 15, 15) if 0.2126 * r + 0.7152 * g + 0.0722 * b > 0.5 else (255, 255, 255)


def bank_rgba(banks: np.ndarray, alpha: int = 255) -> np.ndarray:
    """(..., 4) uint8 image of bank colours; negative banks become transparent."""
    b = np.asarray(banks)
    out = np.zeros(b.shape + (4,), np.uint8)
    ok = b >= 0
    out[ok, :3] = BANK_COLORS[b[ok] % len(BANK_COLORS)]
    out[ok, 3] = alpha
    return out


def wave_rgba(waves: np.ndarray) -> np.ndarray:
    w = np.asarray(waves)
    out = np.zeros(w.shape + (4,), np.uint8)
    ok = w >= 0
    out[ok, :3] = WAVE_COLORS[w[ok] % len(WAVE_COLORS)]
    out[ok, 3] = 255
    return out


@dataclass(frozen=True)
class Style:
    """A look: the window uses ``screen``; figures use ``slide`` (light) or ``dark``."""

    name: str
    background: RGB
    ink: RGB  # text, axes, outlines of accessed cells
    faint: RGB  # grid lines, secondary text
    empty: RGB  # cells/words with nothing in them
    padding: RGB  # padding columns of an array
    conflict: RGB = (220, 30, 30)
    broadcast: RGB = (20, 90, 200)
    highlight: RGB = (255, 170, 0)  # hover, linked across views
    selection: RGB = (0, 0, 0)
    font_pt: int = 9

    def hex(self, rgb: RGB) -> str:
        return "#%02x%02x%02x" % rgb


SCREEN = Style("screen", background=(252, 252, 250), ink=(30, 30, 35), faint=(150, 150, 155),
               empty=(236, 236, 236), padding=(200, 200, 200))
SLIDE = Style("slide", background=(255, 255, 255), ink=(20, 20, 20), faint=(140, 140, 140),
              empty=(240, 240, 240), padding=(205, 205, 205), font_pt=11)
DARK = Style("dark", background=(30, 31, 34), ink=(230, 230, 230), faint=(120, 120, 125),
             empty=(52, 53, 58), padding=(80, 80, 84), selection=(255, 255, 255), highlight=(255, 200, 0))

STYLES: dict[str, Style] = {s.name: s for s in (SCREEN, SLIDE, DARK)}


def style(name: str | None) -> Style:
    return STYLES.get(name or "screen", SCREEN)
