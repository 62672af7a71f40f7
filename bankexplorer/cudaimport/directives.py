"""Every ``#include`` a C preprocessor could see in a text, wherever comments and strings put it.

The compiled view hands the text to NVRTC, which opens the files its includes name. Before that,
each include must pass :mod:`.includes`' rules, so none may go unseen. The search therefore does
not trust a reading of the text's structure: after joining continued lines (``\\`` or ``??/`` and
a newline) it finds every ``#``, ``%:`` or ``??=`` followed by ``include``, ``include_next``,
``import`` or ``embed`` (comments allowed in between), anywhere. Only then does a light lexer
(comments, string and character literals, raw strings, digit separators) say which of those sit
inside a comment or a literal: those are harmless, and the caller blanks them in the text it hands
on, so that even if the lexer were wrong, no reader could take them for a directive.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass

_SPLICE = re.compile(r"(?:\\|\?\?/)[ \t]*\r?\n")
_GAP = r"(?:[ \t\f\v]|/\*.*?\*/)*"
_NAME = r"(?:\"([^\"\n]*)\"|<([^>\n]*)>)"
_DIRECTIVE = re.compile(rf"(?:#|%:|\?\?=){_GAP}(include_next|include|import|embed)(?!\w){_GAP}{_NAME}?", re.S)
_HAS = re.compile(rf"__has_(?:include_next|include|embed)(?!\w)\s*(?:\(\s*{_NAME}?)?")
_LEX = re.compile(r"""
    (?P<line>//[^\n]*)
  | (?P<block>/\*.*?(?:\*/|\Z))
  | (?P<raw>(?:u8|u|U|L)?R"(?P<d>[^()\\\s"]{0,16})\(.*?(?:\)(?P=d)"|\Z))
  | (?P<str>(?:u8|u|U|L)?"(?:\\.|[^"\\\n])*(?:"|$))
  | (?P<chr>(?:u8|u|U|L)?'(?:\\.|[^'\\\n])*(?:'|$))
  | [A-Za-z_]\w*
  | \.?\d(?:[eEpP][+-]|[\w.]|'\w)*
""", re.S | re.M | re.X)


@dataclass(frozen=True)
class Include:
    """One include-like directive: ``start``/``end`` in the original text, its 1-based ``line``,
    the directive (``include``, ``import``...), the name written (None: a macro or nothing),
    whether it was ``<name>``, and where it sits: ``"code"``, ``"comment"`` (in a comment or a
    literal) or ``"split"`` (begun in a comment and ended outside it: refused, being unclear)."""

    start: int
    end: int
    line: int
    kind: str
    name: str | None
    system: bool
    place: str


class _Text:
    """The text with continued lines joined, and the way back to the original positions."""

    def __init__(self, text: str) -> None:
        self.original = text
        parts, self._at, self._shift = [], [], []
        last = removed = 0
        for m in _SPLICE.finditer(text):
            parts.append(text[last:m.start()])
            removed += m.end() - m.start()
            self._at.append(m.start() - (removed - (m.end() - m.start())))
            self._shift.append(removed)
            last = m.end()
        parts.append(text[last:])
        self.joined = "".join(parts)

    def orig(self, p: int) -> int:
        """The original position of joined position ``p``."""
        k = bisect.bisect_right(self._at, p)
        return p + (self._shift[k - 1] if k else 0)

    def line(self, p: int) -> int:
        return self.original.count("\n", 0, self.orig(p)) + 1


def _outside_code(s: str) -> tuple[list[int], list[int]]:
    """Starts and ends of the comments and literals of ``s``, in order."""
    starts, ends = [], []
    for m in _LEX.finditer(s):
        if m.lastgroup in ("line", "block", "raw", "str", "chr"):
            starts.append(m.start())
            ends.append(m.end())
    return starts, ends


def _place(starts: list[int], ends: list[int], a: int, b: int) -> str:
    k = bisect.bisect_right(starts, a) - 1
    if k < 0 or a >= ends[k]:
        return "code"
    return "comment" if b <= ends[k] else "split"


def find_includes(text: str) -> list[Include]:
    """Every include-like directive of ``text`` and every ``__has_include(...)`` (as kind
    ``has_include``), in order."""
    t = _Text(text)
    s = t.joined
    starts, ends = _outside_code(s)
    out = []
    for rx, kind in ((_DIRECTIVE, None), (_HAS, "has_include")):
        for m in rx.finditer(s):
            q, a = (m.group(2), m.group(3)) if kind is None else (m.group(1), m.group(2))
            name = q if q is not None else a
            end = t.orig(m.end() - 1) + 1 if m.end() > m.start() else t.orig(m.start())
            out.append(Include(t.orig(m.start()), end, t.line(m.start()), kind or m.group(1), name,
                               a is not None, _place(starts, ends, m.start(), m.end())))
    return sorted(out, key=lambda i: i.start)


def blank(text: str, spans: list[tuple[int, int]]) -> str:
    """``text`` with each span's characters turned into spaces, newlines kept: every other line
    and column stays where it was."""
    if not spans:
        return text
    parts, last = [], 0
    for a, b in sorted(spans):
        a = max(a, last)
        parts += [text[last:a], re.sub(r"[^\n]", " ", text[a:b])]
        last = max(last, b)
    parts.append(text[last:])
    return "".join(parts)
