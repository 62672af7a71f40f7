"""The input arrays of the kernels of extra16/ (their ``// input:`` lines), from fixed seeds
(what every recipe promises: ``scripts/kernel_inputs.py``).

Only int32, uint32, uint8 and float32 arrays are written; kernels that read 16-bit or 64-bit
values get them packed into ``uint32`` words (little-endian).

usage: python scripts/kernel_inputs.py extra16 [--out DIR]  (default: this folder)
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

import kernel_inputs  # scripts/kernel_inputs.py: what every batch's recipe shares


def zipf(rng: np.random.Generator, n: int, k: int, s: float) -> np.ndarray:
    """n samples of 0..k-1 with P(i) ~ 1 / (i + 1)^s, the ranks shuffled over the values."""
    p = 1.0 / np.arange(1, k + 1) ** s
    ranks = rng.choice(k, size=n, p=p / p.sum())
    return rng.permutation(k)[ranks]


def graph_csr(rng: np.random.Generator, n: int, deg: int) -> tuple[np.ndarray, np.ndarray]:
    """A directed graph on n nodes: a ring (i -> i + 1) plus up to deg - 1 random out-edges a node
    (a few hubs get more), as CSR with sorted neighbour lists."""
    adj: list[set[int]] = [{(v + 1) % n} for v in range(n)]
    hubs = set(rng.choice(n, 4, replace=False).tolist())
    for v in range(n):
        k = int(rng.integers(0, deg)) + (12 if v in hubs else 0)
        adj[v] |= set(rng.integers(0, n, k).tolist()) - {v}
    return kernel_inputs.csr(adj)


def lds64_cases(rng: np.random.Generator) -> np.ndarray:
    """lds64_partial_mask_probe: 16 cases of 32 lane indices into a shared double[1024] (-1: the
    lane does not load). Written after ell_colmajor_double_x to find when an 8-byte load whose
    active lanes all have inactive (or equal) neighbours is served in one phase for the warp."""
    def distinct_slots(lanes: list[int]) -> list[int]:
        slots = rng.permutation(16)[:len(lanes)] if len(lanes) <= 16 else None
        return [int(s + 16 * rng.integers(0, 64)) for s in slots]
    c = np.full((16, 32), -1, np.int64)
    # ell_colmajor_double_x, instruction 287, warps 0 and 2 (byte addresses less 1024, over 8)
    w0 = {0: 2104, 3: 2896, 8: 4440, 11: 4240, 13: 2968, 17: 4544, 18: 1080, 21: 1048, 23: 4672, 27: 3112,
          28: 2184, 31: 4056}
    w2 = {0: 2296, 4: 4464, 7: 1528, 9: 2944, 13: 1232, 14: 1464, 18: 2016, 20: 1560, 21: 3744, 24: 1368,
          27: 1960, 30: 1736}
    for i, w in ((0, w0), (1, w2)):
        for lane, addr in w.items():
            c[i, lane] = (addr - 1024) // 8
    m0 = sorted(w0)
    c[2, m0] = distinct_slots(m0)                     # warp 0's lanes, distinct slots
    odd = list(range(1, 32, 2))
    c[3, odd] = distinct_slots(odd)                   # odd lanes, random rows, distinct slots
    even = list(range(0, 32, 2))
    c[4, even] = distinct_slots(even)                 # even lanes, likewise
    mixed = [2 * k + int(rng.integers(0, 2)) for k in range(16)]
    c[5, mixed] = distinct_slots(mixed)               # one lane of every pair, mixed parity
    sparse = [0, 3, 9, 10, 16, 19, 25, 30]
    c[6, sparse] = distinct_slots(sparse)             # mixed parity, empty pairs
    c[7, [0, 8, 16, 24]] = 5                          # one word, lanes 0, 8, 16, 24 (measured before: merged)
    pair = rng.integers(0, 1024, 16)
    c[8] = np.repeat(pair, 2)                         # every lane, i and i^1 on one word
    c[9, m0] = np.arange(len(m0)) + 64                # warp 0's lanes, consecutive words
    c[10, :16] = np.arange(16) * 17 % 16 + 128        # half-warp 0 only
    c[11, [1, 17]] = [3, 36]                          # lanes 1 and 17, two slots
    c[12, [3, 20]] = [7, 40]                          # lanes 3 and 20, two slots
    c[13, [0, 2, 16]] = [1, 66, 131]                  # lanes 0, 2 (both even) and 16
    quads = [q for k in range(0, 32, 4) for q in (k, k + 1)]
    c[14, quads] = distinct_slots(quads)              # lanes 4k, 4k+1: i^1 differs, i^2 inactive
    c[15, [1, 3, 5, 7, 17, 19, 21, 23]] = [0, 1, 2, 3, 4, 5, 6, 7]  # odd lanes of two quarter... consecutive
    return c.astype(np.int32).ravel()


def make(out: Path) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(20260216)
    a = kernel_inputs.standard(rng)
    # histogram inputs: Zipf-like bytes (256 values, s = 1.1), uniform ints, Zipf over 64 values
    a["zipf_bytes_4096"] = zipf(rng, 4096, 256, 1.1).astype(np.uint8)
    a["uniform_4096"] = rng.integers(0, 1 << 20, 4096, dtype=np.int32)
    a["zipf64_2048"] = zipf(rng, 2048, 64, 1.3).astype(np.int32)
    # hash keys: 768 keys from 300 distinct values (duplicates), a few that hash alike
    distinct = rng.choice(np.arange(1, 1 << 24), 300, replace=False)
    a["hash_keys_768"] = rng.choice(distinct, 768).astype(np.int32)
    a["hash_queries_512"] = np.where(rng.random(512) < 0.6, rng.choice(distinct, 512),
                                     rng.integers(1, 1 << 24, 512)).astype(np.int32)
    # sorted table with runs of equal values, queries inside and outside its range
    a["sorted_1024"] = np.sort(rng.integers(0, 3000, 1024)).astype(np.int32)
    a["queries_1024"] = rng.integers(-100, 3100, 1024).astype(np.int32)
    a["perm_1024"] = rng.permutation(1024).astype(np.int32)
    # a permutation of 256 with a few long cycles (one of 128, one of 64, the rest short)
    order = rng.permutation(256)
    p = np.arange(256)
    start = 0
    for L in (128, 64, 32, 16, 8, 4, 2, 1, 1):
        cyc = order[start:start + L]
        p[cyc] = np.roll(cyc, -1)
        start += L
    a["cycles_256"] = p.astype(np.int32)
    # CSR 256 x 256, 1..20 entries a row (skewed), columns sorted, small integer values
    rows = np.minimum(rng.geometric(0.15, 256), 20)
    ptr = np.concatenate([[0], np.cumsum(rows)]).astype(np.int32)
    col = np.concatenate([np.sort(rng.choice(256, r, replace=False)) for r in rows]).astype(np.int32)
    a["csr_row_ptr_257"], a["csr_col"] = ptr, col
    a["csr_val"] = rng.integers(-3, 4, len(col)).astype(np.float32)
    # ELL, column-major ([slot][row]): 256 rows, up to 6 entries, -1 pads (short rows clustered)
    ell_col = np.full((6, 256), -1, np.int32)
    ell_val = np.zeros((6, 256), np.float32)
    for r in range(256):
        k = int(rng.integers(1, 7)) if r % 64 < 48 else 6
        ell_col[:k, r] = rng.choice(512, size=k, replace=False)
        ell_val[:k, r] = rng.integers(-4, 5, k)
    a["ell_col_6x256"], a["ell_val_6x256"] = ell_col.ravel(), ell_val.ravel()
    a["bfs_row_ptr_513"], a["bfs_col"] = graph_csr(rng, 512, 4)
    # indices for indirect loads: mixed strides and clusters over 0..1023
    base = rng.integers(0, 1024, 1024)
    clus = (rng.integers(0, 8, 1024) * 128 + rng.integers(0, 4, 1024) * 32) % 1024
    a["idx_1024"] = np.where(rng.random(1024) < 0.5, base, clus).astype(np.int32)
    # an Eytzinger-ordered BST of 1023 sorted keys
    keys = np.sort(rng.choice(np.arange(0, 100000), 1023, replace=False))
    eyt = np.zeros(1024, np.int64)
    it = iter(keys.tolist())

    def fill(k: int) -> None:
        if k <= 1023:
            fill(2 * k)
            eyt[k] = next(it)
            fill(2 * k + 1)
    fill(1)
    a["eytzinger_1024"] = eyt.astype(np.int32)
    a["bst_queries_1024"] = rng.integers(0, 100000, 1024).astype(np.int32)
    # histogram edges for float binning: 33 ascending edges (uneven widths)
    a["edges_33"] = np.sort(np.concatenate([[-4.0, 4.0], rng.normal(0, 1.2, 31)])).astype(np.float32)
    # row and column permutations of 32 (for the permuted tile)
    a["perm32_64"] = np.concatenate([rng.permutation(32), rng.permutation(32)]).astype(np.int32)
    a["bytes_2048"] = rng.integers(0, 256, 2048).astype(np.uint8)

    a["lds64_cases_512"] = lds64_cases(np.random.default_rng(20260217))

    return kernel_inputs.save(out, a)

