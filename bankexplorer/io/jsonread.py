"""Parsing JSON text from files people give us, without tracebacks.

Python refuses to convert integers of more than 4,300 digits (``sys.int_info``), and
``json.loads`` says so with a bare ``ValueError`` that names no field. When that happens the text
is parsed again with every overlong integer replaced by a :class:`HugeInt`: a value larger than any
field allows, which the validators then report under the field's own path ("must be at most ...,
got a 5,000-digit number").
"""

from __future__ import annotations

import json
from typing import Any

from ..model.errors import FileFormatError

try:  # about twice as fast as the standard library on big traces; the same values otherwise
    import orjson as _orjson
except ImportError:  # pragma: no cover - orjson is a dependency, this keeps a bare checkout working
    _orjson = None

#: digits beyond which an integer is not converted (well under Python's own limit)
MAX_DIGITS = 1000


class HugeInt(int):
    """An integer literal too long to convert: compares as 10**1000, prints as its digit count."""

    digits: int

    def __new__(cls, digits: int, negative: bool = False):
        obj = super().__new__(cls, -(10**MAX_DIGITS) if negative else 10**MAX_DIGITS)
        obj.digits = digits
        return obj

    def __repr__(self) -> str:
        return f"a {self.digits:,}-digit {'negative ' if self < 0 else ''}number"

    __str__ = __repr__

    def __format__(self, spec: str) -> str:
        return repr(self)


def _parse_int(text: str) -> int:
    digits = len(text.lstrip("-"))
    if digits > MAX_DIGITS:
        return HugeInt(digits, text.startswith("-"))
    return int(text)


def parse(text: str | bytes, where: str = "", source: str = "") -> Any:
    """``json.loads`` whose failures are :class:`FileFormatError` (``where`` prefixes the message,
    e.g. a line number)."""
    try:
        return json.loads(text)
    except UnicodeDecodeError as e:
        raise FileFormatError([(where, f"not UTF-8 text (byte {e.start})")], source)
    except json.JSONDecodeError as e:
        raise FileFormatError([(where, f"not valid JSON: {e.msg} at line {e.lineno}, column {e.colno}")], source)
    except RecursionError:
        raise FileFormatError([(where, "JSON is nested too deeply")], source)
    except ValueError:  # an integer with more digits than Python converts
        pass
    try:
        return json.loads(text, parse_int=_parse_int)
    except (ValueError, RecursionError) as e:
        raise FileFormatError([(where, f"not valid JSON: {e}")], source)


def fast_parse(raw: bytes, where: str = "", source: str = "") -> tuple[Any, bool]:
    """Parse with orjson when it is installed. Returns (value, exact): ``exact`` is False when orjson
    read it, which turns integers beyond 64 bits into floats: a caller that finds a problem must
    parse again with :func:`parse` to name it as the standard library's values would."""
    if _orjson is not None:
        try:
            return _orjson.loads(raw), False
        except (_orjson.JSONDecodeError, RecursionError):
            pass
    return parse(raw, where, source), True
