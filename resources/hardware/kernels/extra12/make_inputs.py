"""The input arrays of the kernels of extra12/ (their ``// input:`` lines), from fixed seeds
(what every recipe promises: ``scripts/kernel_inputs.py``).

Only int32, uint32, uint8 and float32 arrays are written; the one kernel that reads 16-bit samples
(``cub_histogram_ushort``) gets them packed two to a ``uint32`` (little-endian, so the bytes are
those of the ``unsigned short`` array it reads).

usage: python scripts/kernel_inputs.py extra12 [--out DIR]  (default: this folder)
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

import kernel_inputs  # scripts/kernel_inputs.py: what every batch's recipe shares


# the dictionary of trie_walk_words: some frequent words of the text, some prefixes of others
# ("the" / "then" / "there" / "these"), some that never occur
DICT = ("the then there these their them they this that than thread block bank warp was with word "
        "were what which shared share memory kernel conflict of on one only or our out zebra quartz").split()


def trie(words: list[str]) -> np.ndarray:
    """A trie of lower-case words as a node table: node * 27 + letter is the child's node (0: none,
    the root is node 0 and never a child), node * 27 + 26 is 1 where a word ends."""
    nodes = [[0] * 27]
    for w in words:
        n = 0
        for ch in w:
            c = ord(ch) - ord("a")
            if nodes[n][c] == 0:
                nodes.append([0] * 27)
                nodes[n][c] = len(nodes) - 1
            n = nodes[n][c]
        nodes[n][26] = 1
    return np.array(nodes, np.int32).ravel()


def make(out: Path) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(20251212)
    a = kernel_inputs.normal_four(rng)
    # geometric byte values: many small keys, few large ones (runs of equal keys for the sort)
    a["bytes_2048"] = np.minimum(rng.geometric(0.03, 2048) - 1, 255).astype(np.uint8)
    # 16-bit samples 0..511, two to a word: a mix of a normal bump and a flat floor
    u16 = np.where(rng.random(1024) < 0.7, np.clip(rng.normal(200, 40, 1024), 0, 511),
                   rng.integers(0, 512, 1024)).astype(np.uint16)
    a["ushort_pairs_512"] = u16.view(np.uint32).copy()
    a["text_4096"] = kernel_inputs.zipf_text(rng, 4096, kernel_inputs.WORDS, kernel_inputs.punctuated)
    a["trie_dict"] = trie(DICT)
    a["stream_4096"] = rng.integers(0, 1 << 20, 4096, dtype=np.int32)
    # 256 nodes in 12 clusters: most edges inside a cluster, a few across; 256 edges as (u, v) pairs
    cluster = rng.integers(0, 12, 256)
    edges = []
    while len(edges) < 256:
        u = int(rng.integers(0, 256))
        same = np.flatnonzero(cluster == cluster[u]) if rng.random() < 0.9 else np.arange(256)
        v = int(rng.choice(same))
        if u != v:
            edges.append((u, v))
    a["uf_edges_512"] = np.array(edges, np.int32).ravel()
    a["bfs_row_ptr_257"], a["bfs_col"] = kernel_inputs.grid_graph(rng, 256, 256 // 8)
    # ELL: 256 rows, up to 8 entries a row, stored slot-major ([slot][row]); -1 pads a short row
    ell_col = np.full((8, 256), -1, np.int32)
    ell_val = np.zeros((8, 256), np.float32)
    for r in range(256):
        k = int(rng.integers(1, 9))
        cols = np.sort(rng.choice(1024, size=k, replace=False))
        ell_col[:k, r] = cols
        ell_val[:k, r] = rng.normal(0, 1, k)
    a["ell_col_8x256"], a["ell_val_8x256"] = ell_col.ravel(), ell_val.ravel()
    p = 1.0 / np.arange(1, 17) ** 0.8
    a["digits_512"] = rng.choice(16, size=512, p=p / p.sum()).astype(np.int32)
    a["series_4096"] = np.cumsum(rng.normal(0, 1, 4096)).astype(np.float32)  # a random walk
    runs = np.repeat(rng.integers(0, 100, 1024, dtype=np.int32), rng.integers(1, 13, 1024))
    a["runs_1024"] = runs[:1024].astype(np.int32)
    a["cuckoo_keys_512"] = rng.choice(np.arange(1, 1 << 24), size=512, replace=False).astype(np.int32)
    a["sorted_1024"] = np.sort(rng.choice(1 << 16, size=1024, replace=False)).astype(np.int32)
    # queries: half of them keys of the table, half anywhere in (and a little outside) its range
    q = np.where(rng.random(1024) < 0.5, rng.choice(a["sorted_1024"], 1024),
                 rng.integers(-1000, (1 << 16) + 1000, 1024))
    a["queries_1024"] = q.astype(np.int32)
    # gather indices into a 512-entry table: mostly in range, some negative, some past the end
    a["gather_idx_1024"] = rng.integers(-64, 576, 1024, dtype=np.int32)
    # pairs (x, y) in 0..31 with y close to x: a diagonal band of a 32 x 32 histogram
    x = rng.integers(0, 32, 1024)
    y = np.clip(x + np.rint(rng.normal(0, 3, 1024)), 0, 31)
    a["pairs_2048"] = np.stack([x, y], 1).astype(np.int32).ravel()
    # linked lists: 256 nodes cut into lists of 1 to 24 in a random order; next[i] = -1 ends a list
    order = rng.permutation(256)
    nxt = np.full(256, -1, np.int32)
    i = 0
    while i < 256:
        n = int(rng.integers(1, 25))
        seg = order[i:i + n]
        nxt[seg[:-1]] = seg[1:]
        i += n
    a["next_256"] = nxt
    a["rl_lengths_256"] = rng.integers(1, 7, 256, dtype=np.int32)  # 1..6 (CUB allows 0 only at the end)
    a["perm_512"] = rng.permutation(512).astype(np.int32)

    return kernel_inputs.save(out, a, max_bytes=64 * 1024 - 1)

