"""What a command says to the terminal: its exit statuses, the usage error it reports as one
line, and text made printable.

A low module: the commands (:mod:`bankexplorer.commands`) share it, and the program's entry point
(:mod:`bankexplorer.cli`) reports a :class:`UsageError` without any command having to import the
entry point.

Text a file brings (a pattern's name, a label) reaches the terminal with its control characters
shown as ``\\x1b``: no escape sequence in a file can recolour, retitle or rewrite the terminal.
"""

from __future__ import annotations

import re

#: an access outside the arrays (``analyze``, a snippet's import): the report is printed, and says so
EXIT_INVALID_ACCESS = 1
#: bad input (a file, an option, a kernel we cannot handle): one line on stderr, never a traceback
EXIT_BAD_INPUT = 2


class UsageError(Exception):
    """A request the command cannot carry out as given (an option's value, a file's kind): the
    program prints ``bankexplorer: MESSAGE`` and exits with :data:`EXIT_BAD_INPUT`."""


#: characters a terminal obeys rather than shows: C0 and C1 controls, and the bidirectional
#: overrides and isolates (U+202E would show a name's text reversed, a classic of spoofed names)
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def printable(text: str) -> str:
    """``text`` with control characters other than newline and tab written as ``\\x1b`` (a
    bidirectional override, U+202E, as backslash-u202e): a terminal shows them, it does not obey
    them. (A fast check first: output is mostly clean.)"""
    if text.replace("\n", "").isprintable():
        return text
    return _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}" if ord(m.group()) < 0x100 else f"\\u{ord(m.group()):04x}",
                        text)


class PrintableStream:
    """A text stream that writes :func:`printable` text (a command's stdout and stderr)."""

    def __init__(self, stream) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        return self._stream.write(printable(text))

    def __getattr__(self, name: str):
        return getattr(self._stream, name)
