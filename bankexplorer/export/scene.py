"""What a figure shows: one analysed pattern, the warp instruction picked, the style and title.

Computed once and shared by every panel of a figure, so the tile, the matrix and the timeline of
one export always describe the same warp instruction. No Qt here: the panels draw it.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..model.analysis import Analysis, InstructionDetail, analyze, instruction_detail
from ..model.errors import BankExplorerError
from ..model.layout import SharedArray
from ..model.pattern import Instruction, Pattern
from .styles import STYLE_NAMES, FigureStyle, figure_style


class ExportError(BankExplorerError):
    """A request the exporter cannot honour (unknown view or style, instruction out of range...)."""


@dataclass
class Scene:
    an: Analysis
    style: FigureStyle
    title: str
    instruction: int  # pattern instruction (0-based)
    iteration: int
    warp: int
    row: int | None  # analysis row of (instruction, iteration, warp)
    det: InstructionDetail | None  # None: no instruction, or it is invalid

    @property
    def pattern(self) -> Pattern:
        return self.an.pattern

    @property
    def hw(self):
        return self.an.hardware

    @property
    def ins(self) -> Instruction | None:
        p = self.pattern
        return p.instructions[self.instruction] if p.instructions else None

    @property
    def error(self) -> str | None:
        return self.an.errors[self.row] if self.row is not None else None

    @property
    def array(self) -> SharedArray | None:
        """The array the instruction reads or writes (the first array otherwise)."""
        p = self.pattern
        ins = self.ins
        if ins is not None and ins.array in p.array_map():
            return p.array_map()[ins.array]
        return p.arrays[0] if p.arrays else None

    def heading(self) -> str:
        """``#0 load tile[ty][tx] (k=3), warp 1`` -- what the panels describe."""
        ins = self.ins
        if ins is None:
            return "no instruction"
        s = f"#{self.instruction} {ins.title()}"
        lv = self.an.loop_values[self.instruction]
        if lv:
            s += " (" + ", ".join(f"{a}={b}" for a, b in lv[self.iteration].items()) + ")"
        if self.pattern.warps > 1:
            s += f", warp {self.warp}"
        return s


def make_scene(pattern: Pattern, style: str | None = None, instruction: int | None = None, warp: int = 0,
               iteration: int = 0, title: str | None = None, an: Analysis | None = None) -> Scene:
    """Analyse ``pattern`` (unless ``an`` is given) and pick the warp instruction to draw.

    ``instruction`` None means the most expensive one (:meth:`Analysis.most_expensive`, what the
    window selects on open); ``style`` None the pattern's own ``figure.style``; ``title`` None its
    ``figure.title``, and an empty title the pattern's name. Out-of-range choices raise
    :class:`ExportError`."""
    if instruction is None:
        if an is None:
            an = analyze(pattern)
        instruction = an.most_expensive()
    name = style if style is not None else pattern.figure.style
    if name not in STYLE_NAMES:
        raise ExportError(f"unknown style {name!r} (styles: {', '.join(STYLE_NAMES)})")
    n = len(pattern.instructions)
    if n and not 0 <= instruction < n:
        raise ExportError(f"--instruction {instruction} is out of range: the pattern has {n} instruction"
                          f"{'s' if n != 1 else ''} (0 to {n - 1})")
    if not n and instruction:
        raise ExportError("--instruction: the pattern has no instructions")
    if not 0 <= warp < pattern.warps:
        raise ExportError(f"--warp {warp} is out of range: the block has {pattern.warps} warp"
                          f"{'s' if pattern.warps != 1 else ''} (0 to {pattern.warps - 1})")
    if n:
        its = max(pattern.instructions[instruction].iterations(), 1)
        if not 0 <= iteration < its:
            raise ExportError(f"iteration {iteration} is out of range: instruction {instruction} has {its} "
                              f"loop iteration{'s' if its != 1 else ''}")
    if an is None:
        an = analyze(pattern)
    row = an.row_of(instruction, iteration, warp) if n else None
    det = instruction_detail(an, row) if row is not None and not an.errors[row] else None
    if title is None:
        title = pattern.figure.title
    return Scene(an, figure_style(name), title or pattern.name, instruction, iteration, warp, row, det)
