"""The window's colours: re-exported from :mod:`bankexplorer.palette`, which the headless export
code shares (it lives below both ``gui`` and ``export`` so that export never imports the GUI)."""

from ..palette import (BANK_COLORS, DARK, RGB, SCREEN, SLIDE, STYLES, WAVE_COLORS, Style, bank_color,  # noqa: F401
                       bank_rgba, ink_on, style, wave_color, wave_rgba)
