"""Figures for slides: every view, or a composed figure, as PNG (1x..4x) or SVG, from one drawing
routine per view written against QPainter. Entry points: :func:`render.export` and the
``bankexplorer export`` command (:mod:`bankexplorer.commands.export`)."""

#: what can be drawn: each view, or "figure" (all of them composed)
VIEWS = ("tile", "banks", "matrix", "timeline", "figure")
