"""A figure drawn on demand: the export's composed figure or one view, as a notebook shows it
inline and as ``bx.figure(...).save`` writes it.

The lowest of the API's modules that draw: patterns, results and accesses show themselves through
:func:`default_figure` (their ``_repr_png_``) without importing :mod:`.figures`, whose ``bx.figure``
takes all of them and checks its arguments. Rendering is :mod:`bankexplorer.export` (QPainter on
an offscreen ``QGuiApplication``, no display needed); it is imported only when a figure is drawn,
so ``import bankexplorer`` loads no Qt.
"""

from __future__ import annotations

import os
from typing import Any

#: what ``style`` accepts (None: the pattern's own ``figure.style``)
STYLES = ("default", "slide", "dark")
#: what ``format`` accepts: how the figure shows inline in a notebook
FORMATS = ("png", "svg")


class Figure:
    """A figure of one warp instruction of a pattern, drawn on demand.

    In a notebook it shows inline (as PNG, or SVG with ``format="svg"``); :meth:`png` and
    :meth:`svg` give the bytes and :meth:`save` writes a ``.png`` or ``.svg`` file atomically.
    """

    def __init__(self, pattern: Any, *, instruction: int, view: str, style: str | None, warp: int, iteration: int,
                 title: str | None, format: str, scale: int, analysis: Any = None) -> None:
        self.pattern = pattern  #: the pattern drawn
        self.instruction = instruction  #: the pattern instruction shown (0-based)
        self.view = view  #: one of :data:`VIEWS`
        self.style = style  #: one of :data:`STYLES`, or None for the pattern's own
        self.warp = warp  #: the warp shown
        self.iteration = iteration  #: the loop iteration shown
        self.title = title  #: the title (None: the pattern's figure title or name)
        self.format = format  #: ``png`` or ``svg``: what a notebook shows
        self.scale = scale  #: pixels per figure pixel of the inline PNG
        self._analysis = analysis
        self._cache: dict[tuple[str, int, int], bytes] = {}

    def _render(self, fmt: str, scale: int, quality: int = 80) -> bytes:
        from ..export import render as R
        from ..export.figure import picture
        from ..export.scene import ExportError, make_scene

        key = (fmt, scale, quality)
        if key not in self._cache:
            try:
                R.ensure_gui_app()  # fonts are measured while laying out; offscreen when there is no app
                scene = make_scene(self.pattern, self.style, self.instruction, self.warp, self.iteration, self.title,
                                   an=self._analysis)
                pic = picture(scene, self.view)
                self._cache[key] = R.to_png(pic, scale, quality) if fmt == "png" else R.to_svg(pic)
            except ExportError as e:
                raise ValueError(str(e).replace("--", "")) from None
        return self._cache[key]

    def png(self, scale: int | None = None) -> bytes:
        """The figure as PNG bytes, at ``scale`` (1 to 4; default this figure's ``scale``)."""
        s = self.scale if scale is None else _scale(scale)
        return self._render("png", s)

    def svg(self) -> bytes:
        """The figure as SVG bytes (real vector shapes and text)."""
        return self._render("svg", 1)

    def save(self, path: str | os.PathLike, scale: int | None = None) -> int:
        """Write ``path`` (``.png`` or ``.svg``, from its extension), complete or not at all;
        ``scale`` (1 to 4) for a PNG. Returns the bytes written."""
        from ..export.render import check_writable, format_of
        from ..io.atomic import atomic_write
        from ..export.scene import ExportError

        if not isinstance(path, (str, os.PathLike)):
            raise ValueError(f"path: expected a file name, got {type(path).__name__}")
        try:
            fmt = format_of(path)
            check_writable(path)
        except ExportError as e:
            raise ValueError(f"path: {e}") from None
        data = self.png(scale) if fmt == "png" else self.svg()
        try:
            atomic_write(path, data)
        except OSError as e:
            raise ValueError(f"path: could not write {str(path)!r} ({e.strerror or e})") from e
        return len(data)

    def _repr_png_(self) -> bytes | None:
        # zlib's best compression: slower to write, but a notebook keeps every image it shows
        return self._render("png", self.scale, 0) if self.format == "png" else None

    def _repr_svg_(self) -> str | None:
        return self.svg().decode("utf-8") if self.format == "svg" else None

    def __repr__(self) -> str:
        return (f"<bx.Figure {self.view} of instruction {self.instruction} of {self.pattern.name!r} "
                f"(style {self.style or self.pattern.figure.style})>")


def _scale(scale: Any) -> int:
    if not isinstance(scale, int) or isinstance(scale, bool) or not 1 <= scale <= 4:
        raise ValueError(f"scale: must be an integer from 1 to 4, got {scale!r}")
    return scale


def default_instruction(pattern: Any, analysis: Any = None) -> tuple[int, Any]:
    """The instruction a figure shows when none is asked for, as the window opens on and
    ``bankexplorer export`` draws: the costliest (most wavefronts above the ideal) of a pattern of
    several, else the first; and the analysis it was picked from (``analysis`` when given, made
    here when it is needed). ``pattern``: a model pattern that has been validated."""
    if len(pattern.instructions) <= 1:
        return 0, analysis
    if analysis is None:
        from ..model.analysis import analyze

        analysis = analyze(pattern)
    return analysis.most_expensive(), analysis


def default_figure(pattern: Any, analysis: Any = None) -> Figure:
    """The figure a notebook shows for a pattern, a result or an access (their ``_repr_png_``):
    the composed figure of :func:`default_instruction`, in the pattern's own style."""
    instruction, analysis = default_instruction(pattern, analysis)
    return Figure(pattern, instruction=instruction, view="figure", style=None, warp=0, iteration=0, title=None,
                  format="png", scale=1, analysis=analysis)
