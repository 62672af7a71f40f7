"""Parsing JSON text from files people give us, without tracebacks.

A key given twice in one object (``{"width": 4, "width": 8}``) is an error naming the key: JSON
parsers keep the last value silently, and which one the writer meant is anyone's guess. The fast
path (orjson, which keeps the last too) counts the object members it parsed against the keys in
the text (a quote, spaces, a colon); only when those differ is the text parsed again by the
standard library, which names the repeated key.

Python refuses to convert integers of more than 4,300 digits (``sys.int_info``), and
``json.loads`` says so with a bare ``ValueError`` that names no field. When that happens the text
is parsed again with every overlong integer replaced by a :class:`HugeInt`: a value larger than any
field allows, which the validators then report under the field's own path ("must be at most ...,
got a 5,000-digit number").
"""

from __future__ import annotations

import functools
import json
from typing import Any

from ..model.errors import FileFormatError


@functools.cache
def _orjson():
    """orjson: about twice as fast as the standard library on big traces, the same values
    otherwise. Imported when first used (with uuid and the rest it loads, 2 ms the window's start
    does not need); None without it."""
    try:
        import orjson
    except ImportError:  # pragma: no cover - orjson is a dependency, this keeps a bare checkout working
        return None
    return orjson


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


class _Duplicate(ValueError):
    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def _object(pairs: list) -> dict:
    d = dict(pairs)
    if len(d) != len(pairs):
        seen: set = set()
        raise _Duplicate(next(k for k, _v in pairs if k in seen or seen.add(k)))
    return d


def _duplicate(where: str, source: str, key: str) -> FileFormatError:
    return FileFormatError([(where, f"the key {key!r} is given twice in one object (which value is meant?)")], source)


def parse(text: str | bytes, where: str = "", source: str = "") -> Any:
    """``json.loads`` whose failures are :class:`FileFormatError` (``where`` prefixes the message,
    e.g. a line number); a key given twice in one object is one of them."""
    try:
        return json.loads(text, object_pairs_hook=_object)
    except _Duplicate as e:
        raise _duplicate(where, source, e.key)
    except UnicodeDecodeError as e:
        raise FileFormatError([(where, f"not UTF-8 text (byte {e.start})")], source)
    except json.JSONDecodeError as e:
        raise FileFormatError([(where, f"not valid JSON: {e.msg} at line {e.lineno}, column {e.colno}")], source)
    except RecursionError:
        raise FileFormatError([(where, "JSON is nested too deeply")], source)
    except ValueError:  # an integer with more digits than Python converts
        pass
    try:
        return json.loads(text, parse_int=_parse_int, object_pairs_hook=_object)
    except _Duplicate as e:
        raise _duplicate(where, source, e.key)
    except (ValueError, RecursionError) as e:
        raise FileFormatError([(where, f"not valid JSON: {e}")], source)


def fast_parse(raw: bytes, where: str = "", source: str = "") -> tuple[Any, bool]:
    """Parse with orjson when it is installed. Returns (value, exact): ``exact`` is False when orjson
    read it, which turns integers beyond 64 bits into floats: a caller that finds a problem must
    parse again with :func:`parse` to name it as the standard library's values would."""
    orjson = _orjson()
    if orjson is not None:
        try:
            value = orjson.loads(raw)
        except (orjson.JSONDecodeError, RecursionError):
            pass
        else:
            if _members(value) == _keys_in(raw):
                return value, False
    return parse(raw, where, source), True


_SPACES = str.maketrans("", "", " \t\r\n")


def _keys_in(raw: str | bytes | bytearray) -> int:
    """Places where a string is followed by a colon (JSON spaces between them allowed): every
    member's key, and at most a few more (an escaped quote before a colon inside a string); never
    fewer than the members. Counted on the text with its spaces deleted, a block at a time."""
    text = isinstance(raw, str)
    key, colon, quote = ('":', ":", '"') if text else (b'":', b":", b'"')
    n, last, step = 0, False, 1 << 24
    for i in range(0, len(raw), step):
        s = raw[i:i + step].translate(_SPACES) if text else bytes(raw[i:i + step]).translate(None, b" \t\r\n")
        if s:
            n += s.count(key) + (last and s[:1] == colon)
            last = s[-1:] == quote
    return n


def _members(v: Any) -> int:
    """Members of the parsed objects, or fewer (a long list of objects counts their own members
    only): equal to :func:`_keys_in` only when no key was given twice."""
    if isinstance(v, dict):
        return len(v) + sum(_members(x) for x in v.values() if isinstance(x, (dict, list)))
    if isinstance(v, list) and v and isinstance(v[0], (dict, list)):
        if len(v) > 64 and all(type(x) is dict for x in v):  # instructions: their members, at C speed
            return sum(map(len, v))
        return sum(_members(x) for x in v)
    return 0
