"""The window's analysis of an imported kernel, fast enough to follow every edit.

An imported kernel's instructions carry their recorded executions (:class:`~bankexplorer.model.
pattern.Recorded`): tens of thousands of warp instructions, most of which repeat the same lanes'
elements (a loop reads the same tile rows again and again). A layout edit changes the addresses of
every one of them, but never which executions are alike: the recorded elements do not change.

So each instruction's executions are reduced once to their distinct rows (element, byte offset and
compiled address of every lane), and an edit analyzes only those rows with the model's own
:func:`~bankexplorer.model.analysis.analyze` (the one set of rules, notes and errors). The result
is spread back to every execution: per-row numbers by one gather each; per-lane arrays (addresses,
elements, the lanes' wavefronts) only for the rows a view asks for (:class:`RowGather`), since a
view draws one warp instruction at a time. The warps and iterations come from the recorded
executions themselves.

A pattern without recorded instructions is analyzed as it always was.
"""

from __future__ import annotations

import weakref
from dataclasses import replace

import numpy as np
from numpy.lib.mixins import NDArrayOperatorsMixin

from ..model.analysis import Analysis, analyze
from ..model.engine import BatchResult, WarpBatch
from ..model.pattern import Pattern, Recorded

#: below this many recorded executions in all, the plain analysis is as fast
MIN_ROWS = 2_000


class RowGather(NDArrayOperatorsMixin):
    """A (R, ...) array whose row ``r`` is ``base[index[r]]``, read row by row without building the
    whole array (the views read one row); anything else (arithmetic, ``np.asarray``, a method) works
    on the whole array, built once. ``warp_fix``: (warp of each row, warp of each base row, warp
    size) for thread ids, which differ between executions that share their lanes' addresses."""

    def __init__(self, base: np.ndarray, index: np.ndarray, warp_fix=None):
        self._base = base
        self._index = index
        self._fix = warp_fix
        self._full = None

    @property
    def shape(self) -> tuple[int, ...]:
        return (int(self._index.shape[0]),) + tuple(self._base.shape[1:])

    @property
    def dtype(self):
        return self._base.dtype

    @property
    def ndim(self) -> int:
        return self._base.ndim

    @property
    def size(self) -> int:
        return int(np.prod(self.shape))

    def __len__(self) -> int:
        return int(self._index.shape[0])

    def _rows(self, first):
        out = self._base[self._index[first]]
        if self._fix is not None:
            warp, base_warp, W = self._fix
            shift = (np.asarray(warp[first], np.int64) - base_warp[self._index[first]]) * W
            out = np.where(out >= 0, out + (shift[..., None] if np.ndim(shift) else shift), out)
        return out

    def __getitem__(self, key):
        if self._full is not None:
            return self._full[key]
        if not isinstance(key, tuple):
            return self._rows(key)
        if not key or key[0] is Ellipsis or any(k is None for k in key):
            return self.full()[key]
        out = self._rows(key[0])
        if len(key) == 1:
            return out
        lead = () if np.ndim(self._index[key[0]]) == 0 else (slice(None),)
        return out[lead + key[1:]]

    def full(self) -> np.ndarray:
        if self._full is None:
            self._full = self._rows(slice(None))
        return self._full

    def __array__(self, dtype=None, copy=None):
        a = self.full()
        return a.astype(dtype) if dtype is not None else a

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        inputs = tuple(x.full() if isinstance(x, RowGather) else x for x in inputs)
        return getattr(ufunc, method)(*inputs, **kwargs)

    def __getattr__(self, name):  # reshape, astype, copy, max, ...: on the whole array
        if name.startswith("_"):
            raise AttributeError(name)
        return getattr(self.full(), name)

    def __iter__(self):
        return iter(self.full())


class _Distinct:
    """One Recorded's distinct executions: ``first`` (the index of each distinct row's first
    execution, in order of first appearance) and ``inverse`` (each execution's distinct row)."""

    def __init__(self, rec: Recorded):
        n = len(rec)
        self.n = n
        if n == 0:
            self.first = np.zeros(0, np.int64)
            self.inverse = np.zeros(0, np.int64)
            return
        el = rec.element.astype(np.int64)
        off = rec.offset.astype(np.int64)
        ad = rec.address.astype(np.int64)
        W = el.shape[1]
        rng = np.random.default_rng(0x5EED)
        m = rng.integers(1, 1 << 62, size=(3, W), dtype=np.int64) | 1
        with np.errstate(over="ignore"):
            h = (el * m[0]).sum(axis=1) + (off * m[1]).sum(axis=1) + (ad * m[2]).sum(axis=1)
        _u, first, inverse = np.unique(h, return_index=True, return_inverse=True)
        rep = first[inverse]
        same = (np.array_equal(rec.element, rec.element[rep]) and np.array_equal(rec.offset, rec.offset[rep])
                and np.array_equal(rec.address, rec.address[rep]))
        if not same:  # two different rows with one hash: the exact (slower) way
            key = np.ascontiguousarray(np.concatenate([el, off, ad], axis=1))
            _u, first, inverse = np.unique(key, axis=0, return_index=True, return_inverse=True)
            inverse = inverse.reshape(-1)
        order = np.argsort(first, kind="stable")  # distinct rows in order of first appearance
        rank = np.empty_like(order)
        rank[order] = np.arange(order.size)
        self.first = first[order].astype(np.int64)
        self.inverse = rank[inverse].astype(np.int64)

    def sub(self, rec: Recorded) -> Recorded:
        f = self.first
        return Recorded(rec.warp[f], rec.element[f], rec.offset[f], rec.address[f])


class RecordedAnalyzer:
    """Analyses of patterns with recorded instructions, the distinct executions found once per
    :class:`Recorded` (kept while the Recorded lives)."""

    def __init__(self):
        self._distinct: dict[int, tuple[weakref.ref, _Distinct, Recorded]] = {}
        self._occ: dict[int, tuple[weakref.ref, np.ndarray]] = {}

    def _entry(self, rec: Recorded) -> tuple[_Distinct, Recorded]:
        hit = self._distinct.get(id(rec))
        if hit is not None and hit[0]() is rec:
            return hit[1], hit[2]
        d = _Distinct(rec)
        self._distinct = {k: v for k, v in self._distinct.items() if v[0]() is not None}
        self._distinct[id(rec)] = (weakref.ref(rec), d, d.sub(rec))
        return d, self._distinct[id(rec)][2]

    def _occurrence(self, rec: Recorded) -> np.ndarray:
        """The k-th execution of its warp, for every execution (the analysis's iteration)."""
        hit = self._occ.get(id(rec))
        if hit is not None and hit[0]() is rec:
            return hit[1]
        n = len(rec)
        occ = np.zeros(n, np.int64)
        if n:
            order = np.argsort(rec.warp, kind="stable")
            w = rec.warp[order]
            start = np.r_[0, np.flatnonzero(w[1:] != w[:-1]) + 1]
            occ[order] = np.arange(n) - np.repeat(start, np.diff(np.r_[start, n]))
        self._occ = {k: v for k, v in self._occ.items() if v[0]() is not None}
        self._occ[id(rec)] = (weakref.ref(rec), occ)
        return occ

    def analyze(self, pattern: Pattern, detail: bool = True) -> Analysis:
        recs = [ins.recorded for ins in pattern.instructions if ins.recorded is not None]
        if sum(len(r) for r in recs) < MIN_ROWS:
            return analyze(pattern, detail)
        small = []
        for ins in pattern.instructions:
            if ins.recorded is None:
                small.append(ins)
            else:
                _d, sub = self._entry(ins.recorded)
                small.append(replace(ins, recorded=sub))
        few = analyze(replace(pattern, instructions=tuple(small)), detail)
        return self._spread(pattern, few)

    def _skeleton(self, pattern: Pattern, few: Analysis) -> tuple[np.ndarray, ...]:
        """What a layout edit leaves alone, per execution: which distinct row it is (the gather),
        its instruction, warp, iteration and repeat count; kept for the last instructions seen."""
        hit = getattr(self, "_skel", None)
        if hit is not None and hit[0] is pattern.instructions and hit[1] == pattern.hardware.warp_size:
            return hit[2]
        gather, warps, iters = [], [], []
        start = 0
        for k, ins in enumerate(pattern.instructions):
            if ins.recorded is None:
                n_few = int(np.count_nonzero(few.source == k))
                idx = np.arange(start, start + n_few)
                gather.append(idx)
                warps.append(few.warp[idx])
                iters.append(few.iteration[idx])
            else:
                d, _sub = self._entry(ins.recorded)
                n_few = len(d.first)
                gather.append(start + d.inverse)
                warps.append(ins.recorded.warp.astype(np.int64))
                iters.append(self._occurrence(ins.recorded))
            start += n_few
        z = np.zeros(0, np.int64)
        g = np.concatenate(gather) if gather else z
        out = (g, few.source[g], np.concatenate(warps) if warps else z, np.concatenate(iters) if iters else z,
               few.repeat[g])
        self._skel = (pattern.instructions, pattern.hardware.warp_size, out)
        return out

    def _spread(self, pattern: Pattern, few: Analysis) -> Analysis:
        """``few`` (the analysis of the distinct executions) for every execution."""
        W = pattern.hardware.warp_size
        g, source, warp, iteration, repeat = self._skeleton(pattern, few)
        res = few.result

        def rows(a):  # per-lane arrays, and per-row ones nothing adds up: row by row, when asked
            return None if a is None else RowGather(a, g)

        # what the totals and the instruction list add up: one gather of them all
        cols = [res.wavefronts, res.ideal, res.degree, res.bytes_requested]
        cols += [c for c in (res.executions, res.loop_load_wavefronts, res.loop_load_ideal) if c is not None]
        summed = np.stack([np.asarray(c, np.int64) for c in cols], axis=1)[g].T.copy()
        wf, ideal, degree, requested = summed[:4]
        execs = summed[4] if res.executions is not None else None
        loops = summed[-2] if res.loop_load_wavefronts is not None else None
        loops_ideal = summed[-1] if res.loop_load_ideal is not None else None
        result = BatchResult(
            wavefronts=wf, ideal=ideal, degree=degree, phases=rows(res.phases),
            lanes_per_phase=rows(res.lanes_per_phase), lane_phase=rows(res.lane_phase), lane_wave=rows(res.lane_wave),
            lane_unit=rows(res.lane_unit), lane_shared=rows(res.lane_shared), lane_conflict=rows(res.lane_conflict),
            served=rows(res.served), bytes_requested=requested, bytes_moved=rows(res.bytes_moved),
            error=_spread_list(res.error, g), executions=execs, loop_load_wavefronts=loops,
            loop_load_ideal=loops_ideal)
        b = few.batch
        batch = WarpBatch(rows(b.kind), rows(b.width), rows(b.matrices), rows(b.addr), rows(b.active))
        errors = [None] * int(g.size)
        if any(e is not None for e in few.errors):  # per execution, an engine error with its own warp
            engine = [e is not None and r is not None and e == f"warp {int(w)}: {r}"
                      for e, r, w in zip(few.errors, res.error, few.warp)]
            errors = [(f"warp {int(w)}: {res.error[j]}" if engine[j] else few.errors[j])
                      for j, w in zip(g.tolist(), warp.tolist())]
        return Analysis(
            pattern=pattern, batch=batch, result=result, source=source, iteration=iteration, warp=warp, repeat=repeat,
            lane_tid=RowGather(few.lane_tid, g, (warp, few.warp, W)), lane_index=RowGather(few.lane_index, g),
            loop_values=few.loop_values, errors=errors, instruction_errors=dict(few.instruction_errors),
            instruction_notes=dict(few.instruction_notes))


def _spread_list(xs: list, g: np.ndarray) -> list:
    if not any(x is not None for x in xs):
        return [None] * int(g.size)
    return [xs[i] for i in g.tolist()]
