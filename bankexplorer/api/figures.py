"""``bx.figure``: the export's figures (composed or one view) of a pattern, a result or an access,
for notebooks and files. It takes what the other API modules make and checks its arguments; the
figure itself, drawn on demand, is :class:`.drawing.Figure`.
"""

from __future__ import annotations

from typing import Any

from ..export import VIEWS  # the package's __init__ alone: no Qt
from .drawing import FORMATS, STYLES, Figure, _scale, default_instruction
from .patterns import Result, analyze, as_pattern


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
            analysis = analyze(pattern).analysis  # the pattern checked, its problems named
        instruction, analysis = default_instruction(pattern, analysis)
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
