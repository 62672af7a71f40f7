"""Errors the model reports to people: each says what is wrong and where."""

from __future__ import annotations


class BankExplorerError(Exception):
    """Base of every error meant for the user (the CLI prints it in one line, the GUI in a field)."""

    def __init__(self, message: str, where: str = ""):
        super().__init__(message)
        self.message = message
        self.where = where

    def __str__(self) -> str:
        return f"{self.where}: {self.message}" if self.where else self.message

    def at(self, where: str) -> "BankExplorerError":
        """The same error, located inside ``where`` (e.g. ``instructions[2].index[0]``)."""
        inner = self.where
        if inner.startswith("["):
            self.where = where + inner
        elif inner:
            self.where = f"{where}.{inner}" if where else inner
        else:
            self.where = where
        return self


class ExprError(BankExplorerError):
    """An expression that does not parse or cannot be evaluated; ``pos`` is a 0-based column."""

    def __init__(self, message: str, text: str, pos: int, where: str = ""):
        self.text = text
        self.pos = pos
        self.detail = message
        super().__init__(f"{message} at column {pos + 1} of {text!r}", where)


class OutputError(BankExplorerError):
    """A file that cannot, or must not, be written (no such folder, or it is one of the inputs)."""


class PatternError(BankExplorerError):
    """A pattern (file or document) that is not well-formed."""


class FileFormatError(BankExplorerError):
    """A pattern file that is not valid; ``problems`` lists every (path, message) found."""

    def __init__(self, problems: list[tuple[str, str]], source: str = ""):
        self.problems = problems
        self.source = source
        first = problems[0] if problems else ("", "invalid file")
        more = f" (and {len(problems) - 1} more problem{'s' if len(problems) > 2 else ''})" if len(problems) > 1 else ""
        where = f"{source}: " if source else ""
        msg = f"{where}{first[0]}: {first[1]}{more}" if first[0] else f"{where}{first[1]}{more}"
        super().__init__(msg)

    def __str__(self) -> str:
        return self.message
