"""Search candidate layouts for a pattern's shared arrays and rank them by what the kernel pays.

The question the advisor answers: *what is the cheapest layout that removes the conflict?* For
every shared array the pattern touches it generates candidate layouts (row padding, XOR swizzles
of one index by another, CuTe ``Swizzle<B,M,S>``, the remap ``i + i / k``), moves every lane's
element index through each candidate, and counts wavefronts for **all candidates in one engine
call** (:func:`~bankexplorer.model.engine.count_wavefronts` on one big batch): the pattern is
expanded once, since the element each lane touches does not depend on the layout.

A candidate that puts any access out of bounds or misaligns it is rejected (the engine reports
an error for that warp instruction). Survivors are ranked by total kernel wavefronts (repeat
counts included), then by the extra shared memory the layout costs, then by how simple it is.
Every instruction of an array counts together, loads and stores, all warps and loop iterations:
a layout that helps the reads but breaks the writes is seen as such.
"""

from __future__ import annotations

import hashlib

import time
from dataclasses import dataclass, field, replace

import numpy as np

from ..model.analysis import Analysis, analyze
from ..model.engine import WarpBatch, count_wavefronts
from ..model.errors import BankExplorerError
from ..model.layout import SharedArray, Transform
from ..model.pattern import Pattern
from .occupancy import DEFAULT_GPU, GPU, Occupancy, gpu as gpu_preset, occupancy

FAMILIES = ("current", "padding", "xor", "cute", "remap", "combined")
#: recorded warp instructions (an imported kernel's) the advisor ranks layouts over: about 15 s and
#: 600 MB (40,000 rows took 6.7 GB when every candidate's addresses were kept at once)
MAX_ADVISE_ROWS = 100_000
MAX_BATCH_ROWS = 1 << 18  # one engine call per this many warp instructions (memory, not speed: 1 << 21 took 1.7 GB)


@dataclass(frozen=True)
class Candidate:
    """One layout change: new versions of some arrays (by index into ``pattern.arrays``)."""

    family: str
    label: str
    changes: tuple[tuple[int, SharedArray], ...]

    def apply(self, pattern: Pattern) -> Pattern:
        """The pattern with this layout; arrays after a grown one move up (by whole bank rows, so
        their own bank mapping does not change) when they would overlap."""
        p = pattern
        for k, new in self.changes:  # an array keeps its place; only those after it may move
            p = _replace_array(p, k, replace(new, base=p.arrays[k].base))
        return p


@dataclass(frozen=True)
class Ranked:
    """A candidate with its cost: what the advisor's table shows."""

    candidate: Candidate
    wavefronts: int  # kernel wavefronts, x repeat counts
    ideal: int  # kernel ideal: fewest wavefronts any layout of the same data could take
    extra_bytes: int  # shared bytes the arrays' layouts add over plain, unpadded arrays
    shared_bytes: int  # shared memory of the whole block with this layout
    occupancy: Occupancy
    current: bool = False  # the pattern's own layout

    @property
    def label(self) -> str:
        return self.candidate.label

    @property
    def family(self) -> str:
        return self.candidate.family

    @property
    def conflict_free(self) -> bool:
        return self.wavefronts <= self.ideal

    @property
    def blocks_per_sm(self) -> int:
        return self.occupancy.blocks

    def to_json(self) -> dict:
        return {
            "family": self.family,
            "label": self.label,
            "current": self.current,
            "wavefronts": self.wavefronts,
            "ideal": self.ideal,
            "conflict_free": self.conflict_free,
            "extra_bytes": self.extra_bytes,
            "shared_bytes": self.shared_bytes,
            "blocks_per_sm": self.occupancy.blocks,
            "occupancy_limiter": self.occupancy.limiter,
            "arrays": [_array_json(a) for _, a in self.candidate.changes],
        }


@dataclass(frozen=True)
class PaddingPoint:
    """One point of the occupancy chart: padding of one array against blocks per SM."""

    padding: int
    shared_bytes: int
    blocks: int
    wavefronts: int | None  # None: this padding breaks an access (misaligned)
    ideal: int | None = None  # the kernel's ideal with this padding (None: not costed)

    @property
    def conflict_free(self) -> bool:
        return self.wavefronts is not None and self.ideal is not None and self.wavefronts <= self.ideal


@dataclass
class Advice:
    """The ranked candidates for one pattern, best first, and what the search cost."""

    pattern: Pattern
    gpu: GPU
    current: Ranked | None  # None when the current layout has invalid accesses
    ranked: list[Ranked]
    ideal: int
    generated: int  # candidate layouts generated
    distinct: int  # after merging candidates that put every lane on the same address
    rejected: int  # distinct candidates with an out-of-bounds or misaligned access
    seconds: float
    curves: dict[str, list[PaddingPoint]] = field(default_factory=dict)  # per 2-D+ array name

    @property
    def best(self) -> Ranked | None:
        return self.ranked[0] if self.ranked else None

    def with_gpu(self, g: GPU) -> "Advice":
        """The same ranking for another GPU: only blocks per SM change (the order never depends
        on the GPU), so switching presets in the window needs no new search."""
        threads = self.pattern.threads

        def occ(r: Ranked) -> Ranked:
            return replace(r, occupancy=occupancy(g, threads, r.shared_bytes))

        ranked = [occ(r) for r in self.ranked]
        at = next((j for j, r in enumerate(self.ranked) if r is self.current), None)
        current = ranked[at] if at is not None else (occ(self.current) if self.current is not None else None)
        curves = {name: [replace(pt, blocks=occupancy(g, threads, pt.shared_bytes).blocks) for pt in pts]
                  for name, pts in self.curves.items()}
        return replace(self, gpu=g, ranked=ranked, current=current, curves=curves)

    @property
    def reaches_ideal(self) -> bool:
        return any(r.conflict_free for r in self.ranked)

    def shortlist(self, n: int | None = 10) -> list[Ranked]:
        """The ranking without candidates another of the same family beats or equals on both
        wavefronts and bytes (padding 3 after padding 1, a second swizzle with the same cost):
        what a table should show. The current layout always stays."""
        out: list[Ranked] = []
        for r in self.ranked:
            if not r.current and any(o.family == r.family and o.wavefronts <= r.wavefronts
                                     and o.extra_bytes <= r.extra_bytes for o in out):
                continue
            out.append(r)
            if n is not None and len(out) >= n:
                break
        return out

    def summary(self) -> str:
        """One or two sentences a person reads first."""
        b = self.best
        if b is None:
            return "No candidate layout keeps every access in bounds and aligned."
        cur = self.current
        if cur is not None and cur.conflict_free and b.wavefronts >= cur.wavefronts:
            msg = f"The current layout already reaches the ideal ({cur.wavefronts:,} wavefronts)."
            if b is not cur and b.extra_bytes < cur.extra_bytes:
                msg += f" {b.label} does too with {cur.extra_bytes - b.extra_bytes:,} fewer bytes."
            return msg
        if b.conflict_free:
            cost = f"{b.extra_bytes:,} extra bytes" if b.extra_bytes else "no extra memory"
            was = f" (now {cur.wavefronts:,})" if cur is not None else ""
            return f"Best: {b.label} reaches the ideal of {b.ideal:,} wavefronts{was} for {cost}."
        over = b.wavefronts / b.ideal if b.ideal else 0.0
        if b.current:
            return (f"No candidate reaches the ideal of {b.ideal:,} wavefronts, and none beats the current "
                    f"layout ({b.wavefronts:,} wavefronts, {over:.2f}x the ideal).")
        return (f"No candidate reaches the ideal of {b.ideal:,} wavefronts. The best, {b.label}, takes "
                f"{b.wavefronts:,} ({over:.2f}x the ideal)"
                + (f"; the current layout takes {cur.wavefronts:,}." if cur is not None else "."))

    def to_json(self, top: int | None = None, everything: bool = False) -> dict:
        """``everything``: every valid candidate in rank order; otherwise the shortlist."""
        rows = self.ranked if everything else self.shortlist(top)
        if everything and top is not None:
            rows = rows[:top]
        return {
            "pattern": self.pattern.name,
            "gpu": {"key": self.gpu.key, "name": self.gpu.name},
            "threads": self.pattern.threads,
            "ideal": self.ideal,
            "reaches_ideal": self.reaches_ideal,
            "summary": self.summary(),
            "current": self.current.to_json() if self.current else None,
            "candidates": [r.to_json() for r in rows],
            "generated": self.generated,
            "distinct": self.distinct,
            "rejected": self.rejected,
            "seconds": round(self.seconds, 4),
        }


# ---- pattern surgery ---------------------------------------------------------------------------
def plain(arr: SharedArray) -> SharedArray:
    return replace(arr, padding=0, transform=Transform())


def _replace_array(p: Pattern, k: int, new: SharedArray) -> Pattern:
    old = p.arrays[k]
    old_end, new_end = old.base + old.nbytes, new.base + new.nbytes
    arrays = list(p.arrays)
    arrays[k] = new
    later = [j for j, a in enumerate(arrays) if j != k and a.base >= old_end]
    if new_end > old_end and later:
        first = min(arrays[j].base for j in later)
        if new_end > first:
            row = max(p.hardware.row_bytes, 16)
            shift = -(-(new_end - first) // row) * row
            for j in later:
                arrays[j] = replace(arrays[j], base=arrays[j].base + shift)
    return replace(p, arrays=tuple(arrays))


def _array_json(a: SharedArray) -> dict:
    d: dict = {"name": a.name, "declaration": a.declaration(), "padding": a.padding, "base": a.base}
    if a.transform.kind != "none":
        d["transform"] = {"kind": a.transform.kind, **a.transform.as_dict()}
    return d


def extra_bytes(p: Pattern) -> int:
    return sum(a.nbytes - plain(a).nbytes for a in p.arrays)


# ---- candidate generation ----------------------------------------------------------------------
def _pow2_upto(n: int, start: int = 1):
    v = start
    while v <= n:
        yield v
        v *= 2


def _log2(n: int) -> int:
    return n.bit_length() - 1


def _index_name(arr: SharedArray, d: int) -> str:
    if arr.ndim >= 2 and d == arr.ndim - 1:
        return "col"
    if arr.ndim >= 2 and d == arr.ndim - 2:
        return "row"
    return f"i{d}"


def padding_candidates(arr: SharedArray, k: int, max_padding: int) -> list[Candidate]:
    if arr.ndim < 2:
        return []
    base = plain(arr)
    return [
        Candidate("padding", f"padding {p}: {replace(base, padding=p).declaration()}" if p else
                  f"no padding: {base.declaration()}", ((k, replace(base, padding=p)),))
        for p in range(0, max_padding + 1)
    ]


def xor_candidates(arr: SharedArray, k: int, span: int) -> list[Candidate]:
    """``index[t] ^= ((index[s] / m) % q) * r`` for every ordered pair of dimensions, with q, r, m
    powers of two such that the XOR stays inside dimension t (``dims[t] % (q * r) == 0``) and,
    along the last dimension, keeps each lane's vector of ``span`` elements together (r >= span)."""
    out: list[Candidate] = []
    base = plain(arr)
    for t in range(arr.ndim):
        nt = arr.dims[t]
        unit = span if t == arr.ndim - 1 else 1
        for s in range(arr.ndim):
            if s == t:
                continue
            ns, src = arr.dims[s], _index_name(arr, s)
            for m in _pow2_upto(max(ns // 2, 0)):
                values = -(-ns // m)  # distinct values of index[s] / m
                term = src if m == 1 else f"({src} / {m})"
                for q in _pow2_upto(nt, 2):
                    if q // 2 >= values:  # a larger modulus changes nothing
                        break
                    for r in _pow2_upto(nt // q, unit):
                        if nt % (q * r):
                            continue
                        e = term if q >= values else (f"{src} % {q}" if m == 1 else f"{term} % {q}")
                        if r > 1:
                            e = f"({e}) * {r}" if q < values or m > 1 else f"{e} * {r}"
                        tr = Transform.make("xor", target=t, expr=e)
                        label = f"XOR {_index_name(arr, t)} ^= {e}"
                        out.append(Candidate("xor", label, ((k, replace(base, transform=tr)),)))
    return out


def cute_candidates(arr: SharedArray, k: int, span: int) -> list[Candidate]:
    """``Swizzle<B,M,S>`` on element offsets for every B >= 1, S >= B and M with the source bits
    inside the array (a swizzle of bits the offsets never set does nothing) and M >= log2(span),
    so that vectors stay contiguous. On byte offsets the same swizzle is ``Swizzle<B,M+log2(size),S>``,
    named in the label; generating it again would only repeat the same addresses."""
    base = plain(arr)
    size = arr.numel
    bits = (size - 1).bit_length()
    ebits = _log2(arr.elem_size)
    out = []
    for B in range(1, bits):
        for S in range(B, bits):
            for M in range(_log2(span), bits - S - B + 1):
                if size % (1 << (M + B)):  # would move an offset past the end of the array
                    continue
                tr = Transform.make("cute", B=B, M=M, S=S, unit="element")
                label = f"Swizzle<{B},{M},{S}> on elements (= Swizzle<{B},{M + ebits},{S}> on bytes)"
                out.append(Candidate("cute", label, ((k, replace(base, transform=tr)),)))
    return out


def remap_candidates(arr: SharedArray, k: int, span: int) -> list[Candidate]:
    """``i + i / k`` (one spare element every k): padding for any shape, 1-D arrays included. For
    vector accesses the gap is a whole vector (``i + i / k * span``) so they stay aligned."""
    base = plain(arr)
    out = []
    for q in _pow2_upto(arr.numel // 2, max(span, 2)):
        e = f"i + i / {q}" if span == 1 else f"i + i / {q} * {span}"
        tr = Transform.make("remap", expr=e)
        out.append(Candidate("remap", f"remap i -> {e}", ((k, replace(base, transform=tr)),)))
    return out


def _remap_bytes(arr: SharedArray) -> int:
    """Footprint of the generated remaps without mapping every element (they are monotonic)."""
    e = str(arr.transform.get("expr"))
    parts = e.replace("i + i / ", "").split(" * ")
    q, step = int(parts[0]), int(parts[1]) if len(parts) > 1 else 1
    n = arr.numel
    return (n - 1 + (n - 1) // q * step + 1) * arr.elem_size


def _candidate_nbytes(c: Candidate, arr: SharedArray) -> int:
    if c.family == "remap":
        return _remap_bytes(arr)
    return arr.nbytes_padded()  # padding grows rows; xor and cute permute inside the array



class _Sizes:
    """Extra and total shared bytes of the pattern with a candidate, without building the pattern:
    ``Candidate.apply`` would map every element of a swizzled array to measure its footprint, for
    each of thousands of candidates. Follows :func:`_replace_array` (later arrays move up by whole
    bank rows when a grown one would overlap them); tests check it against ``apply``."""

    def __init__(self, pattern: Pattern):
        self.pattern = pattern
        self.bases = [a.base for a in pattern.arrays]
        self.sizes = [a.nbytes for a in pattern.arrays]
        self.plain = [plain(a).nbytes_padded() for a in pattern.arrays]
        self.row = max(pattern.hardware.row_bytes, 16)

    def nbytes(self, k: int, new: SharedArray) -> int:
        if new is self.pattern.arrays[k]:
            return self.sizes[k]
        kind = new.transform.kind
        if kind in ("none", "xor", "cute"):  # generated swizzles permute inside the array
            return new.nbytes_padded()
        if kind == "remap":
            return _remap_bytes(new)
        return new.nbytes

    def of(self, c: Candidate) -> tuple[int, int]:
        """(extra bytes, shared bytes) with ``c`` applied."""
        bases, sizes = list(self.bases), list(self.sizes)
        for k, new in c.changes:
            old_end = bases[k] + sizes[k]
            sizes[k] = self.nbytes(k, new)
            new_end = bases[k] + sizes[k]
            later = [j for j in range(len(bases)) if j != k and bases[j] >= old_end]
            if new_end > old_end and later:
                first = min(bases[j] for j in later)
                if new_end > first:
                    shift = -(-(new_end - first) // self.row) * self.row
                    for j in later:
                        bases[j] += shift
        extra = sum(sz - pl for sz, pl in zip(sizes, self.plain))
        return extra, max((b + sz for b, sz in zip(bases, sizes)), default=0)

# ---- evaluation --------------------------------------------------------------------------------
@dataclass
class _ArrayRows:
    """The warp instructions of one array: what the engine needs, minus the addresses."""

    k: int
    rows: np.ndarray  # analysis rows
    idx: tuple[np.ndarray, ...]  # element index per dimension, (R, W), 0 where not served
    served: np.ndarray  # (R, W) lanes with an element index
    span: int  # elements of the widest access (vectors and ldmatrix rows must stay contiguous)
    elems: tuple[np.ndarray, ...]  # the distinct elements touched, index per dimension
    which: np.ndarray  # (R, W) position of each lane's element in ``elems``


def _array_rows(an: Analysis) -> list[_ArrayRows]:
    p = an.pattern
    arrays = p.array_map()
    names = [a.name for a in p.arrays]
    out = []
    for k, arr in enumerate(p.arrays):
        ks = [j for j, ins in enumerate(p.instructions) if not ins.explicit and ins.array == arr.name]
        if not ks:
            continue
        rows = np.flatnonzero(np.isin(an.source, ks))
        li = an.lane_index[rows]
        served = li[:, :, 0] >= 0
        idx = tuple(np.where(served, li[:, :, d], 0) for d in range(arr.ndim))
        widths = [p.instructions[j].lane_width(arrays) for j in ks]
        span = max(1, max(widths) // arr.elem_size)
        # a layout maps each element on its own: map the distinct ones, then gather per lane
        flat = np.ravel_multi_index(idx, arr.dims)
        uniq, which = np.unique(flat, return_inverse=True)
        elems = tuple(np.unravel_index(uniq, arr.dims))
        out.append(_ArrayRows(names.index(arr.name), rows, idx, served, span, elems, which.reshape(flat.shape)))
    return out


def _expansion_errors(an: Analysis) -> dict[int, str]:
    """Errors no layout can fix (a bad expression, an index outside the array's dimensions): an
    instruction whose expansion failed has no active lane left, while an engine error (a
    misaligned or out-of-range address) keeps its lanes, and a candidate layout may fix it."""
    bad = {}
    for r, e in enumerate(an.errors):
        if e and not an.batch.active[r].any():
            bad.setdefault(int(an.source[r]), e)
    return bad


def _cost(ar: _ArrayRows, an: Analysis, cands: list[Candidate], p: Pattern):
    """Kernel wavefronts and ideal of each candidate (-1: rejected), in one engine call."""
    R = ar.rows.size
    W = an.batch.addr.shape[1]
    sub = (an.batch.kind[ar.rows], an.batch.width[ar.rows], an.batch.matrices[ar.rows], an.batch.active[ar.rows])
    rep = an.repeat[ar.rows]
    # merge candidates that put every lane on the same address and cost the same memory (by a
    # digest of the addresses: 186 candidates of a 32,000-row import kept 3 GB of keys), and cost
    # the distinct ones a batch of at most MAX_BATCH_ROWS rows at a time (memory stays bounded)
    keys: dict[tuple, int] = {}
    current_key = None
    owner = np.empty(len(cands), np.int64)
    wf_of: list[int] = []
    ideal_of: list[int] = []
    pending: list[np.ndarray] = []
    per_call = max(1, MAX_BATCH_ROWS // max(R, 1))

    def flush() -> None:
        n = len(pending)
        if not n:
            return
        batch = WarpBatch(
            kind=np.tile(sub[0], n), width=np.tile(sub[1], n), matrices=np.tile(sub[2], n),
            addr=np.concatenate(pending), active=np.tile(sub[3], (n, 1)),
        )
        res = count_wavefronts(batch, p.hardware)
        w = res.wavefronts.reshape(n, R)
        ok = (w >= 0).all(axis=1)
        # a compare-and-swap loop's loads with it, as the pattern's totals count them
        loads = np.where(w >= 0, res.loop_load_wavefronts.reshape(n, R), 0)
        wf_of.extend(np.where(ok, ((np.maximum(w, 0) + loads) * rep).sum(axis=1), -1).tolist())
        ideal_of.extend(((res.ideal + res.loop_load_ideal).reshape(n, R) * rep).sum(axis=1).tolist())
        pending.clear()

    for i, c in enumerate(cands):
        arr = c.changes[0][1]
        try:
            addr = np.where(ar.served, arr.base + arr.byte_offsets(ar.elems)[ar.which], 0)
        except BankExplorerError:
            addr = np.full((R, W), -1, np.int64)  # reported as out of range by the engine
        # within a family only: an XOR that equals a CuTe swizzle is still worth showing as such;
        # anything equal to the current layout (candidate 0) is the current layout
        same = (_candidate_nbytes(c, arr), addr.shape, hashlib.blake2b(np.ascontiguousarray(addr).tobytes(),
                                                                        digest_size=20).digest())
        if i == 0:
            current_key = same
        key = ("current",) + same if same == current_key else (c.family,) + same
        j = keys.setdefault(key, len(keys))
        if j == len(keys) - 1 and j == len(wf_of) + len(pending):
            pending.append(addr)
            if len(pending) >= per_call:
                flush()
        owner[i] = j
    flush()
    U = len(keys)
    wf = np.array(wf_of, np.int64)
    ideal = np.array(ideal_of, np.int64)
    return wf[owner], ideal[owner], owner, U


def advise(
    pattern: Pattern,
    gpu: GPU | str = DEFAULT_GPU,
    max_padding: int | None = None,
    families: tuple[str, ...] = ("padding", "xor", "cute", "remap"),
    analysis: Analysis | None = None,
) -> Advice:
    """Rank candidate layouts for every array the pattern accesses (see the module docstring).

    ``max_padding`` defaults to one bank row of elements (32 floats, 64 halves): beyond that,
    padding repeats the bank mapping of a smaller padding at a higher memory cost.
    """
    t0 = time.perf_counter()
    g = gpu_preset(gpu) if isinstance(gpu, str) else gpu
    problems = pattern.validate()
    if problems:
        raise BankExplorerError(problems[0][1], problems[0][0])
    if pattern.threads > g.max_threads_per_block:
        raise BankExplorerError(f"{pattern.threads} threads per block is more than {g.name} allows "
                                f"({g.max_threads_per_block})", "block")
    rows = sum(len(ins.recorded) for ins in pattern.instructions if ins.recorded is not None)
    if rows > MAX_ADVISE_ROWS:
        raise BankExplorerError(f"{rows:,} recorded warp instructions: the advisor ranks layouts over at most "
                                f"{MAX_ADVISE_ROWS:,} (each candidate is costed on every one); import a smaller "
                                f"block or fewer loop iterations")
    an = analysis if analysis is not None else analyze(pattern, detail=False)
    bad = _expansion_errors(an)
    if bad:
        k, msg = next(iter(sorted(bad.items())))
        raise BankExplorerError(f"{msg} (no layout can fix this; correct the instruction first)", f"instructions[{k}]")
    unknown = set(families) - set(FAMILIES)
    if unknown:
        raise BankExplorerError(f"unknown candidate families {sorted(unknown)} (known: {', '.join(FAMILIES[1:5])})")

    c = an.counts()  # a compare-and-swap loop's loads with it, as the totals
    ok = c.ok
    row_wf = c.total_wavefronts() * an.repeat
    row_ideal = np.where(ok, c.ideal + c.loop_ideal, c.ideal) * an.repeat

    sizes = _Sizes(pattern)

    def ranked(c: Candidate, wf: int, ideal: int, current: bool = False) -> Ranked:
        extra, shared = sizes.of(c)
        return Ranked(c, wf, ideal, extra, shared, occupancy(g, pattern.threads, shared), current)

    # pass 1: every array's candidates, costed on that array's own warp instructions
    per_array = []  # (rows, candidates, wavefronts, ideal, owner)
    generated = distinct = 0
    for ar in _array_rows(an):
        arr = pattern.arrays[ar.k]
        mp = max_padding if max_padding is not None else max(1, pattern.hardware.row_bytes // arr.elem_size)
        gens = {
            "padding": lambda: padding_candidates(arr, ar.k, mp),
            "xor": lambda: xor_candidates(arr, ar.k, ar.span),
            "cute": lambda: cute_candidates(arr, ar.k, ar.span),
            "remap": lambda: remap_candidates(arr, ar.k, ar.span),
        }
        cands = [Candidate("current", f"current layout of {arr.name}", ((ar.k, arr),))]
        for f in families:
            if f in gens:
                cands += gens[f]()
        wf, ideal, owner, U = _cost(ar, an, cands, pattern)
        generated += len(cands) - 1
        distinct += U - 1
        per_array.append((ar, cands, wf, ideal, owner))

    # rows no layout changes (explicit addresses) cost the same for every candidate
    in_array = np.zeros(len(an), bool)
    for ar, *_ in per_array:
        in_array[ar.rows] = True
    fixed_ok = bool(ok[~in_array].all())
    fixed_wf, fixed_ideal = int(row_wf[~in_array].sum()), int(row_ideal[~in_array].sum())
    cur_wf = [int(wf[0]) for _, _, wf, _, _ in per_array]
    cur_ideal = [int(ideal[0]) for _, _, _, ideal, _ in per_array]

    # pass 2: a candidate changes one array; the others keep their current cost
    current = None
    if fixed_ok and min(cur_wf, default=0) >= 0:
        current = ranked(Candidate("current", "current layout", ()), fixed_wf + sum(cur_wf),
                         fixed_ideal + sum(cur_ideal), True)
    results: list[Ranked] = [current] if current is not None else []
    rejected = 0
    bests: list[tuple[Ranked, int, int]] = []  # per array: best candidate, its own wavefronts and ideal
    curves: dict[str, list[PaddingPoint]] = {}
    for a, (ar, cands, wf, ideal, owner) in enumerate(per_array):
        others = [w for b, w in enumerate(cur_wf) if b != a]
        others_ok = fixed_ok and min(others, default=0) >= 0
        base_wf = fixed_wf + sum(others)
        base_ideal = fixed_ideal + sum(i for b, i in enumerate(cur_ideal) if b != a)
        seen = {int(owner[0])}
        best = None
        for i, c in enumerate(cands):
            valid = wf[i] >= 0 and others_ok
            if c.family == "padding":
                curves.setdefault(pattern.arrays[ar.k].name, []).append(
                    _point(c, sizes, g, int(wf[i]) + base_wf if valid else None,
                           int(ideal[i]) + base_ideal if valid else None))
            if int(owner[i]) in seen:
                continue
            seen.add(int(owner[i]))
            if wf[i] < 0:
                rejected += 1
                continue
            r = ranked(c, int(wf[i]) + base_wf, int(ideal[i]) + base_ideal)
            if best is None or _key(r) < _key(best[0]):
                best = (r, int(wf[i]), int(ideal[i]))
            if others_ok:
                results.append(r)
        if best is not None and (cur_wf[a] < 0 or best[1] < cur_wf[a]):
            bests.append(best)
        elif cur_wf[a] >= 0:
            bests.append((None, cur_wf[a], cur_ideal[a]))
        else:
            bests = []
            break
    improved = [b for b, _, _ in bests if b is not None]
    if fixed_ok and len(bests) == len(per_array) and (len(improved) > 1 or (improved and current is None and len(per_array) > 1)):
        changes = tuple(ch for b in improved for ch in b.candidate.changes)
        label = " + ".join(f"{pattern.arrays[b.candidate.changes[0][0]].name}: {b.label}" for b in improved)
        results.append(ranked(Candidate("combined", label, changes), fixed_wf + sum(w for _, w, _ in bests),
                              fixed_ideal + sum(i for _, _, i in bests)))
    results.sort(key=_key)
    ideal_out = min((r.ideal for r in results), default=int(row_ideal.sum()))
    return Advice(pattern, g, current, results, ideal_out, generated, distinct, rejected,
                  time.perf_counter() - t0, curves)


_FAMILY_ORDER = {f: i for i, f in enumerate(FAMILIES)}


def _key(r: Ranked):
    """Fewest wavefronts, then fewest extra bytes, then the current layout (no edit), then the
    simplest family, then the shortest description."""
    return (r.wavefronts, r.extra_bytes, not r.current, _FAMILY_ORDER[r.family], len(r.label), r.label)


def _point(c: Candidate, sizes: _Sizes, g: GPU, wavefronts: int | None, ideal: int | None = None) -> PaddingPoint:
    shared = sizes.of(c)[1]
    return PaddingPoint(c.changes[0][1].padding, shared, occupancy(g, sizes.pattern.threads, shared).blocks,
                        wavefronts, ideal)


def padding_curve(pattern: Pattern, array: str, gpu: GPU | str = DEFAULT_GPU, max_padding: int = 32) -> list[PaddingPoint]:
    """Blocks per SM against padding of one array (wavefronts left out): the occupancy chart
    without a search, for when only the memory side is wanted."""
    g = gpu_preset(gpu) if isinstance(gpu, str) else gpu
    k = [a.name for a in pattern.arrays].index(array)
    arr = pattern.arrays[k]
    sizes = _Sizes(pattern)
    return [_point(c, sizes, g, None) for c in padding_candidates(arr, k, max_padding)]
