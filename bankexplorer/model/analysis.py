"""From a Pattern to per-warp-instruction results: expansion of expressions, loops and warps into
per-lane byte addresses, the engine, and the totals people compare with a profiler.

Rows are ordered as the ``--json`` output promises: instructions in file order, each one's loop
iterations in order (outer loop first), and within an iteration the warps in order.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field

import numpy as np

from . import expr as E
from .engine import BatchResult, WarpBatch, analyze_batch, count_wavefronts, narrow, served_lanes
from .errors import BankExplorerError
from .hardware import (Hardware, aggregated_lanes, issue_cycles_one_warp, latency_cycles, past_shared_memory,
                       past_shared_memory_message)
from .pattern import Instruction, Pattern
from .summary import RowCounts, Summary, batch_totals


@dataclass
class Analysis:
    """Everything the views and the command line show, computed once per document state."""

    pattern: Pattern
    batch: WarpBatch
    result: BatchResult
    source: np.ndarray  # (R,) index of the pattern instruction
    iteration: np.ndarray  # (R,) loop iteration of that instruction
    warp: np.ndarray  # (R,)
    repeat: np.ndarray  # (R,)
    lane_tid: np.ndarray  # (R, W) linear thread id, -1 where no thread
    lane_index: np.ndarray  # (R, W, 3) element index per lane, -1 where none or explicit
    loop_values: list[list[dict[str, int]]]  # per instruction, per iteration
    errors: list[str | None]  # per row: expansion or engine error
    instruction_errors: dict[int, str] = field(default_factory=dict)  # per pattern instruction
    instruction_notes: dict[int, str] = field(default_factory=dict)  # per pattern instruction

    def note(self, k: int) -> str:
        """What a user should know about instruction ``k`` beyond its numbers (how it compiles,
        a vector access that does not read the elements it names), or ""."""
        ins = self.pattern.instructions[k]
        parts = [x for x in (ins.note(self.pattern.array_map()), self.instruction_notes.get(k, "")) if x]
        return "; ".join(parts)

    @property
    def hardware(self) -> Hardware:
        return self.pattern.hardware

    def __len__(self) -> int:
        return int(self.source.shape[0])

    def rows_of(self, k: int) -> np.ndarray:
        return np.flatnonzero(self.source == k)

    def row_of(self, k: int, iteration: int = 0, warp: int = 0) -> int | None:
        hit = np.flatnonzero((self.source == k) & (self.iteration == iteration) & (self.warp == warp))
        return int(hit[0]) if hit.size else None

    @property
    def ok(self) -> np.ndarray:
        return self.result.wavefronts >= 0

    def most_expensive(self) -> int:
        """The pattern instruction whose costliest warp instruction (any loop iteration, any warp)
        takes the most wavefronts; ties go to the first in file order, and 0 when there is none
        (no instructions, or every one invalid). What the window and a figure show first."""
        n = len(self.pattern.instructions)
        if not n or not len(self):
            return 0
        wf = np.where(self.ok, self.result.wavefronts, -1)
        per = np.full(n, -1, np.int64)
        np.maximum.at(per, self.source, wf)
        return int(np.argmax(per)) if per.max() >= 0 else 0

    def counts(self) -> RowCounts:
        """The per-row numbers the totals and the summary add up."""
        res = self.result
        zero = np.zeros(len(self), np.int64)
        return RowCounts(ok=self.ok, wavefronts=res.wavefronts, ideal=res.ideal, degree=res.degree,
                         bytes_requested=res.bytes_requested,
                         executions=res.executions if res.executions is not None else zero + 1,
                         loop_loads=res.loop_load_wavefronts if res.loop_load_wavefronts is not None else zero,
                         repeat=self.repeat,
                         loop_ideal=res.loop_load_ideal if res.loop_load_ideal is not None else zero)

    def row_costs(self) -> tuple[np.ndarray, np.ndarray]:
        """(wavefronts, ideal) of each row with a compare-and-swap loop's loads, 0 on rows with an
        error: what the totals add up, for every view that sums rows or lays them end to end."""
        c = self.counts()
        return c.total_wavefronts(), c.total_ideal()

    def totals(self) -> "Totals":
        t = batch_totals(self.counts(), self.hardware.row_bytes)
        return Totals(**t, shared_bytes=self.pattern.shared_bytes())

    def where(self, r: int) -> tuple[int, int, int]:
        """(instruction, iteration, warp) of row ``r``."""
        return int(self.source[r]), int(self.iteration[r]), int(self.warp[r])

    def summary(self) -> Summary:
        """N-way histogram, worst rows, totals per label / pc (see :mod:`.summary`)."""
        s = Summary(self.hardware.row_bytes, self.pattern.shared_bytes())
        labels = [ins.label for ins in self.pattern.instructions]
        pcs = np.array([ins.pc if ins.pc is not None else -1 for ins in self.pattern.instructions] or [-1], np.int64)
        ids = np.array([k if labels[k] else -1 for k in range(len(labels))] or [-1], np.int64)[self.source] \
            if labels else np.zeros(0, np.int64)

        def label_of(r: int):
            ins = self.pattern.instructions[int(self.source[r])]
            return ins.label, ins.pc

        s.add(0, self.counts(), ids, labels, pcs[self.source] if len(self) else pcs[:0], label_of)
        return s

    def row_json(self, r: int) -> dict:
        res = self.result
        k = int(self.source[r])
        ins = self.pattern.instructions[k]
        wf = int(res.wavefronts[r])
        d: dict = {
            "instruction": k,
            "iteration": int(self.iteration[r]),
            "warp": int(self.warp[r]),
            "kind": ins.kind,
        }
        lv = self.loop_values[k][int(self.iteration[r])] if self.loop_values[k] else {}
        if lv:
            d["loop"] = lv
        if ins.is_matrix:
            d["matrices"], d["trans"] = ins.matrices, ins.trans
        else:
            d["width"] = int(self.batch.width[r])
        arrays = self.pattern.array_map()
        if ins.kind == "atomic":
            d["op"] = ins.atomic_op(arrays)
        if ins.space != "shared":
            d["space"] = ins.space
        if ins.aggregate:
            d["aggregate"] = True
        if ins.label:
            d["label"] = ins.label
        if ins.pc is not None:
            d["pc"] = ins.pc
        note = self.note(k)
        if note:
            d["note"] = note
        if self.errors[r]:
            d.update(wavefronts=None, error=self.errors[r])
            return d
        d.update(
            wavefronts=wf,
            ideal=int(res.ideal[r]),
            excess=wf - int(res.ideal[r]),
            n_way=int(res.degree[r]),
            phases=int(res.phases[r]),
            active_lanes=int(res.served[r].sum()),
            bytes_requested=int(res.bytes_requested[r]),
            bytes_moved=int(res.bytes_moved[r]),
            efficiency=round(float(res.ideal[r]) / wf, 4) if wf else 1.0,
            repeat=int(self.repeat[r]),
            executions=int(res.executions[r]) if res.executions is not None else 1,
            latency_cycles=float(latency_cycles(wf)),
            issue_cycles_one_warp=float(issue_cycles_one_warp(wf)),
        )
        if res.loop_load_wavefronts is not None and res.loop_load_wavefronts[r]:
            d["loop_load_wavefronts"] = int(res.loop_load_wavefronts[r])
            d["loop_load_ideal"] = int(res.loop_load_ideal[r])
        return d

    def to_json(self) -> dict:
        t = self.totals()
        return {
            "pattern": self.pattern.name,
            "hardware": {
                "preset": self.hardware.preset,
                "banks": self.hardware.banks,
                "bank_width": self.hardware.bank_width,
                "warp_size": self.hardware.warp_size,
            },
            "instructions": [self.row_json(r) for r in range(len(self))],
            "totals": t.__dict__,
        }


@dataclass
class Totals:
    """A pattern's sums, in the units the profiler counts, so the two can be compared line by line."""

    instructions: int  # warp instructions, one pass of the block
    #: warp instructions that execute, x repeat counts: warps with an active lane, each iteration of a
    #: compare-and-swap loop (its load too): compare with the profiler's shared instruction counters
    executed: int
    invalid: int
    wavefronts: int
    ideal: int
    kernel_wavefronts: int  # x repeat counts: compare with the profiler's kernel counters
    kernel_ideal: int
    kernel_instructions: int
    worst_degree: int
    bytes_requested: int
    bytes_moved: int
    shared_bytes: int

    @property
    def excess(self) -> int:
        return self.wavefronts - self.ideal

    @property
    def kernel_excess(self) -> int:
        return self.kernel_wavefronts - self.kernel_ideal

    @property
    def efficiency(self) -> float:
        return self.ideal / self.wavefronts if self.wavefronts else 1.0


# ---- expansion ------------------------------------------------------------------------------
def thread_variables(pattern: Pattern) -> dict[str, np.ndarray]:
    """Per-lane values of the built-in names, over ``warps * warp_size`` lanes."""
    W = pattern.hardware.warp_size
    bx, by, bz = pattern.block
    n = pattern.warps * W
    tid = np.arange(n, dtype=np.int64)
    v = {
        "tid": tid,
        "lane": tid % W,
        "laneid": tid % W,
        "warp": tid // W,
        "threadIdx.x": tid % bx,
        "threadIdx.y": (tid // bx) % by,
        "threadIdx.z": tid // (bx * by),
        "blockDim.x": np.int64(bx),
        "blockDim.y": np.int64(by),
        "blockDim.z": np.int64(bz),
        "warpSize": np.int64(W),
    }
    for name, val in pattern.constants:
        v[name] = np.int64(val)
    return v


def _lane_label(pattern: Pattern, tid: int) -> str:
    bx, by, _ = pattern.block
    W = pattern.hardware.warp_size
    return f"warp {tid // W} lane {tid % W} (thread ({tid % bx},{(tid // bx) % by},{tid // (bx * by)}))"


@functools.lru_cache(maxsize=2048)
def _thread_indices(index: tuple[str, ...], active: str, loops: tuple, block: tuple[int, int, int],
                    constants: tuple, warp_size: int):
    """Evaluated index expressions and active mask of one instruction: (loop values, indices, mask).

    Cached: an edit usually changes one instruction or one array's layout, and the indices do not
    depend on the layout, so most instructions skip their expressions on the next analysis."""
    pattern = Pattern(block=block, constants=constants, hardware=Hardware(warp_size=warp_size))
    tv = thread_variables(pattern)
    n = pattern.warps * warp_size
    exists = tv["tid"] < pattern.threads
    loop_values = list(Instruction(loops=loops).loop_values()) or [{}]
    L = len(loop_values)
    variables = dict(tv)
    for name in (loop_values[0].keys() if loop_values[0] else ()):
        variables[name] = np.array([lv[name] for lv in loop_values], np.int64)[:, None]
    shape = (L, n)
    mask = np.broadcast_to(exists, shape)
    if active.strip():
        try:
            act = E.parse(active).evaluate(variables, shape, mask) != 0
        except BankExplorerError as e:
            raise e.at("active")
        mask = mask & act
    idx = []
    for d, text in enumerate(index):
        try:
            idx.append(E.parse(text).evaluate(variables, shape, mask))
        except BankExplorerError as e:
            raise e.at(f"index[{d}]")
    mask = np.array(mask)
    for a in (mask, *idx):
        a.flags.writeable = False  # shared through the cache
    return loop_values, tuple(idx), mask


def _expand(pattern: Pattern, k: int, ins: Instruction, tv: dict[str, np.ndarray]):
    """Addresses (L, n) and active mask (L, n) for all loop iterations of one instruction."""
    arrays = pattern.array_map()
    loops, idx, mask = _thread_indices(ins.index, ins.active, ins.loops, pattern.block, pattern.constants,
                                       pattern.hardware.warp_size)
    L, n = mask.shape
    arr = arrays[ins.array]
    width = ins.lane_width(arrays)
    span = max(1, width // arr.elem_size)  # elements one lane's bytes cover, if they are consecutive
    served = mask.copy()
    if ins.is_matrix:
        served &= (tv["lane"] < 8 * ins.matrices)[None, :]
    # A padded row-major array: the bytes run along the last index, which must stay in its row
    # (past it lies padding). A layout (swizzle, CuTe, Triton, TMA...) may run them along another
    # index (an M-major tile), and an unpadded array is one run of memory (nvcc fuses a 5x5
    # filter's reads into LDS.128s that cross rows): there the named element must exist and the
    # bytes must lie in the array.
    by_memory = (arr.transform.kind != "none" or (arr.padding == 0 and arr.ndim > 1)) and span > 1
    for d, (i, size) in enumerate(zip(idx, arr.dims)):
        hi = size - (span - 1 if d == arr.ndim - 1 and not by_memory else 0)
        out = served & ((i < 0) | (i >= hi))
        if out.any():
            it, t = np.unravel_index(int(np.argmax(out)), out.shape)
            where = "".join(f"[{int(x[it, t])}]" for x in idx)
            extra = f" (a {width}-byte access covers {span} elements)" if span > 1 else ""
            raise BankExplorerError(
                f"{_lane_label(pattern, int(t))}{' iteration ' + str(it) if L > 1 else ''}: "
                f"index {arr.name}{where} is out of bounds of {arr.declaration()}{extra}",
                f"index[{d}]",
            )
    safe = tuple(np.where(served, i, 0) for i in idx)
    try:
        addr = arr.byte_addresses(safe)
    except BankExplorerError as e:
        raise e.at(f"arrays[{ins.array}].transform")
    if by_memory:
        off = addr - arr.base
        out = served & ((off < 0) | (off + width > arr.nbytes))
        if out.any():
            it, t = np.unravel_index(int(np.argmax(out)), out.shape)
            where = "".join(f"[{int(x[it, t])}]" for x in idx)
            a0 = int(off[it, t])
            raise BankExplorerError(
                f"{_lane_label(pattern, int(t))}{' iteration ' + str(it) if L > 1 else ''}: the {width}-byte access "
                f"at {arr.name}{where} reads bytes {a0}..{a0 + width - 1} of the array, which ends at byte "
                f"{arr.nbytes - 1}: it leaves {arr.declaration()}",
                "index",
            )
    lane_index = np.full((L, n, 3), -1, np.int64)
    for d, i in enumerate(safe):
        lane_index[:, :, d] = np.where(served, i, -1)
    return loops, np.where(mask, addr, 0), mask, lane_index, vector_note(arr, safe, addr, served, span)


def vector_dims(arr, idx, addr: np.ndarray, served: np.ndarray, span: int) -> np.ndarray:
    """Per lane, the dimension along which the ``span`` elements from the lane's index are the
    bytes a ``span``-element access reads from its first element's address (the last dimension
    preferred), or -1 where none is: the elements a vector access (float4, an ldmatrix row)
    really reads. Vectorized over lanes; at most ``ndim * span`` layout evaluations."""
    e = arr.elem_size
    dims = np.full(np.shape(addr), -1, np.int64)
    if span <= 1 or arr.transform.kind == "none":
        dims[...] = arr.ndim - 1  # a plain row-major array: along the row
        return np.where(served, dims, -1)
    for d in range(arr.ndim - 1, -1, -1):
        ok = served & (dims < 0) & (idx[d] + span <= arr.dims[d])
        for j in range(1, span):
            if not ok.any():
                break
            nxt = list(idx)
            nxt[d] = np.where(ok, idx[d] + j, idx[d])
            ok &= arr.byte_addresses(tuple(nxt)) == addr + j * e
        dims[ok] = d
    return dims


def vector_note(arr, idx, addr: np.ndarray, served: np.ndarray, span: int) -> str:
    """A vector access (float4 over floats, ldmatrix rows) reads ``width`` bytes from its first
    element's address: that is what the hardware costs. Say which elements those bytes are when
    it is not the usual run along the last index: the next elements of the layout along another
    dimension (an M-major tile read along M), or elements the access does not name (once, with
    the first such lane)."""
    if span <= 1 or arr.transform.kind == "none" or not served.any():
        return ""  # a plain (padded) row is contiguous: nothing to check
    dims = vector_dims(arr, idx, addr, served, span)
    last = arr.ndim - 1
    nbytes = span * arr.elem_size
    wrong = served & (dims < 0)
    if wrong.any():
        it, t = np.unravel_index(int(np.argmax(wrong)), wrong.shape)
        el = "".join(f"[{int(x[it, t])}]" for x in idx)
        a0 = int(addr[it, t])
        text = f"the {nbytes}-byte access at {arr.name}{el} reads bytes {a0}..{a0 + nbytes - 1}"
        named = [int(x[it, t]) for x in idx]
        for j in range(1, span):
            if named[last] + j >= arr.dims[last]:
                break
            nxt = list(named)
            nxt[last] += j
            other = int(arr.byte_addresses(tuple(np.array([v]) for v in nxt))[0])
            if other != a0 + j * arr.elem_size:
                text += f", but this layout puts {arr.name}{''.join(f'[{v}]' for v in nxt)} at byte {other}"
                break
        return (text + ": these bytes are not the next elements of the layout along any dimension, so the kernel "
                "would read other elements than it names")
    along = sorted({int(d) for d in np.unique(dims[served]) if d != last})
    if not along:
        return ""
    d = along[0]
    first = served & (dims == d)
    it, t = np.unravel_index(int(np.argmax(first)), first.shape)
    lo = [str(int(x[it, t])) for x in idx]
    hi = list(lo)
    hi[d] = f"{int(idx[d][it, t])}..{int(idx[d][it, t]) + span - 1}"
    others = [x for x in sorted({int(v) for v in np.unique(dims[served])}) if x != d]
    mixed = f" (other lanes: along dimension {', '.join(map(str, others))})" if others else ""
    return (f"each lane's {nbytes} bytes run along dimension {d} of {arr.name}, not along its last index: from "
            f"{arr.name}{''.join(f'[{v}]' for v in lo)} they are {arr.name}{''.join(f'[{v}]' for v in hi)}, "
            f"the next elements of the layout along dimension {d}{mixed}")


def _recorded(pattern: Pattern, ins: Instruction, width: int, W: int):
    """An executed kernel's instruction: its recorded rows, the addresses recomputed through the
    array's current layout (a what-if when they differ from the compiled ones, said in the note)."""
    rec = ins.recorded
    n = len(rec)
    act = rec.address >= 0
    addr = rec.address.astype(np.int64)
    li = np.full((n, W, 3), -1, np.int64)
    note = err = None
    arr = pattern.array_map().get(ins.array) if ins.array else None
    if arr is not None:
        inarr = act & (rec.element >= 0)
        idx = np.unravel_index(np.where(inarr, rec.element, 0).astype(np.int64), arr.dims)
        try:
            now = arr.byte_addresses(idx) + rec.offset.astype(np.int64)
        except BankExplorerError as e:
            now, err = addr, str(e)
        addr = np.where(inarr, now, addr)
        for d, i in enumerate(idx[:3]):
            li[:, :, d] = np.where(inarr, i, -1)
        moved = inarr & (addr != rec.address)
        if moved.any() and err is None:
            span = max(1, width // arr.elem_size)
            note = (f"what-if: {arr.name} is not laid out as the kernel was compiled; these are the compiled "
                    f"instructions' elements through the new layout (run it compiled again to confirm)")
            if span > 1 and not ins.is_matrix:
                vn = vector_note(arr, idx, addr, inarr, span)
                odd = inarr & (addr % width != 0)
                if odd.any():
                    vn = (f"the compiled {width}-byte access is not aligned to {width} bytes in this layout, so the "
                          f"compiler could not emit it as it did")
                note += "; " + vn if vn else ""
    occ = np.zeros(n, np.int64)  # the k-th execution of its warp
    if n:
        order = np.argsort(rec.warp, kind="stable")
        w = rec.warp[order]
        start = np.r_[0, np.flatnonzero(w[1:] != w[:-1]) + 1]
        occ[order] = np.arange(n) - np.repeat(start, np.diff(np.r_[start, n]))
    tid = np.where(act, rec.warp[:, None].astype(np.int64) * W + np.arange(W), -1)
    return np.where(act, addr, 0), act, li, tid, rec.warp.astype(np.int64), occ, err, note


def analyze(pattern: Pattern, detail: bool = True) -> Analysis:
    """Analyze a validated pattern. Problems inside one instruction (a bad expression, an index
    out of bounds, a misaligned vector) become that instruction's error; the rest is analyzed."""
    hw = pattern.hardware
    W = hw.warp_size
    tv = thread_variables(pattern)
    arrays = pattern.array_map()
    warps = pattern.warps
    tid_all = tv["tid"].reshape(warps, W)
    lane_tid_all = np.where(tid_all < pattern.threads, tid_all, -1)

    kinds, widths, mats, addrs, acts, srcs, iters, wps, reps, tids, lidx, errs = ([] for _ in range(12))
    loop_values: list[list[dict[str, int]]] = []
    instr_errors: dict[int, str] = {}
    instr_notes: dict[int, str] = {}
    for k, ins in enumerate(pattern.instructions):
        width = ins.lane_width(arrays)
        if ins.recorded is not None:
            ad, act, li, tid, wp, it, err, note = _recorded(pattern, ins, width, W)
            if note:
                instr_notes[k] = note
            loops, L, nw = [{}], len(ins.recorded), 1
            if err:
                instr_errors[k] = err
            loop_values.append([])
            rows = L
            kinds.append(np.full(rows, ins.engine_kind(arrays)))
            widths.append(np.full(rows, width))
            mats.append(np.full(rows, ins.matrices if ins.is_matrix else 0))
            addrs.append(ad)
            acts.append(act)
            srcs.append(np.full(rows, k))
            iters.append(it)
            wps.append(wp)
            reps.append(np.full(rows, ins.repeat, np.int64))
            tids.append(tid)
            lidx.append(li)
            errs += [err] * rows
            continue
        if ins.explicit:
            a = list(ins.addresses) + [None] * (W - len(ins.addresses))
            act = np.array([x is not None for x in a[:W]], bool)[None, :]
            ad = np.array([x if x is not None else 0 for x in a[:W]], np.int64)[None, :]
            loops, L, nw = [{}], 1, 1
            tid = np.where(act, np.arange(W), -1)
            li = np.full((1, W, 3), -1, np.int64)
            err = None
            if len(ins.addresses) != W:
                err = f"needs {W} addresses (one per lane), got {len(ins.addresses)}"
            else:
                served = served_lanes(WarpBatch(np.array([ins.engine_kind(arrays)]), np.array([width]),
                                                np.array([ins.matrices if ins.is_matrix else 0]), ad, act), hw)
                if past_shared_memory(ad, np.array([width]), served, hw)[0]:
                    err = past_shared_memory_message(ad[0], width, served[0], hw)
        else:
            loops = list(ins.loop_values()) or [{}]
            L, nw = len(loops), warps
            err = None
            try:
                loops, ad, act, li, vnote = _expand(pattern, k, ins, tv)
                if vnote:
                    instr_notes[k] = vnote
                ad = ad.reshape(L * warps, W)
                act = act.reshape(L * warps, W)
                li = li.reshape(L * warps, W, 3)
            except BankExplorerError as e:
                err = str(e)
                ad = np.zeros((L * warps, W), np.int64)
                act = np.zeros((L * warps, W), bool)
                li = np.full((L * warps, W, 3), -1, np.int64)
            tid = np.tile(lane_tid_all, (L, 1))
        if ins.aggregate:
            act = aggregated_lanes(act)
        if err:
            instr_errors[k] = err
        rows = L * nw
        loop_values.append(loops if loops != [{}] else [])
        kinds.append(np.full(rows, ins.engine_kind(arrays)))
        widths.append(np.full(rows, width))
        mats.append(np.full(rows, ins.matrices if ins.is_matrix else 0))
        addrs.append(ad)
        acts.append(act)
        srcs.append(np.full(rows, k))
        iters.append(np.repeat(np.arange(L), nw))
        wps.append(np.tile(np.arange(nw), L))
        reps.append(np.full(rows, ins.repeat, np.int64))
        tids.append(tid)
        lidx.append(li)
        errs += [err] * rows

    cat = lambda xs, shape, dt: np.concatenate(xs) if xs else np.zeros(shape, dt)  # noqa: E731
    batch = WarpBatch(
        kind=cat(kinds, (0,), np.int64).astype(np.int64),
        width=cat(widths, (0,), np.int64).astype(np.int64),
        matrices=cat(mats, (0,), np.int64).astype(np.int64),
        addr=narrow(cat(addrs, (0, W), np.int64)),
        active=cat(acts, (0, W), bool),
    )
    # the views need lane-level detail; the command line and the advisor only need the counts
    result = analyze_batch(batch, hw) if detail else count_wavefronts(batch, hw)
    errors = [e or (f"warp {w}: {r}" if r else None) for e, r, w in zip(errs, result.error, np.concatenate(wps) if wps else [])]
    bad = np.array([e is not None for e in errors], bool)
    if bad.any():
        result.wavefronts = np.where(bad, -1, result.wavefronts)
        for r in np.flatnonzero(bad):
            k = int(cat(srcs, (0,), np.int64)[r])
            instr_errors.setdefault(k, errors[r] or "")
    return Analysis(
        pattern=pattern,
        batch=batch,
        result=result,
        source=cat(srcs, (0,), np.int64).astype(np.int64),
        iteration=cat(iters, (0,), np.int64).astype(np.int64),
        warp=cat(wps, (0,), np.int64).astype(np.int64),
        repeat=cat(reps, (0,), np.int64),
        lane_tid=cat(tids, (0, W), np.int64),
        lane_index=cat(lidx, (0, W, 3), np.int64),
        loop_values=loop_values,
        errors=errors,
        instruction_errors=instr_errors,
        instruction_notes=instr_notes,
    )


# ---- one instruction in detail ---------------------------------------------------------------
@dataclass
class BankAccess:
    """One bank word an instruction touches: which lanes share it and the wavefront that serves it."""

    bank: int
    word: int  # word index in shared memory (address // bank_width)
    lanes: list[int]
    wavefront: int


@dataclass
class InstructionDetail:
    """What one warp instruction does to each bank: the data of the matrix and timeline views."""

    row: int
    wavefronts: int
    ideal: int
    degree: int
    lane_addr: np.ndarray  # (W,) byte address, -1 not served
    lane_banks: np.ndarray  # (W, k) banks the lane touches, -1 padding
    lane_wave: np.ndarray  # (W,)
    lane_phase: np.ndarray  # (W,)
    lane_shared: np.ndarray  # (W,) bool: broadcast / same word as another lane
    lane_conflict: np.ndarray  # (W,) bool
    bank_load: np.ndarray  # (banks,) distinct words the bank delivers over the whole instruction
    accesses: list[BankAccess]  # one per (bank, word, wavefront)

    @property
    def worst_bank(self) -> int:
        return int(np.argmax(self.bank_load)) if self.bank_load.size else 0


def instruction_detail(an: Analysis, r: int) -> InstructionDetail:
    hw = an.hardware
    res = an.result
    served = res.served[r]
    addr = np.where(served, an.batch.addr[r], -1)
    width = int(an.batch.width[r])
    u = max(width, hw.bank_width)
    nb = u // hw.bank_width
    first_word = np.where(served, (addr // u) * (u // hw.bank_width), -1)
    words = first_word[:, None] + np.arange(nb)[None, :]
    banks = np.where(served[:, None], words % hw.banks, -1)
    wave = res.lane_wave[r]
    # one entry per (word, wavefront): lanes that share it
    keys = {}
    lanes_served = np.flatnonzero(served)
    for lane in lanes_served:  # <= warp_size lanes of one instruction, for display only
        for j in range(nb):
            key = (int(words[lane, j]), int(wave[lane]))
            keys.setdefault(key, []).append(int(lane))
    accesses = [BankAccess(w % hw.banks, w, lanes, wv) for (w, wv), lanes in sorted(keys.items(), key=lambda x: (x[0][1], x[0][0] % hw.banks))]
    load = np.zeros(hw.banks, np.int64)
    for a in accesses:
        load[a.bank] += 1
    return InstructionDetail(
        row=r,
        wavefronts=int(res.wavefronts[r]),
        ideal=int(res.ideal[r]),
        degree=int(res.degree[r]),
        lane_addr=addr,
        lane_banks=banks,
        lane_wave=wave,
        lane_phase=res.lane_phase[r],
        lane_shared=res.lane_shared[r],
        lane_conflict=res.lane_conflict[r],
        bank_load=load,
        accesses=accesses,
    )
