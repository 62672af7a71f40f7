#!/usr/bin/env python3
"""Write the input arrays of resources/hardware/kernels/extra16/ (the ``// input: NAME = FILE.npy``
lines of its kernels): small, C-order, from one fixed seed, so the files in the repository can be
made again byte for byte. Each fills the start of its pointer parameter's buffer on the GPU (the
rest stays zero) and in the emulator (``--arg NAME=FILE.npy``).

Only int32, uint32, uint8 and float32 arrays are written; kernels that read 16-bit or 64-bit
values get them packed into ``uint32`` words (little-endian).

usage: python scripts/make_extra16_inputs.py [--out resources/hardware/kernels/extra16]
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "resources" / "hardware" / "kernels" / "extra16"


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
    ptr, col = [0], []
    for v in range(n):
        col += sorted(adj[v])
        ptr.append(len(col))
    return np.array(ptr, np.int32), np.array(col, np.int32)


def make(out: Path) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(20260216)
    a: dict[str, np.ndarray] = {}
    a["ints_1024"] = rng.integers(0, 1000, 1024, dtype=np.int32)
    a["keys_1024"] = rng.integers(-2**31, 2**31, 1024, dtype=np.int64).astype(np.int32)
    a["ukeys_1024"] = rng.integers(0, 2**32, 1024, dtype=np.uint64).astype(np.uint32)
    # small integers in float (sums exact in any order)
    a["floats_1024"] = rng.integers(-64, 65, 1024).astype(np.float32) * np.float32(0.25)
    a["normal_4096"] = rng.normal(0, 1, 4096).astype(np.float32)
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

    out.mkdir(parents=True, exist_ok=True)
    for name, arr in a.items():
        assert arr.nbytes <= 16 * 1024, name
        assert arr.dtype in (np.int32, np.uint32, np.uint8, np.float32), name
        np.save(out / f"{name}.npy", np.ascontiguousarray(arr))
    return a


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args()
    for name, arr in make(args.out).items():
        print(f"{name}.npy  {arr.dtype}  {arr.shape}")


if __name__ == "__main__":
    main()
