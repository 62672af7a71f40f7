"""The input arrays of the kernels of extra18/ (their ``// input:`` lines), from fixed seeds
(what every recipe promises: ``scripts/kernel_inputs.py``).

usage: python scripts/kernel_inputs.py extra18 [--out DIR]  (default: this folder)
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

import kernel_inputs  # scripts/kernel_inputs.py: what every batch's recipe shares


def trie(rng: np.random.Generator, words: int, length: int) -> tuple[np.ndarray, np.ndarray]:
    """A 4-ary trie of random words over a 4-letter alphabet (skewed: letter 0 frequent), as a
    child table [node][4] (-1: none) with a word count in column 4 ([node][5] in all); and 512
    queries of 8 letters (2 bits each, packed into an int), half of them prefixes of the words."""
    p = np.array([0.45, 0.25, 0.2, 0.1])
    ws = rng.choice(4, size=(words, length), p=p)
    child = [[-1, -1, -1, -1, 0]]
    for w in ws:
        n = 0
        for c in w:
            if child[n][c] < 0:
                child[n][c] = len(child)
                child.append([-1, -1, -1, -1, 0])
            n = child[n][c]
        child[n][4] += 1
    tab = np.array(child, np.int32)
    q = rng.choice(4, size=(512, 8), p=p)
    hit = rng.random(512) < 0.5
    q[hit] = ws[rng.integers(0, words, hit.sum())][:, :8]
    packed = (q << (2 * np.arange(8))).sum(1).astype(np.int32)
    return tab.ravel(), packed


def lower_levels(rng: np.random.Generator, n: int) -> tuple[np.ndarray, ...]:
    """A sparse unit-lower-triangular n x n matrix in CSR (off-diagonal entries only, 0..4 a row,
    columns below the row), its level sets (rows sorted by level) and the level pointers."""
    ptr, col, val = [0], [], []
    level = np.zeros(n, np.int64)
    for r in range(n):
        k = min(r, int(rng.integers(0, 5)))
        cs = sorted(rng.choice(r, k, replace=False).tolist()) if k else []
        col += cs
        val += rng.integers(-2, 3, k).tolist()
        ptr.append(len(col))
        level[r] = 1 + max((level[c] for c in cs), default=-1)
    order = np.argsort(level, kind="stable")
    lptr = np.searchsorted(level[order], np.arange(level.max() + 2))
    return (np.array(ptr, np.int32), np.array(col, np.int32), np.array(val, np.float32),
            order.astype(np.int32), lptr.astype(np.int32))


def make(out: Path) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(20260318)
    a = kernel_inputs.standard(rng)
    a["perm_1024"] = rng.permutation(1024).astype(np.int32)
    a["bytes_4096"] = rng.integers(0, 256, 4096).astype(np.uint8)
    # segment heads: about one element in 9 starts a segment
    a["heads_1024"] = (rng.random(1024) < 0.11).astype(np.int32)
    a["trie_5xN"], a["trie_queries_512"] = trie(rng, 90, 8)
    # hash join: 256 build keys (distinct), 1024 probes (60 % present)
    build = rng.choice(np.arange(1, 1 << 20), 256, replace=False)
    a["build_256"] = build.astype(np.int32)
    a["probe_1024"] = np.where(rng.random(1024) < 0.6, rng.choice(build, 1024),
                               rng.integers(1, 1 << 20, 1024)).astype(np.int32)
    # a linked list over 1024 nodes in random order: next[] (-1 ends it), the head is node order[0]
    order = rng.permutation(1024)
    nxt = np.full(1024, -1, np.int64)
    nxt[order[:-1]] = order[1:]
    a["list_next_1024"] = nxt.astype(np.int32)
    (a["tri_ptr_513"], a["tri_col"], a["tri_val"], a["tri_order_512"],
     a["tri_lptr"]) = lower_levels(rng, 512)
    # text for the string search: 4 letters mostly, a pattern of 6 planted 24 times
    text = rng.choice(np.frombuffer(b"acgt", np.uint8), 4096, p=[0.3, 0.2, 0.2, 0.3])
    pat = np.frombuffer(b"gattac", np.uint8)
    for s in rng.choice(4090 // 8, 24, replace=False) * 8:
        text[s:s + 6] = pat
    a["text_4096"] = text.astype(np.uint8)
    # runs for run-length encoding: run lengths 1..12 (geometric), values 0..7
    vals, n = [], 0
    while n < 4096:
        L = int(min(rng.geometric(0.25), 12))
        vals += [int(rng.integers(0, 8))] * L
        n += L
    a["runs_4096"] = np.array(vals[:4096], np.uint8)
    # a graph for the frontier: CSR on 512 nodes, ring plus random edges
    adj: list[set[int]] = [{(v + 1) % 512} for v in range(512)]
    for v in range(512):
        adj[v] |= set(rng.integers(0, 512, int(rng.integers(0, 4))).tolist()) - {v}
    a["g_ptr_513"], a["g_col"] = kernel_inputs.csr(adj)
    # dictionary codes: Zipf-like bytes over 256 codes
    p = 1.0 / np.arange(1, 257) ** 1.05
    a["codes_4096"] = rng.permutation(256)[rng.choice(256, 4096, p=p / p.sum())].astype(np.uint8)
    a["dict_256"] = rng.integers(0, 2**32, 256, dtype=np.uint64).astype(np.uint32)
    # k-means: 1024 points in 4-D (small integers in float), 16 centroids
    a["points_4096"] = rng.integers(-16, 17, 4096).astype(np.float32)
    a["centroids_64"] = rng.integers(-12, 13, 64).astype(np.float32)
    return kernel_inputs.save(out, a)

