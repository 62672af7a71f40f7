#!/usr/bin/env python3
"""Each batch's input recipe, and what the recipes share.

A batch of measured kernels keeps its recipe beside its data, as
``resources/hardware/kernels/BATCH/make_inputs.py``: a ``make(out)`` that writes the arrays the
batch's ``// input: NAME = FILE.npy`` lines name. They are small and C-order, drawn from fixed seeds,
so the files in the repository can be made again byte for byte (``tests/test_kernel_inputs.py`` does,
into a temporary folder); each fills the start of its pointer parameter's buffer on the GPU (the rest
stays zero) and in the emulator (``--arg NAME=FILE.npy``). Here: writing them in the types and sizes
the measuring launcher takes, the generators several batches draw from, and the command line.

usage: python scripts/kernel_inputs.py [BATCH ...] [--out DIR]
    (no BATCH: every batch; --out DIR writes DIR/BATCH/ instead of the batch's own folder)
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Callable

import numpy as np

REPO = Path(__file__).resolve().parent.parent
#: where the measured kernels live, one folder a batch
KERNELS = REPO / "resources" / "hardware" / "kernels"

#: what ``measure_persass.py`` copies into a buffer as raw bytes, and the emulator reads back
DTYPES = (np.int32, np.uint32, np.uint8, np.float32)


def standard(rng: np.random.Generator) -> dict[str, np.ndarray]:
    """The arrays most batches start from, drawn in this order from ``rng``: ints, 32-bit keys
    signed and unsigned, small multiples of 1/4 as floats (their sums are exact in any order) and
    normal floats."""
    return {
        "ints_1024": rng.integers(0, 1000, 1024, dtype=np.int32),
        "keys_1024": rng.integers(-2**31, 2**31, 1024, dtype=np.int64).astype(np.int32),
        "ukeys_1024": rng.integers(0, 2**32, 1024, dtype=np.uint64).astype(np.uint32),
        "floats_1024": rng.integers(-64, 65, 1024).astype(np.float32) * np.float32(0.25),
        "normal_4096": rng.normal(0, 1, 4096).astype(np.float32),
    }



def normal_four(rng: np.random.Generator) -> dict[str, np.ndarray]:
    """The arrays extra12 and extra13 start from, drawn in this order: ints, normal floats, 32-bit
    keys signed and unsigned."""
    return {
        "ints_1024": rng.integers(0, 1000, 1024, dtype=np.int32),
        "floats_1024": rng.normal(0, 1, 1024).astype(np.float32),
        "keys_1024": rng.integers(-2**31, 2**31, 1024, dtype=np.int64).astype(np.int32),
        "ukeys_1024": rng.integers(0, 2**32, 1024, dtype=np.uint64).astype(np.uint32),
    }


def csr(adj: list[set[int]]) -> tuple[np.ndarray, np.ndarray]:
    """A graph's adjacency sets as CSR (int32 row pointers, sorted column indices per row)."""
    ptr, col = [0], []
    for nbrs in adj:
        col += sorted(nbrs)
        ptr.append(len(col))
    return np.array(ptr, np.int32), np.array(col, np.int32)


#: frequent English words, most frequent first, then words of the trade (for byte texts)
WORDS = ("the of and to in is that for it as was with be by on not he this are or his from at which "
         "but have an they you were her she there had all one word their we can been has more if no "
         "out so said what up its about into than them only other new some could time these two may "
         "then do first any like now my such make over our even most me state after also made many "
         "shared memory bank conflict warp thread block kernel").split()


def zipf_text(rng: np.random.Generator, n: int, words: list[str],
              then: Callable[[np.random.Generator, str], bytes]) -> np.ndarray:
    """``n`` English-like bytes: words drawn by Zipf's law over ``words`` (most frequent first),
    each written as ``then(rng, word)`` makes it (with what follows it)."""
    p = 1.0 / np.arange(1, len(words) + 1)
    out = bytearray()
    while len(out) < n:
        out += then(rng, words[rng.choice(len(words), p=p / p.sum())])
    return np.frombuffer(bytes(out[:n]), np.uint8).copy()


def punctuated(rng: np.random.Generator, word: str) -> bytes:
    """A word, then a space, or now and then a full stop, a comma or a newline."""
    r = rng.random()
    return word.encode() + (b". " if r < 0.06 else b", " if r < 0.12 else b"\n" if r < 0.16 else b" ")


def grid_graph(rng: np.random.Generator, n: int, long_edges: int) -> tuple[np.ndarray, np.ndarray]:
    """An undirected graph on n nodes: a 16-wide grid (4 neighbours, wrap-around in x) plus
    ``long_edges`` random tries at a long edge, as CSR with sorted neighbour lists."""
    adj: list[set[int]] = [set() for _ in range(n)]
    for v in range(n):
        r, c = divmod(v, 16)
        for u in (r * 16 + (c + 1) % 16, (r + 1) * 16 + c):
            if u < n:
                adj[v].add(u); adj[u].add(v)
    for _ in range(long_edges):
        a, b = rng.integers(0, n, 2)
        if a != b:
            adj[a].add(int(b)); adj[b].add(int(a))
    return csr(adj)


def sparse_csr(rng: np.random.Generator, rows: int, cols: int, max_nnz: int) -> tuple[np.ndarray, ...]:
    """A random sparse matrix in CSR: 0..max_nnz entries a row (skewed: most rows short), sorted
    distinct columns, values small multiples of 1/4."""
    ptr, col = [0], []
    for _ in range(rows):
        k = int(min(rng.geometric(0.22) - 1, max_nnz))
        col += sorted(rng.choice(cols, k, replace=False).tolist())
        ptr.append(len(col))
    val = rng.integers(-8, 9, len(col)).astype(np.float32) * np.float32(0.25)
    return np.array(ptr, np.int32), np.array(col, np.int32), val


def undirected(rng: np.random.Generator, n: int, extra: int, components: int) -> tuple[np.ndarray, np.ndarray]:
    """An undirected graph in CSR with sorted adjacency: ``components`` groups of nodes (a random
    node labelling), each a path plus ``extra`` random edges inside the group."""
    label = rng.permutation(n)
    groups = np.array_split(label, components)
    adj: list[set[int]] = [set() for _ in range(n)]
    for g in groups:
        for a, b in zip(g[:-1], g[1:]):
            adj[a].add(int(b)); adj[b].add(int(a))
        for _ in range(extra * len(g) // n):
            a, b = rng.choice(g, 2)
            if a != b:
                adj[a].add(int(b)); adj[b].add(int(a))
    return csr(adj)


def save(out: Path, arrays: dict[str, np.ndarray], max_bytes: int = 16 * 1024,
         dtypes: tuple[type, ...] = DTYPES) -> dict[str, np.ndarray]:
    """Write each array as ``out/NAME.npy`` (C order), refusing one too large or of a type the
    launcher does not take."""
    out.mkdir(parents=True, exist_ok=True)
    for name, arr in arrays.items():
        if arr.nbytes > max_bytes or arr.dtype not in dtypes:
            raise ValueError(f"{name}: {arr.dtype} x {arr.size} ({arr.nbytes} bytes); the launcher takes "
                             f"{', '.join(np.dtype(d).name for d in dtypes)} up to {max_bytes} bytes")
        np.save(out / f"{name}.npy", np.ascontiguousarray(arr))
    return arrays


def recipes(root: Path = KERNELS) -> dict[str, Path]:
    """Each batch's input recipe under ``root``, by its batch folder (relative, '/'-separated)."""
    return {p.parent.relative_to(root).as_posix(): p for p in sorted(root.rglob("make_inputs.py"))
            if "\ndef make(out" in p.read_text()}  # a recipe of this convention (triton/'s has its own)


def load_recipe(path: Path) -> ModuleType:
    """A batch's ``make_inputs.py`` as a module (its ``make(out)`` writes the batch's arrays)."""
    if str(Path(__file__).resolve().parent) not in sys.path:
        sys.path.insert(0, str(Path(__file__).resolve().parent))
    name = "make_inputs_" + path.parent.name
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise ImportError(f"{path}: not a Python module")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main(argv: list[str] | None = None) -> None:
    found = recipes()
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("batch", nargs="*", help=f"the batch folders (default: all of {', '.join(found)})")
    ap.add_argument("--out", type=Path, help="write DIR/BATCH/ instead of the batch's own folder")
    args = ap.parse_args(argv)
    unknown = [b for b in args.batch if b not in found]
    if unknown:
        ap.error(f"no recipe for {', '.join(unknown)} (batches with one: {', '.join(found)})")
    for batch in args.batch or list(found):
        out = args.out / batch if args.out else found[batch].parent
        arrays = load_recipe(found[batch]).make(out)
        print(f"{batch}: {len(arrays)} arrays written to {out}")


if __name__ == "__main__":
    main()
