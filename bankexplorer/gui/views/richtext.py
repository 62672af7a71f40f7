"""Captions and summary text painted straight from a small markup, without a QTextDocument.

The views' captions and the Summary change with almost every edit (the padding, the wavefront
count), and ``setHtml`` parses and lays out a whole text document each time: about 0.5 ms per
caption and over 1 ms for the summary table, a good share of an edit's redraw. The markup the
views write is tiny, so it is parsed here once per distinct string into runs (text, bold, colour,
monospace) and painted with a few ``drawText`` calls.

Markup: ``<b>``, ``<code>``, ``<span style='color:#rrggbb'>`` (also on ``<b>``), ``<br>``, and
HTML entities (``&nbsp;``, ``&amp;``, ``&lt;`` ...). Any other tag is ignored; user text must be
escaped (``html.escape``) as for Qt's rich text.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from functools import lru_cache

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QStaticText, QTransform

_TAG = re.compile(r"<(/?)([a-zA-Z]+)([^>]*)>")
_COLOR = re.compile(r"color\s*:\s*(#[0-9a-fA-F]{6}|#[0-9a-fA-F]{3}|[a-zA-Z]+)")


@dataclass(frozen=True)
class Run:
    """A piece of text in one look; ``color`` None means the widget's ink."""

    text: str
    bold: bool = False
    color: str | None = None
    mono: bool = False


@lru_cache(maxsize=512)
def parse(markup: str) -> tuple[tuple[Run, ...], ...]:
    """Lines (split at ``<br>``) of runs."""
    lines: list[list[Run]] = [[]]
    stack: list[tuple[str, bool, str | None, bool]] = []
    bold, color, mono = False, None, False
    pos = 0

    def add(text: str) -> None:
        text = html.unescape(text)
        if text:
            lines[-1].append(Run(text, bold, color, mono))

    for m in _TAG.finditer(markup):
        add(markup[pos:m.start()])
        pos = m.end()
        closing, tag, attrs = m.group(1), m.group(2).lower(), m.group(3)
        if tag == "br":
            lines.append([])
            continue
        if closing:
            # pop back to the matching opening tag (a stray closing tag is ignored)
            for i in range(len(stack) - 1, -1, -1):
                if stack[i][0] == tag:
                    _, bold, color, mono = stack[i]
                    del stack[i:]
                    break
            continue
        stack.append((tag, bold, color, mono))
        c = _COLOR.search(attrs)
        if c:
            color = c.group(1)
        if tag in ("b", "strong"):
            bold = True
        elif tag in ("code", "tt"):
            mono = True
    add(markup[pos:])
    return tuple(tuple(line) for line in lines)


def plain_text(markup: str) -> str:
    """What the markup reads as (tests and the clipboard)."""
    return "\n".join("".join(r.text for r in line) for line in parse(markup)).replace("\xa0", " ")


class Fonts:
    """The four faces a caption uses, with word widths measured once."""

    def __init__(self, size_pt: float):
        self.regular = QFont()
        self.regular.setPointSizeF(size_pt)
        self.bold = QFont(self.regular)
        self.bold.setBold(True)
        self.mono = QFont(self.regular)
        self.mono.setFamily("monospace")
        self.mono.setStyleHint(QFont.StyleHint.Monospace)
        self.mono_bold = QFont(self.mono)
        self.mono_bold.setBold(True)
        self._face = {(False, False): self.regular, (True, False): self.bold, (False, True): self.mono,
                      (True, True): self.mono_bold}
        self._metrics = {k: QFontMetricsF(f) for k, f in self._face.items()}
        self._keys = {k: f.key() for k, f in self._face.items()}
        self._widths: dict[tuple, float] = {}
        self._layouts: dict[tuple, tuple] = {}
        #: a piece's point and static text, by its place (see paint_plan)
        self.placed: dict[tuple, tuple] = {}
        self.line_height = max(m.height() for m in self._metrics.values())

    def font(self, run: Run) -> QFont:
        return self._face[(run.bold, run.mono)]

    def static(self, run: Run, text: str) -> QStaticText:
        return static_text(text, self.font(run), self._keys[(run.bold, run.mono)])

    def laid_out(self, markup: str, width: float | None = None) -> tuple[list, int, float]:
        """:func:`layout` of ``markup``, remembered: the summary's cells and the captions come
        back to the same strings edit after edit."""
        key = (markup, width)
        out = self._layouts.get(key)
        if out is None:
            if len(self._layouts) > 2048:
                self._layouts.clear()
            out = self._layouts[key] = layout(parse(markup), self, width)
        return out

    def width(self, run: Run, text: str) -> float:
        key = (run.bold, run.mono, text)
        w = self._widths.get(key)
        if w is None:
            if len(self._widths) > 4096:
                self._widths.clear()
            w = self._widths[key] = self._metrics[(run.bold, run.mono)].horizontalAdvance(text)
        return w


_STATIC: dict[tuple[str, str], QStaticText] = {}


def static_text(text: str, font: QFont, font_key: str | None = None) -> QStaticText:
    """``text`` laid out once in ``font``: ``drawStaticText`` is about 3x cheaper than ``drawText``,
    which shapes the string again on every call (labels, ticks and captions repaint per edit).
    ``font_key``: ``font.key()``, when the caller draws many strings in one font."""
    key = (font_key or font.key(), text)
    st = _STATIC.get(key)
    if st is None:
        if len(_STATIC) > 8192:
            _STATIC.clear()
        st = _STATIC[key] = QStaticText(text)
        st.setTextFormat(Qt.TextFormat.PlainText)
        st.prepare(QTransform(), font)
    return st


_SIZED: dict[tuple[str, str], tuple] = {}


def sized_text(text: str, font: QFont, font_key: str | None = None) -> tuple:
    """(QStaticText, width, height) of ``text`` in ``font``, laid out and measured once."""
    key = (font_key or font.key(), text)
    out = _SIZED.get(key)
    if out is None:
        if len(_SIZED) > 8192:
            _SIZED.clear()
        st = static_text(text, font, key[0])
        size = st.size()
        out = _SIZED[key] = (st, size.width(), size.height())
    return out


#: one painted piece: (x, line number, text, run)
Piece = tuple[float, int, str, Run]


def _paint_order(piece: Piece) -> tuple:
    """Face by face, colour by colour: the order does not show (pieces never overlap) and each
    change of font is a font-engine lookup in the painter."""
    run = piece[3]
    return run.bold, run.mono, run.color or ""


def layout(lines: tuple[tuple[Run, ...], ...], fonts: Fonts, width: float | None) -> tuple[list[Piece], int, float]:
    """Pieces placed line by line, wrapped at spaces to ``width`` (None: no wrapping); returns
    (pieces, number of lines, widest line)."""
    pieces: list[Piece] = []
    row = 0
    widest = 0.0
    for line in lines:
        x = 0.0
        inked = 0.0  # where the line's last word ends (trailing spaces do not widen it)
        gap = ""  # the spaces since that word
        for run in line:
            for word in re.split(r"( +)", run.text):
                if not word:
                    continue
                w = fonts.width(run, word)
                if word[0] == " ":
                    if x > 0:  # spaces at the start of a wrapped line are dropped
                        x += w
                        gap += word
                    continue
                if width is not None and x > 0 and x + w > width:
                    widest = max(widest, inked)
                    row += 1
                    x, gap = 0.0, ""
                last = pieces[-1] if pieces else None
                if last is not None and last[1] == row and last[3] is run:
                    # the same run on the same line (the spaces between are its own): one piece
                    pieces[-1] = (last[0], row, last[2] + gap + word, run)
                else:
                    pieces.append((x, row, word, run))
                x += w
                inked, gap = x, ""
        widest = max(widest, inked)
        row += 1
    pieces.sort(key=_paint_order)
    return pieces, row, widest


def place(blocks: list[tuple[float, float, list[Piece]]], fonts: Fonts) -> list[Piece]:
    """Pieces of several laid-out blocks (x, y, pieces) as one list for :func:`paint_pieces` at
    (0, 0) (rows in line heights from the top), sorted by face and colour so that a whole panel
    paints with few font changes."""
    lh = fonts.line_height
    out = [(x0 + x, y0 / lh + row, text, run) for x0, y0, pieces in blocks for x, row, text, run in pieces]
    out.sort(key=_paint_order)
    return out


def paint_plan(pieces: list[Piece], fonts: Fonts, ink: QColor, x0: float = 0.0, y0: float = 0.0) -> list[tuple]:
    """What :func:`paint_ops` draws for ``pieces`` at (x0, y0): (font or None when unchanged,
    pen colour or None when unchanged, point, static text) per piece. Made once per layout, so a
    repaint is one ``drawStaticText`` per piece and nothing else."""
    colors: dict[str | None, QColor] = {None: ink}
    font = color = None
    lh = fonts.line_height
    placed = fonts.placed  # (point, static text) of pieces seen before: most stay where they were
    if len(placed) > 4096:
        placed.clear()
    ops = []
    for piece in pieces:
        x, row, text, run = piece
        f = fonts.font(run)
        c = colors.get(run.color)
        if c is None:
            c = colors[run.color] = QColor(run.color)
        key = (x0, y0, piece)
        at = placed.get(key)
        if at is None:
            at = placed[key] = (QPointF(x0 + x, y0 + row * lh), fonts.static(run, text))
        ops.append((f if f is not font else None, c if c is not color else None) + at)
        font, color = f, c
    return ops


def paint_ops(p, ops: list[tuple]) -> None:
    for f, c, pt, st in ops:
        if f is not None:
            p.setFont(f)
        if c is not None:
            p.setPen(c)
        p.drawStaticText(pt, st)


def paint_pieces(p, pieces: list[Piece], fonts: Fonts, ink: QColor, x0: float = 0.0, y0: float = 0.0) -> None:
    paint_ops(p, paint_plan(pieces, fonts, ink, x0, y0))
