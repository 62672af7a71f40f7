"""``bx.figure``: the export's figures (composed or one view) for notebooks and files.

Rendering is :mod:`bankexplorer.export` (QPainter on an offscreen ``QGuiApplication``, no display
needed); it is imported only when a figure is drawn, so ``import bankexplorer`` loads no Qt.
"""

from __future__ import annotations

import os
from typing import Any

from ..export import VIEWS  # the package's __init__ alone: no Qt

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


def _index(v: Any, name: str) -> int:
    if not isinstance(v, int) or isinstance(v, bool) or v < 0:
        raise ValueError(f"{name}: expected a non-negative integer, got {v!r}")
    return v


def figure(obj: Any, instruction: int | None = None, *, view: str = "figure", style: str | None = None,
           warp: int = 0, iteration: int = 0, title: str | None = None, format: str = "png",
           scale: int = 1) -> Figure:
    """The figure of one warp instruction of a pattern, a result (``bx.analyze``) or an access
    (``bx.layout(...).ldmatrix()``), as ``bankexplorer export`` draws it.

    Args:
        instruction: the pattern instruction (0-based); default: the most expensive one (its
            costliest warp instruction takes the most wavefronts), as the window opens on.
        view: ``"figure"`` (title, key numbers, tile, thread-to-bank matrix, timeline, legend)
            or one view: ``"tile"``, ``"banks"``, ``"matrix"``, ``"timeline"``.
        style: ``"default"``, ``"slide"`` or ``"dark"``; None: the pattern's own.
        warp, iteration: which warp and loop iteration of the instruction.
        title: the title (None: the pattern's figure title or name).
        format: how it shows in a notebook, ``"png"`` or ``"svg"``.
        scale: pixels per figure pixel of the inline PNG, 1 to 4.

    Raises ``ValueError`` naming the argument (unknown view or style, an instruction, warp or
    iteration out of range). Nothing is drawn until the figure is shown or saved.
    """
    from .patterns import Result, as_pattern

    analysis = obj.analysis if isinstance(obj, Result) else None
    pattern = as_pattern(obj, "obj")
    if view not in VIEWS:
        raise ValueError(f"view: unknown view {view!r} (views: {', '.join(VIEWS)})")
    if style is not None and style not in STYLES:
        raise ValueError(f"style: unknown style {style!r} (styles: {', '.join(STYLES)})")
    if format not in FORMATS:
        raise ValueError(f"format: must be 'png' or 'svg', got {format!r}")
    _scale(scale)
    n = len(pattern.instructions)
    if instruction is None:  # what the window and `bankexplorer export` show first
        if analysis is None and n > 1:
            from .patterns import analyze

            analysis = analyze(pattern).analysis
        instruction = analysis.most_expensive() if analysis is not None and n > 1 else 0
    _index(instruction, "instruction")
    if n and instruction >= n:
        raise ValueError(f"instruction: {instruction} is out of range: the pattern has {n} instruction"
                         f"{'s' if n != 1 else ''} (0 to {n - 1})")
    _index(warp, "warp")
    if warp >= pattern.warps:
        raise ValueError(f"warp: {warp} is out of range: the block has {pattern.warps} warp(s)")
    _index(iteration, "iteration")
    if n:
        its = max(pattern.instructions[instruction].iterations(), 1)
        if iteration >= its:
            raise ValueError(f"iteration: {iteration} is out of range: instruction {instruction} has {its} "
                             f"loop iteration(s)")
    if title is not None and not isinstance(title, str):
        raise ValueError(f"title: expected a string, got {type(title).__name__}")
    return Figure(pattern, instruction=instruction, view=view, style=style, warp=warp, iteration=iteration,
                  title=title, format=format, scale=scale, analysis=analysis)


__all__ = ["Figure", "figure", "VIEWS", "STYLES"]
