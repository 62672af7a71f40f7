"""The input arrays of the kernels of extra13/ (their ``// input:`` lines), from fixed seeds
(what every recipe promises: ``scripts/kernel_inputs.py``).

Only int32, uint32, uint8 and float32 arrays are written; kernels that read 16-bit or 64-bit
values get them packed into ``uint32`` words (little-endian, so the bytes are those of the
``short`` / ``unsigned long long`` array the kernel reads).

usage: python scripts/kernel_inputs.py extra13 [--out DIR]  (default: this folder)
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

import kernel_inputs  # scripts/kernel_inputs.py: what every batch's recipe shares

WORDS = ("the of and to in is that for it as was with be by on not he this are or his from at which "
         "but have an they you were her she there had all one word their we can been has more if no "
         "out so said what up its about into than them only other new some could time these two may "
         "shared memory bank conflict warp thread block kernel").split()

HASH_SLOTS = 1024  # hash_join_probe: slot = (key * 0x9E3779B1) >> 22, linear probing


def hash_slot(k: int) -> int:
    return ((k * 0x9E3779B1) & 0xFFFFFFFF) >> 22


def make(out: Path) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(20260113)
    a = kernel_inputs.normal_four(rng)
    a["bytes_2048"] = np.minimum(rng.geometric(0.02, 2048) - 1, 255).astype(np.uint8)
    # 1024 short keys (both signs, many repeats) packed two to a word
    s16 = rng.integers(-300, 300, 1024).astype(np.int16)
    a["short_pairs_512"] = s16.view(np.uint32).copy()
    # 512 64-bit keys: random high words, a few distinct low words (ties in the low digits)
    hi = rng.integers(0, 2**32, 512, dtype=np.uint64)
    lo = rng.choice(np.array([0, 1, 0xFFFFFFFF, 12345], np.uint64), 512)
    a["u64_pairs_1024"] = ((hi << np.uint64(32)) | lo).astype(np.uint64).view(np.uint32).copy()
    a["text_4096"] = kernel_inputs.zipf_text(rng, 4096, WORDS, kernel_inputs.punctuated)
    # four 8-byte patterns, zero-padded: 'the ', 'shared', 'warp', 'zebra' (never occurs)
    pats = np.zeros((4, 8), np.uint8)
    for i, w in enumerate([b"the ", b"shared", b"warp", b"zebra"]):
        pats[i, :len(w)] = np.frombuffer(w, np.uint8)
    a["patterns_32"] = pats.ravel()
    # COO: 512 entries of a 128 x 256 matrix in random order, small integer values (exact sums)
    a["coo_row_512"] = np.minimum(rng.geometric(0.03, 512) - 1, 127).astype(np.int32)
    a["coo_col_512"] = rng.integers(0, 256, 512, dtype=np.int32)
    a["coo_val_512"] = rng.integers(-4, 5, 512, dtype=np.int32)
    # ELL, row-major ([row][slot]): 128 rows, up to 8 entries, -1 pads a short row
    ell_col = np.full((128, 8), -1, np.int32)
    ell_val = np.zeros((128, 8), np.float32)
    for r in range(128):
        k = int(rng.integers(1, 9))
        ell_col[r, :k] = np.sort(rng.choice(1024, size=k, replace=False))
        ell_val[r, :k] = rng.normal(0, 1, k)
    a["ell_col_128x8"], a["ell_val_128x8"] = ell_col.ravel(), ell_val.ravel()
    # hash join: a 1024-slot open-addressing table of 400 build keys (-1 empty), payloads, probes
    build = rng.choice(np.arange(1, 1 << 20), size=400, replace=False)
    table = np.full(HASH_SLOTS, -1, np.int64)
    for k in build:
        s = hash_slot(int(k))
        while table[s] != -1:
            s = (s + 1) % HASH_SLOTS
        table[s] = k
    a["ht_keys_1024"] = table.astype(np.int32)
    a["ht_vals_1024"] = np.where(table >= 0, rng.integers(0, 1000, HASH_SLOTS), 0).astype(np.int32)
    probes = np.where(rng.random(1024) < 0.5, rng.choice(build, 1024), rng.integers(1, 1 << 20, 1024))
    a["probe_keys_1024"] = probes.astype(np.int32)
    a["gc_row_ptr_257"], a["gc_col"] = kernel_inputs.grid_graph(rng, 256, 256 // 4)
    a["prio_256"] = rng.permutation(256).astype(np.int32)
    # 256 64-bit table entries as word pairs
    a["lut64_512"] = rng.integers(0, 2**32, 512, dtype=np.uint64).astype(np.uint32)
    a["perm_1024"] = rng.permutation(1024).astype(np.int32)
    # stack-machine programs: 128 threads x 24 ops, op codes 0..4 (0, 1 push; 2 add; 3 mul; 4 dup)
    a["ops_3072"] = rng.choice(5, size=3072, p=[0.3, 0.2, 0.2, 0.15, 0.15]).astype(np.int32)
    # Morton codes of points in a 32 x 32 grid, clustered around a few centres
    cx, cy = rng.integers(4, 28, 6), rng.integers(4, 28, 6)
    c = rng.integers(0, 6, 512)
    px = np.clip(cx[c] + np.rint(rng.normal(0, 3, 512)), 0, 31).astype(np.uint32)
    py = np.clip(cy[c] + np.rint(rng.normal(0, 3, 512)), 0, 31).astype(np.uint32)
    code = np.zeros(512, np.uint32)
    for b in range(5):
        code |= ((px >> b) & 1) << (2 * b) | ((py >> b) & 1) << (2 * b + 1)
    a["morton_512"] = code
    # a bitmap of 8192 bits with dense and sparse stretches
    dens = np.repeat(rng.choice([0.05, 0.5, 0.95], 32), 256)
    bits = (rng.random(8192) < dens).astype(np.uint8)
    a["bitmap_256"] = np.packbits(bits, bitorder="little").view(np.uint32).copy()

    return kernel_inputs.save(out, a)

