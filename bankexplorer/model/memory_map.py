"""Shared memory word by word: which array element each bank word holds, after padding, base
offsets and layout transforms. The physical-banks view and its exported figure both draw this.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .errors import BankExplorerError
from .pattern import Pattern


@dataclass
class WordMap:
    """Per bank word of shared memory, what it holds: flat arrays the views and figures index directly."""

    rows: int
    banks: int
    array: np.ndarray  # (rows*banks,) array number, -1 nothing, -2 padding inside an array
    index: np.ndarray  # (rows*banks, 3) element index, -1 none
    column: np.ndarray  # (rows*banks,) last index of the element (the tint), -1 none


def word_map(p: Pattern, extra_bytes: int = 0, max_rows: int | None = None) -> WordMap:
    """Which element of which array lives in each word (the first element, when several share one),
    for the first ``max_rows`` bank rows (all of them by default)."""
    hw = p.hardware
    bw, nb = hw.bank_width, hw.banks
    total = max(p.shared_bytes(), extra_bytes, hw.row_bytes)
    rows = -(-total // hw.row_bytes)
    if max_rows is not None:
        rows = min(rows, max_rows)
    n = rows * nb
    arr_of = np.full(n, -1, np.int64)
    index = np.full((n, 3), -1, np.int64)
    column = np.full(n, -1, np.int64)
    for k, a in enumerate(p.arrays):
        lo, hi = a.base // bw, -(-(a.base + a.nbytes) // bw)
        arr_of[lo:min(hi, n)] = -2
        idx = a.all_indices()
        try:
            addr = a.byte_addresses(idx)
        except BankExplorerError:
            continue
        per = max(1, a.elem_size // bw)
        words = (addr // bw)[:, None] + np.arange(per)[None, :]
        order = np.arange(addr.size)[::-1]  # the first element of a word wins: write it last
        w = words[order].ravel()
        ok = w < n
        src = np.repeat(order, per)[ok]
        w = w[ok]
        arr_of[w] = k
        for d in range(a.ndim):
            index[w, d] = idx[d][src]
        column[w] = idx[-1][src]
    return WordMap(rows, nb, arr_of, index, column)
