"""Lane addresses straight from a pattern file's bytes into numpy, without a Python object per lane.

A trace's bulk is its ``"addresses": [...]`` lists: 32 numbers per instruction. This module cuts
them out of the text (the JSON parser then reads only what is left, a tenth of the file) and reads
the numbers with numpy's text reader. It declines (returns None) on anything but plain,
non-negative integers and ``null`` in flat lists, on a key that might sit inside a string, or when
the lists do not pair one to one with the instructions; the caller then takes the general path,
which says exactly what is wrong where.
"""

from __future__ import annotations

import re
import warnings
from dataclasses import dataclass

import numpy as np

KEY = b'"addresses"'
_AFTER_KEY = re.compile(rb"\s*:\s*\[")
_PLAIN = b"0123456789, \t\r\n"  # what an address list may hold once null is replaced
PLACEHOLDER = b"0"


@dataclass
class Lanes:
    """Every instruction's addresses: ``counts[i]`` numbers each, ``values`` flat, -1 = null."""

    counts: np.ndarray  # (N,)
    values: np.ndarray  # (sum(counts),) int64

    def rows(self, first: int, n: int, W: int) -> tuple[np.ndarray, np.ndarray, dict[int, str]]:
        """Instructions ``first .. first + n`` as (addr (n, W), active (n, W), errors of wrong counts)."""
        counts = self.counts[first:first + n]
        start = int(self.starts[first]) if first < self.starts.size else 0
        errors: dict[int, str] = {}
        if (counts == W).all():
            a = self.values[start:start + n * W].reshape(n, W)
        else:
            a = np.full((n, W), -1, np.int64)
            row = np.repeat(np.arange(n), counts)
            col = np.arange(row.size) - np.repeat(np.cumsum(counts) - counts, counts)
            keep = col < W
            a[row[keep], col[keep]] = self.values[start:start + int(counts.sum())][keep]
            for r in np.flatnonzero(counts != W).tolist():
                errors[r] = f"needs {W} addresses (one per lane), got {int(counts[r])}"
        active = a >= 0
        return np.where(active, a, 0), active, errors

    @property
    def starts(self) -> np.ndarray:
        s = getattr(self, "_starts", None)
        if s is None:
            s = self._starts = np.cumsum(self.counts) - self.counts
        return s


_DIGIT_RUN = bytes.maketrans(b"0123456789", b"dddddddddd")


def cut(raw: bytes) -> tuple[bytes, Lanes] | None:
    """(the text with every address list replaced by ``0``, the lists), or None to decline."""
    parts = raw.split(KEY)
    if len(parts) < 2:
        return None
    pieces: list[bytes] = [parts[0]]
    lists: list[bytes] = []
    counts: list[int] = []
    prev = parts[0]
    for part in parts[1:]:
        if prev.endswith(b"\\"):  # a backslash before the key: perhaps inside a string
            return None
        head, bracket, rest = part.partition(b"]")
        colon, open_, body = head.partition(b"[")
        if not bracket or not open_ or colon.strip() != b":" or b"[" in body:
            return None
        pieces += (KEY, colon, PLACEHOLDER, rest)
        lists.append(body)
        counts.append(body.count(b",") + 1 if body.strip() else 0)
        prev = rest
    blob = b",".join(lists)
    if b"-" in blob:  # negative addresses: the general path names them
        return None
    blob = blob.replace(b"null", b"-1")
    if blob.translate(None, _PLAIN + b"-"):
        return None
    if blob.translate(_DIGIT_RUN).find(b"d" * 14) >= 0:  # 2^40 and beyond, or more than numpy holds
        return None
    n = np.array(counts, np.int64)
    if (n == 0).any():
        return None
    with warnings.catch_warnings():  # numpy warns (and stops) where the text is not a number
        warnings.simplefilter("ignore")
        try:
            values = np.fromstring(blob, dtype=np.int64, sep=",")
        except ValueError:
            return None
    if values.size != int(n.sum()):
        return None
    return b"".join(pieces), Lanes(n, values)
