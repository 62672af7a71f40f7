"""The input arrays of the kernels of extra19/ (their ``// input:`` lines), from fixed seeds
(what every recipe promises: ``scripts/kernel_inputs.py``).

usage: python scripts/kernel_inputs.py extra19 [--out DIR]  (default: this folder)
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

import kernel_inputs  # scripts/kernel_inputs.py: what every batch's recipe shares


def sliced_ell(ptr: np.ndarray, col: np.ndarray, val: np.ndarray, slice_rows: int) -> tuple[np.ndarray, ...]:
    """The same matrix as sliced ELL: slices of ``slice_rows`` rows, each as wide as its longest
    row, stored column-major inside the slice (entry j of row r at start + j * slice_rows + r % C),
    padding column -1."""
    rows = len(ptr) - 1
    sptr, scol, sval = [0], [], []
    for s in range(0, rows, slice_rows):
        w = int(max(ptr[r + 1] - ptr[r] for r in range(s, s + slice_rows)))
        c = np.full((w, slice_rows), -1, np.int32)
        v = np.zeros((w, slice_rows), np.float32)
        for r in range(s, s + slice_rows):
            n = ptr[r + 1] - ptr[r]
            c[:n, r - s] = col[ptr[r]:ptr[r + 1]]
            v[:n, r - s] = val[ptr[r]:ptr[r + 1]]
        scol += c.ravel().tolist()
        sval += v.ravel().tolist()
        sptr.append(len(scol))
    return np.array(sptr, np.int32), np.array(scol, np.int32), np.array(sval, np.float32)


def tree(rng: np.random.Generator, nodes: int, features: int) -> np.ndarray:
    """A random binary decision tree as [node][4] = (feature, threshold, left, right); a leaf has
    feature -1 and its class in the threshold. Grown by splitting random leaves (unbalanced)."""
    t = [[-1, 0, 0, 0]]
    while len(t) + 2 <= nodes:
        leaves = [i for i, n in enumerate(t) if n[0] < 0]
        i = int(rng.choice(leaves))
        t[i] = [int(rng.integers(0, features)), int(rng.integers(40, 216)), len(t), len(t) + 1]
        t.append([-1, int(rng.integers(0, 16)), 0, 0])
        t.append([-1, int(rng.integers(0, 16)), 0, 0])
    return np.array(t, np.int32).ravel()


def lds128_quads() -> np.ndarray:
    """16 cases of one warp's LDS.128 over a double2[512] (8 slots a 128-byte row): lanes 4j+1..4j+3
    reading slot j (the bucket sort's remainder load) and its variations; -1: the lane is off."""
    c = np.full((16, 32), -1, np.int64)
    for j in range(8):
        q = [4 * j + 1, 4 * j + 2, 4 * j + 3]
        c[0, q] = j
        c[1, 4 * j:4 * j + 4] = j
        c[2, 4 * j + 1] = j
        if j < 4:
            c[3, q] = j
        else:
            c[4, q] = j
        c[5, [4 * j + 2, 4 * j + 3]] = j
        c[6, [4 * j, 4 * j + 1, 4 * j + 2]] = j
        c[7, q] = j + 8
        c[8, q] = 7 - j
        c[9, q] = j + 8 * (j >= 4)
        c[10, 4 * j + 3] = j
        c[11, [4 * j + 1, 4 * j + 2]] = j
        if j % 2 == 0:
            c[12, q] = j
        if j < 6:
            c[13, q] = j
        c[15, q] = j
    c[14, [1, 2, 3]] = 0
    c[14, [5, 6, 7]] = 1
    c[15, 0] = 0
    return c.astype(np.int32).ravel()


def make(out: Path) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(20260419)
    a = kernel_inputs.standard(rng)
    a["perm_1024"] = rng.permutation(1024).astype(np.int32)
    a["bytes_4096"] = rng.integers(0, 256, 4096).astype(np.uint8)
    p = 1.0 / np.arange(1, 257) ** 1.2
    a["zipf_bytes_4096"] = rng.permutation(256)[rng.choice(256, 4096, p=p / p.sum())].astype(np.uint8)
    p = 1.0 / np.arange(1, 4097) ** 1.1
    a["zipf12_4096"] = rng.permutation(4096)[rng.choice(4096, 4096, p=p / p.sum())].astype(np.int32)
    a["idx_1024"] = rng.integers(0, 1024, 1024).astype(np.int32)
    a["csr_ptr_257"], a["csr_col"], a["csr_val"] = kernel_inputs.sparse_csr(rng, 256, 1024, 14)
    a["sell_ptr"], a["sell_col"], a["sell_val"] = sliced_ell(a["csr_ptr_257"], a["csr_col"], a["csr_val"], 32)
    a["tg_ptr_129"], a["tg_col"] = kernel_inputs.undirected(rng, 128, 384, 1)
    a["cc_ptr_513"], a["cc_col"] = kernel_inputs.undirected(rng, 512, 160, 7)
    # a sorted table with skewed gaps (interpolation search is far from uniform), queries half hits
    sorted_tab = np.cumsum(rng.geometric(0.05, 1024) ** 2 % 5000 + 1).astype(np.int64)
    a["sorted_1024"] = sorted_tab.astype(np.int32)
    a["queries_1024"] = np.where(rng.random(1024) < 0.5, rng.choice(sorted_tab, 1024),
                                 rng.integers(0, int(sorted_tab[-1]) + 100, 1024)).astype(np.int32)
    # text over {a, b} for KMP (long partial matches), "abaababa" planted 20 times
    text = rng.choice(np.frombuffer(b"ab", np.uint8), 4096, p=[0.6, 0.4])
    pat = np.frombuffer(b"abaababa", np.uint8)
    for s in rng.choice(4080 // 16, 20, replace=False) * 16 + 3:
        text[s:s + 8] = pat
    a["ab_text_4096"] = text.astype(np.uint8)
    a["tree_4xN"] = tree(rng, 127, 4)
    # runs for decoding: 256 runs of length 1..16 (a value each)
    a["runlen_256"] = rng.integers(1, 17, 256).astype(np.int32)
    # 64-bit indices as (low, high) int32 pairs into a 1024-entry table, with repeats
    idx = rng.integers(0, 1024, 1024)
    a["idx64_pairs_2048"] = np.stack([idx, np.zeros_like(idx)], 1).ravel().astype(np.int32)
    # 64-bit hash keys: 512 distinct (low, high) pairs; 1024 queries, 60 % of them present
    keys = rng.choice(np.arange(1, 1 << 40, 7919), 512, replace=False).astype(np.uint64)
    q = np.where(rng.random(1024) < 0.6, rng.choice(keys, 1024), rng.integers(1, 1 << 40, 1024).astype(np.uint64))
    a["hkeys_u64_1024"] = keys.view(np.uint32).copy()
    a["hq_u64_2048"] = q.astype(np.uint64).view(np.uint32).copy()
    a["lds128_quads"] = lds128_quads()
    return kernel_inputs.save(out, a)

