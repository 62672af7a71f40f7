"""NVRTC's messages as diagnostics: ``name(line): error: message`` -> line, column, message.

The column comes from the caret line the compiler prints under the echoed source line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Diagnostic:
    """A message about a place in the user's text: the compiler's, or the snippet importer's
    (something it did not model, ``error``/``warning``, or assumed, ``note``)."""

    line: int
    column: int
    message: str
    severity: str = "warning"

    def __str__(self) -> str:
        return f"{self.line}:{self.column}: {self.severity}: {self.message}"


_MESSAGE = re.compile(r"^.*?\((\d+)\): (error|warning|catastrophic error)\s*(?:#\w+-\w+)?:?\s*(.*)$")


def compiler_diagnostics(log: str, severity: str = "warning") -> list[Diagnostic]:
    """The log's messages, each with its line and column, at ``severity`` (a compile error is a
    ``warning`` beside a view that still stands, an ``error`` where it stops the run)."""
    diags: list[Diagnostic] = []
    lines = log.splitlines()
    for i, ln in enumerate(lines):
        m = _MESSAGE.match(ln)
        if not m:
            continue
        col = 1
        for follow in lines[i + 1:i + 4]:
            if follow.strip() == "^":  # the compiler echoes the line indented by two spaces
                col = max(1, follow.index("^") - 1)
                break
        diags.append(Diagnostic(int(m.group(1)), col, f"compiler {m.group(2)}: {m.group(3).strip()}", severity))
    if not diags and log.strip():
        diags.append(Diagnostic(1, 1, f"compiler: {log.strip().splitlines()[-1]}", severity))
    return diags
