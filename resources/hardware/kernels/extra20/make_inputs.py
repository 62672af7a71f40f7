"""The input arrays of the kernels of extra20/ (their ``// input:`` lines), from fixed seeds
(what every recipe promises: ``scripts/kernel_inputs.py``).

usage: python scripts/kernel_inputs.py extra20 [--out DIR]  (default: this folder)
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

import kernel_inputs  # scripts/kernel_inputs.py: what every batch's recipe shares

P = 998244353  # NTT prime: 119 * 2**23 + 1, primitive root 3


def ntt_roots() -> np.ndarray:
    """w**k mod P for k < 256, w a primitive 512th root of unity (3 ** ((P - 1) / 512))."""
    w = pow(3, (P - 1) // 512, P)
    return np.array([pow(w, k, P) for k in range(256)], np.uint32)


def aho_corasick(patterns: list[str]) -> tuple[np.ndarray, np.ndarray]:
    """The full goto table (states x 4, failure links folded in) and per-state match counts
    (suffix matches included) of an Aho-Corasick automaton over ACGT, padded to 64 states."""
    code = {c: i for i, c in enumerate("ACGT")}
    go, out = [[-1] * 4], [0]
    for pat in patterns:
        s = 0
        for ch in pat:
            c = code[ch]
            if go[s][c] < 0:
                go[s][c] = len(go)
                go.append([-1] * 4)
                out.append(0)
            s = go[s][c]
        out[s] += 1
    fail, queue = [0] * len(go), []
    for c in range(4):
        if go[0][c] < 0:
            go[0][c] = 0
        else:
            queue.append(go[0][c])
    while queue:
        s = queue.pop(0)
        out[s] += out[fail[s]]
        for c in range(4):
            u = go[s][c]
            if u < 0:
                go[s][c] = go[fail[s]][c]
            else:
                fail[u] = go[fail[s]][c]
                queue.append(u)
    assert len(go) <= 64
    g = np.zeros((64, 4), np.int32)
    g[:len(go)] = go
    o = np.zeros(64, np.int32)
    o[:len(out)] = out
    return g.ravel(), o


def wavelet_matrix(seq: np.ndarray, levels: int = 3) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A wavelet matrix of ``seq`` (values < 2**levels): per level the bitmap (32 words), prefix
    counts of ones before each word (33), and the number of zeros."""
    bits, pre, zeros, cur = [], [], [], seq.copy()
    for lev in range(levels):
        b = (cur >> (levels - 1 - lev)) & 1
        words = np.packbits(b.astype(np.uint8).reshape(-1, 32)[:, ::-1], axis=1).view(">u4").ravel()
        bits.append(words.astype(np.uint32))
        ones = b.reshape(-1, 32).sum(1)
        pre.append(np.concatenate([[0], np.cumsum(ones)]).astype(np.int32))
        zeros.append(int((b == 0).sum()))
        cur = np.concatenate([cur[b == 0], cur[b == 1]])
    return np.concatenate(bits), np.concatenate(pre), np.array(zeros, np.int32)


def yield_trips() -> dict[str, np.ndarray]:
    """The YIELD probe's trip counts (``yield/``): per pattern, 4 rounds of 32 lanes, the pattern in
    round 1 only (``_once``, the other rounds 0) or in every round (``_each``)."""
    lane = np.arange(32)

    def runs(*spec: tuple[int, int]) -> np.ndarray:  # (lanes, trips) in lane order
        return np.concatenate([np.full(n, t) for n, t in spec])

    pats = {
        "uniform1": np.ones(32, int), "lane0_1": (lane == 0).astype(int), "half_1_0": (lane < 16).astype(int),
        "mod2": lane % 2, "mod4": lane % 4, "lane15": lane & 15, "one5": (lane == 7) * 5,
        "all3_but0": (lane != 0) * 3, "exits_18_8_4_2": runs((18, 0), (8, 1), (4, 2), (2, 3)),
        "exits_2_4_8_18": runs((2, 0), (4, 1), (8, 2), (18, 3)), "exits_26_3_3": runs((26, 0), (3, 1), (3, 2)),
        "rand3": np.random.default_rng(5).integers(0, 4, 32),
    }
    zero = np.zeros(32, int)
    out = {}
    for name, p in pats.items():
        out[f"trips_{name}_once"] = np.concatenate([p, zero, zero, zero]).astype(np.int32)
        out[f"trips_{name}_each"] = np.concatenate([p, p, p, p]).astype(np.int32)
    return out


def make(out: Path) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(20260420)
    a = kernel_inputs.standard(rng)
    a["perm_1024"] = rng.permutation(1024).astype(np.int32)
    a["bytes_4096"] = rng.integers(0, 256, 4096).astype(np.uint8)
    a["idx_1024"] = rng.integers(0, 1024, 1024).astype(np.int32)
    a["ntt_roots_256"] = ntt_roots()
    a["csr_ptr_257"], a["csr_col"], a["csr_val"] = kernel_inputs.sparse_csr(rng, 256, 1024, 14)
    assert a["csr_ptr_257"][-1] <= 2048
    a["g_ptr_257"], a["g_col"] = kernel_inputs.undirected(rng, 256, 500, 2)
    assert a["g_ptr_257"][-1] <= 4096
    # cuckoo: 400 distinct keys (never the empty marker), queries 60 % present
    ck = rng.choice(np.arange(1, 1 << 31, 9973, dtype=np.int64), 512, replace=False).astype(np.uint32)
    a["ck_keys_512"] = ck
    a["ck_q_1024"] = np.where(rng.random(1024) < 0.6, rng.choice(ck[:400], 1024),
                              rng.integers(1, 1 << 31, 1024)).astype(np.uint32)
    # Robin Hood: 700 distinct nonzero 16-bit keys, queries 60 % present
    rh = rng.choice(np.arange(1, 1 << 16), 1024, replace=False).astype(np.uint32)
    a["rh_keys_1024"] = rh
    a["rh_q_1024"] = np.where(rng.random(1024) < 0.6, rng.choice(rh[:700], 1024),
                              rng.integers(1, 1 << 16, 1024)).astype(np.uint32)
    pats = ["ACGT", "GATTACA", "TTT", "CAC", "GGCG", "ACGTACGT", "TATA", "AAC"]
    a["ac_goto_256"], a["ac_out_64"] = aho_corasick(pats)
    dna = rng.choice(4, 4096, p=[0.3, 0.2, 0.2, 0.3])
    for s in rng.choice(4080 // 16, 24, replace=False) * 16 + 5:  # plant a few long patterns
        dna[s:s + 8] = [0, 1, 2, 3, 0, 1, 2, 3]
    a["dna_4096"] = dna.astype(np.uint8)
    a["uf_edges_768"] = rng.integers(0, 512, 768).astype(np.int32)
    seq = rng.choice(8, 1024, p=[0.3, 0.2, 0.15, 0.1, 0.1, 0.07, 0.05, 0.03])
    a["wm_bits_96"], a["wm_pre_99"], a["wm_zeros_3"] = wavelet_matrix(seq)
    a["wm_q_1024"] = (rng.integers(0, 8, 1024) | rng.integers(0, 1025, 1024) << 3).astype(np.int32)
    # text for LZ matching: repeated phrases over a small alphabet
    phrases = [rng.choice(np.frombuffer(b"abcd", np.uint8), int(n)) for n in rng.integers(3, 12, 24)]
    text = np.concatenate([phrases[int(i)] if rng.random() < 0.7 else rng.choice(np.frombuffer(b"abcdef", np.uint8), 3)
                           for i in rng.integers(0, 24, 400)])[:1024]
    a["lz_text_1024"] = text.astype(np.uint8)
    kernel_inputs.save(out / "yield", yield_trips())
    return kernel_inputs.save(out, a)

