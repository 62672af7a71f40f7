"""The vectorized wavefront engine: many warp instructions in, per-lane wavefront assignment out.

The rules themselves (phases, units, slots) live in :mod:`bankexplorer.model.hardware`; this
module only turns them into array arithmetic. One sort per batch groups each instruction's lanes
by (phase, slot, unit); a running count of distinct units inside each group gives every lane the
wavefront that serves it. No Python loop runs per lane or per instruction.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import hardware as hwr
from .hardware import KIND_CODE, Hardware

ADDRESS_LIMIT = 1 << 40
_GROUP_SHIFT = 41
_SENTINEL = np.iinfo(np.int64).max


@dataclass
class WarpBatch:
    """N warp instructions, each with one byte address per lane (inactive lanes masked)."""

    kind: np.ndarray  # (N,) int codes from hardware.KIND_CODE
    width: np.ndarray  # (N,) bytes per lane (16 for the matrix kinds)
    matrices: np.ndarray  # (N,) 1/2/4 for ldmatrix/stmatrix, 0 otherwise
    addr: np.ndarray  # (N, W) byte offsets, int64 (or int32 when all fit, see narrow())
    active: np.ndarray  # (N, W) bool

    def __len__(self) -> int:
        return int(self.kind.shape[0])

    @classmethod
    def from_rows(cls, rows: list[dict], warp_size: int = 32) -> "WarpBatch":
        """Rows shaped like the hardware data: kind, width or matrices, addresses (None = inactive);
        ``ptx`` (as the data names it) or ``space``/``op`` refine the kind."""
        n = len(rows)
        kind = np.empty(n, np.int64)
        width = np.empty(n, np.int64)
        matrices = np.zeros(n, np.int64)
        addr = np.zeros((n, warp_size), np.int64)  # narrowed to int32 below when it fits
        active = np.zeros((n, warp_size), bool)
        for i, r in enumerate(rows):
            if r["kind"] in hwr.MATRIX_KINDS:
                matrices[i] = r["matrices"]
                width[i] = 16
            else:
                width[i] = r["width"]
            if "ptx" in r:
                kind[i] = hwr.code_for_ptx(r["kind"], int(width[i]), r["ptx"])
            else:
                kind[i] = hwr.kind_code(r["kind"], int(width[i]), r.get("space", "shared"), r.get("op", "add"))
            a = r["addresses"]
            act = np.array([x is not None for x in a], bool)
            active[i, : len(a)] = act
            addr[i, : len(a)] = [x if x is not None else 0 for x in a]
        return cls(kind, width, matrices, narrow(addr), active)


def narrow(addr: np.ndarray) -> np.ndarray:
    """Addresses as int32 when they all fit: half the memory traffic for every step after."""
    if addr.size and addr.dtype != np.int32 and 0 <= addr.min() and addr.max() < (1 << 31) - 1:
        return addr.astype(np.int32)
    return addr


@dataclass
class BatchResult:
    """Per-instruction and per-lane outcome of :func:`analyze_batch`.

    Lane arrays are (N, W); ``-1`` marks a lane the hardware does not serve (inactive, or beyond
    the matrix count). Rows with an ``error`` have ``wavefronts == -1``.
    """

    wavefronts: np.ndarray  # (N,)
    ideal: np.ndarray  # (N,) fewest wavefronts any placement of the same distinct data could take
    degree: np.ndarray  # (N,) N-way: most distinct words one bank delivers within a phase
    phases: np.ndarray  # (N,) phases with at least one active lane
    lanes_per_phase: np.ndarray  # (N,)
    lane_phase: np.ndarray  # (N, W)
    lane_wave: np.ndarray  # (N, W) wavefront (0-based, across the instruction) serving the lane
    lane_unit: np.ndarray  # (N, W) aligned unit index (address // unit bytes)
    lane_shared: np.ndarray  # (N, W) bool: another lane of the same phase uses the same unit
    lane_conflict: np.ndarray  # (N, W) bool: its slot needs more than one wavefront in its phase
    served: np.ndarray  # (N, W) bool
    bytes_requested: np.ndarray  # (N,)
    bytes_moved: np.ndarray  # (N,)
    error: list[str | None]
    #: (N,) times the warp executes the instruction: 0 with no served lane, the iterations of a
    #: compare-and-swap loop, else 1 (what the profiler's instruction counters count)
    executions: np.ndarray | None = None
    #: (N,) wavefronts of the loads inside a compare-and-swap loop (counted as loads by a profiler)
    loop_load_wavefronts: np.ndarray | None = None
    #: (N,) the ideal of those loads (each iteration's load is an ordinary load of the lanes still
    #: looping: Nsight's source page gives the loop's LDS its own ideal, so a conflict-free loop's
    #: reloads are no bank conflict)
    loop_load_ideal: np.ndarray | None = None

    @property
    def excess(self) -> np.ndarray:
        return np.where(self.wavefronts >= 0, self.wavefronts - self.ideal, 0)


def served_lanes(batch: WarpBatch, hw: Hardware) -> np.ndarray:
    """Active lanes whose address the hardware uses (ldmatrix reads 8 lanes per matrix)."""
    matrix = np.flatnonzero((batch.kind == KIND_CODE["ldmatrix"]) | (batch.kind == KIND_CODE["stmatrix"]))
    if matrix.size == 0:
        return batch.active
    served = batch.active.copy()
    served[matrix] &= hwr.matrix_lane_active(batch.kind[matrix], batch.matrices[matrix], hw.warp_size)
    return served


def _bad_rows(addr: np.ndarray, width: np.ndarray, served: np.ndarray) -> np.ndarray:
    # one pass: low bits set = misaligned (widths are powers of two); bits at 40 and above are
    # set for negative addresses and for addresses past ADDRESS_LIMIT
    if addr.dtype == np.int32:  # below ADDRESS_LIMIT by construction: only the sign bit to check
        mask = ((np.asarray(width) - 1) | np.iinfo(np.int32).min).astype(np.int32)
    else:
        mask = (np.asarray(width, np.int64) - 1) | ~np.int64(ADDRESS_LIMIT - 1)
    wrong = ((addr & mask[:, None]) != 0) & served
    return _any_per_row(wrong)


def _any_per_row(flags: np.ndarray) -> np.ndarray:
    """``flags.any(axis=1)`` for (N, 32) bools, 8 lanes per machine word (numpy's reduction over a
    short axis is slow)."""
    N, W = flags.shape
    if W % 8:
        return flags.any(axis=1)
    words = np.ascontiguousarray(flags).view(np.uint64).reshape(N, W // 8)
    out = words[:, 0].copy()
    for k in range(1, W // 8):
        out |= words[:, k]
    return out != 0


def validate_batch(batch: WarpBatch, hw: Hardware, served: np.ndarray | None = None) -> tuple[np.ndarray, list[str | None]]:
    """Misaligned or out-of-range lanes: a mask of bad instructions and a message for each."""
    if served is None:
        served = served_lanes(batch, hw)
    bad = _bad_rows(batch.addr, batch.width, served)
    return bad, _messages(batch, hw, bad)


def _messages(batch: WarpBatch, hw: Hardware, bad: np.ndarray) -> list[str | None]:
    """Say what is wrong with each bad instruction (only those: messages are for people)."""
    errors: list[str | None] = [None] * len(batch)
    rows = np.flatnonzero(bad)
    if rows.size == 0:
        return errors
    sub = WarpBatch(batch.kind[rows], batch.width[rows], batch.matrices[rows], batch.addr[rows], batch.active[rows])
    served = served_lanes(sub, hw)
    neg = served & ((sub.addr < 0) | (sub.addr >= ADDRESS_LIMIT))
    mis = served & ((sub.addr & (sub.width[:, None] - 1)) != 0)
    for i, r in enumerate(rows[:10000]):
        if neg[i].any():
            lane = int(np.argmax(neg[i]))
            errors[r] = f"lane {lane}: address {int(sub.addr[i, lane])} is outside shared memory"
        else:
            lane = int(np.argmax(mis[i]))
            w = int(sub.width[i])
            errors[r] = (
                f"lane {lane}: {w}-byte access at byte {int(sub.addr[i, lane])} is misaligned "
                f"(must be a multiple of {w})"
            )
    for r in rows[10000:]:
        errors[r] = "misaligned or out-of-range address"
    return errors


def _count_per_row(flags: np.ndarray) -> np.ndarray:
    """``np.count_nonzero(flags, axis=1)`` for (N, W) bools: 8 lanes per machine word, popcount."""
    N, W = flags.shape
    if W % 8 or not hasattr(np, "bitwise_count"):
        return np.count_nonzero(flags, axis=1)
    words = np.ascontiguousarray(flags).view(np.uint64).reshape(N, W // 8)
    return np.bitwise_count(words).sum(axis=1, dtype=np.int64)


def _log2(x):
    """Exact log2 of powers of two (scalars or arrays)."""
    if np.ndim(x) == 0:
        return int(x).bit_length() - 1
    return np.log2(x).astype(np.int64)


CHUNK_ROWS = 12500  # rows per task; two tasks run at once (numpy releases the GIL)
_POOL = None


def _pool():
    global _POOL
    if _POOL is None:
        import os
        from concurrent.futures import ThreadPoolExecutor

        _POOL = ThreadPoolExecutor(max_workers=max(1, min(4, os.cpu_count() or 1)))
    return _POOL


def analyze_batch(batch: WarpBatch, hw: Hardware = hwr.NVIDIA_SM70_SM90, detail: bool = True,
                  executions: bool = True, merge: bool = True) -> BatchResult:
    """Wavefronts of every instruction; with ``detail`` also which wavefront serves each lane,
    broadcasts and conflicting slots (what the views draw). Without ``executions`` the result's
    ``executions`` and ``loop_load_wavefronts`` are None (the compare-and-swap loops' iterations
    are not followed): for callers that want the wavefronts only. ``merge=False``: 8/16-byte
    loads in their phases before any merge (see :func:`source_page_wavefronts`)."""
    N, W = batch.addr.shape
    chunks = [slice(s, s + CHUNK_ROWS) for s in range(0, max(N, 1), CHUNK_ROWS)]

    def run(sl: slice) -> dict:
        part = WarpBatch(batch.kind[sl], batch.width[sl], batch.matrices[sl], batch.addr[sl], batch.active[sl])
        served = served_lanes(part, hw)
        bad = _bad_rows(part.addr, part.width, served)
        if bad.any():
            served = served & ~bad[:, None]
        out = _analyze_rows(part.kind, part.width, part.addr, served, hw, detail, merge)
        out["bad"] = bad
        return out

    parts = list(_pool().map(run, chunks)) if len(chunks) > 1 else [run(chunks[0])]
    out = {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}
    bad = out.pop("bad")
    none = np.zeros((0, W), bool)
    execs, loop_loads, loop_ideal = _executions(batch, out["served"], bad, hw) if executions else (None, None, None)
    return BatchResult(
        executions=execs,
        loop_load_wavefronts=loop_loads,
        loop_load_ideal=loop_ideal,
        wavefronts=np.where(bad, -1, out.pop("wavefronts")),
        error=_messages(batch, hw, bad),
        lane_phase=out.pop("lane_phase", none),
        lane_wave=out.pop("lane_wave", none),
        lane_unit=out.pop("lane_unit", none),
        lane_shared=out.pop("lane_shared", none),
        lane_conflict=out.pop("lane_conflict", none),
        **out,
    )


def source_page_wavefronts(batch: WarpBatch, res: BatchResult, hw: Hardware = hwr.NVIDIA_SM70_SM90) -> np.ndarray:
    """(N,) what Nsight Compute's source page counts for each row, where ``res`` (this batch's
    counts) is what the hardware serves: they differ only on 8/16-byte loads whose phases merged
    and then conflict (:func:`~.hardware.source_page_cost`)."""
    out = np.asarray(res.wavefronts).copy()
    plain = np.clip(hw.row_bytes // hwr.unit_bytes(np.asarray(batch.width), hw), 1, batch.addr.shape[1])
    merged = np.flatnonzero((np.asarray(res.lanes_per_phase) > plain) & (out > 0))
    if merged.size == 0:
        return out
    W = batch.addr.shape[1]
    for per in np.unique(np.asarray(res.lanes_per_phase)[merged]):
        rows = merged[np.asarray(res.lanes_per_phase)[merged] == per]
        part = WarpBatch(batch.kind[rows], batch.width[rows], batch.matrices[rows], batch.addr[rows],
                         batch.active[rows])
        whole = analyze_batch(part, hw, executions=False)
        split = analyze_batch(part, hw, executions=False, merge=False)
        cost_m = _phase_costs(whole.lane_wave, whole.served, W // int(per))
        cost_s = _phase_costs(split.lane_wave, split.served, 2 * (W // int(per)))
        halves = cost_s.reshape(len(rows), -1, 2).sum(axis=2)
        out[rows] = hwr.source_page_cost(cost_m, halves).sum(axis=1)
    return out


def _phase_costs(lane_wave: np.ndarray, served: np.ndarray, phases: int) -> np.ndarray:
    """(N, phases) wavefronts of each phase (consecutive lanes), from the wavefront serving each lane."""
    N, W = lane_wave.shape
    w = lane_wave.reshape(N, phases, W // phases)
    s = served.reshape(N, phases, W // phases)
    hi = np.where(s, w, -1).max(axis=2)
    lo = np.where(s, w, np.iinfo(np.int64).max).min(axis=2)
    return np.where(s.any(axis=2), hi - lo + 1, 0)


def _executions(batch: WarpBatch, served: np.ndarray, bad: np.ndarray,
                hw: Hardware) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Warp instructions executed per row, and the wavefronts and ideal of the loads of
    compare-and-swap loops (few rows: the loop rule runs per such row)."""
    executions = (_count_per_row(served) > 0).astype(np.int64)
    executions[bad] = 0
    loop_loads = np.zeros(len(batch), np.int64)
    loop_ideal = np.zeros(len(batch), np.int64)
    rows = np.flatnonzero((batch.kind == KIND_CODE["atomic_cas_loop"]) & ~bad & (executions > 0))
    if rows.size:
        executions[rows], loop_loads[rows], loop_ideal[rows] = _cas_loops(
            np.asarray(batch.addr[rows], np.int64), served[rows], np.asarray(batch.width[rows], np.int64), hw)
    return executions, loop_loads, loop_ideal


def _cas_loops(addr: np.ndarray, served: np.ndarray, width: np.ndarray,
               hw: Hardware) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Compare-and-swap loops (hardware notes; ``reference.reference_cas_loop`` lane by lane): per
    row, the iterations and the wavefronts and ideal of the reloads. Each lane's iteration is its
    rank among the lanes of its (phase, slot); a unit is reloaded until the iteration of its last
    lane, and iteration j costs, per phase, the most units any slot still has (its ideal, as any
    load's: the units still loaded over the slots, rounded up)."""
    R, W = addr.shape
    u = np.maximum(width, hw.bank_width)
    slots = np.maximum(hw.row_bytes // u, 1)
    per = np.clip(hw.row_bytes // u, 1, W)
    lanes = np.arange(W)[None, :]
    unit = addr // u[:, None]
    slot = unit % slots[:, None]
    phase = lanes // per[:, None]
    row = np.broadcast_to(np.arange(R)[:, None], (R, W))
    r, lane, ph, sl, un = (x[served] for x in (row, np.broadcast_to(lanes, (R, W)), phase, slot, unit))
    order = np.lexsort((lane, sl, ph, r))  # groups (row, phase, slot), lanes in order inside
    r, lane, ph, sl, un = r[order], lane[order], ph[order], sl[order], un[order]
    gstart = np.r_[True, (r[1:] != r[:-1]) | (ph[1:] != ph[:-1]) | (sl[1:] != sl[:-1])]
    gid = np.cumsum(gstart) - 1
    first = np.flatnonzero(gstart)
    rank = np.arange(r.size) - first[gid]
    iterations = np.zeros(R, np.int64)
    np.maximum.at(iterations, r, rank + 1)
    # per unit of a group: the iteration of its last lane
    uorder = np.lexsort((un, gid))
    g2, u2, rk2 = gid[uorder], un[uorder], rank[uorder]
    ustart = np.r_[True, (g2[1:] != g2[:-1]) | (u2[1:] != u2[:-1])]
    uid = np.cumsum(ustart) - 1
    last = np.zeros(int(uid[-1]) + 1 if uid.size else 0, np.int64)
    np.maximum.at(last, uid, rk2)
    ugroup = g2[ustart]
    J = int(iterations.max(initial=0))
    G = first.size
    alive = np.zeros((G, J + 1), np.int64)  # units of each group still reloaded at iteration j
    np.add.at(alive, (ugroup, last), 1)
    alive = np.cumsum(alive[:, ::-1], axis=1)[:, ::-1][:, :J]
    # groups of one (row, phase) are consecutive: the most alive units over their slots, per j
    pstart = np.r_[True, (r[first][1:] != r[first][:-1]) | (ph[first][1:] != ph[first][:-1])]
    pidx = np.flatnonzero(pstart)
    per_phase = np.maximum.reduceat(alive, pidx, axis=0) if G else alive
    units = np.add.reduceat(alive, pidx, axis=0) if G else alive
    prow = r[first][pidx]
    s = slots[prow][:, None]
    loads = np.zeros(R, np.int64)
    ideal = np.zeros(R, np.int64)
    np.add.at(loads, prow, per_phase.sum(axis=1))
    np.add.at(ideal, prow, ((units + s - 1) // s).sum(axis=1))
    return iterations, loads, ideal


def count_wavefronts(batch: WarpBatch, hw: Hardware = hwr.NVIDIA_SM70_SM90, executions: bool = True) -> BatchResult:
    """Counts only (no lane arrays): for large batches, the command line and the advisor."""
    return analyze_batch(batch, hw, detail=False, executions=executions)


def _analyze_rows(kind, width, addr, served, hw: Hardware, detail: bool, merge: bool = True) -> dict:
    """Sort each row's lanes by (phase, slot, unit); then everything is a flat segment reduction
    over the distinct units: their count per (phase, slot), the most per phase (its cost), the sum
    over phases. Every size involved is a power of two (Hardware.validate, WIDTHS): shifts, not
    divisions. Keys are 32-bit when the addresses allow it."""
    N, W = addr.shape
    width = np.asarray(width, dtype=np.int64)
    per = hwr.lanes_per_phase(kind, width, addr, served, hw, merge)
    u = hwr.unit_bytes(width, hw).astype(np.int64)
    slots = np.maximum(hw.row_bytes // u, 1)
    unit = addr >> _log2(u).astype(addr.dtype)[:, None]
    slot_bits = _log2(int(slots.max())) if N else 0
    top = slot_bits + (_log2(W // int(per.min())) if N else 0)
    small = N and int(unit.max(initial=0)) < (1 << (31 - top))  # inactive lanes too: harmless
    dtype = np.int32 if small else np.int64
    shift = (31 if small else 62) - top
    sentinel = np.iinfo(dtype).max
    lanes = np.arange(W, dtype=dtype)
    unit = unit.astype(dtype, copy=False)
    phase = lanes[None, :] >> _log2(per).astype(dtype)[:, None]
    # key = (phase, slot, unit) packed in one integer, built in place (fewer temporaries)
    key = unit & (slots - 1).astype(dtype)[:, None]
    key <<= dtype(shift)
    key |= unit
    key |= phase << dtype(slot_bits + shift)
    np.copyto(key, sentinel, where=~served)
    if detail:
        order = np.argsort(key, axis=1)
        flat = (order + (np.arange(N, dtype=np.int64) * W)[:, None]).ravel()
        skey = key.ravel()[flat]
    else:
        skey = np.sort(key, axis=1).ravel()

    valid = skey != sentinel
    first = valid.copy()
    first[1:] &= skey[1:] != skey[:-1]
    first[::W] = valid[::W]
    atomic = np.isin(kind, hwr.ATOMIC_CODES)
    if atomic.any():  # atomics: equal addresses still count once per lane
        first.reshape(N, W)[atomic] = valid.reshape(N, W)[atomic]
    # from here on, one entry per distinct unit (row-major, sorted by phase, slot, unit)
    kpos = np.flatnonzero(first)
    K = kpos.size
    row_bits = _log2(W)
    krow = kpos >> row_bits
    if (N << (top + 1)) < (1 << 31):  # (row, phase, slot) fits 32 bits: halve the traffic below
        krow = krow.astype(np.int32)
    gk = (krow << (top + 1)) | (skey[kpos] >> dtype(shift))
    run = np.ones(K, bool)  # a run = the distinct units of one (row, phase, slot)
    run[1:] = gk[1:] != gk[:-1]
    rstart = np.flatnonzero(run)
    seg = np.diff(np.append(rstart, K))  # distinct units per (row, phase, slot)
    gp = gk[rstart] >> slot_bits  # (row, phase)
    pst = np.ones(rstart.size, bool)
    pst[1:] = gp[1:] != gp[:-1]
    pidx = np.flatnonzero(pst)
    phase_cost = np.maximum.reduceat(seg, pidx) if pidx.size else seg[:0]
    phase_distinct = np.add.reduceat(seg, pidx) if pidx.size else seg[:0]
    prow = gp[pidx] >> (top + 1 - slot_bits)
    pslots = slots[prow]
    phase_ideal = (phase_distinct + pslots - 1) >> _log2(pslots)
    rst = np.ones(prow.size, bool)
    rst[1:] = prow[1:] != prow[:-1]
    ridx = np.flatnonzero(rst)
    present = prow[ridx]
    wavefronts = np.zeros(N, np.int64)
    ideal = np.zeros(N, np.int64)
    degree = np.zeros(N, np.int64)
    phases = np.zeros(N, np.int64)
    if ridx.size:  # rows with no served lane keep zeros: they cost nothing
        wavefronts[present] = np.add.reduceat(phase_cost, ridx)
        ideal[present] = np.add.reduceat(phase_ideal, ridx)
        degree[present] = np.maximum.reduceat(phase_cost, ridx)
        phases[present] = np.diff(np.append(ridx, prow.size))
    twice = hwr.passes(kind) > 1
    if twice.any():  # compare-and-swap: every phase goes through the banks twice
        wavefronts = np.where(twice, 2 * wavefronts, wavefronts)
        ideal = np.where(twice, 2 * ideal, ideal)
    out = {
        "wavefronts": wavefronts,
        "ideal": ideal,
        "degree": degree,
        "phases": phases,
        "lanes_per_phase": per,
        "served": served,
        "bytes_requested": _count_per_row(served) * width,
        "bytes_moved": wavefronts * hw.row_bytes,
    }
    if not detail:
        return out

    # per distinct unit: its rank in its (phase, slot) = the wavefront of its phase serving it
    run_of = np.cumsum(run) - 1
    phase_of_run = np.cumsum(pst) - 1
    before = np.cumsum(phase_cost) - phase_cost  # cost of all earlier phases, across rows
    row_base = np.zeros(prow.size, np.int64)
    row_base[ridx] = before[ridx]
    row_base = np.maximum.accumulate(row_base)  # cost before this row's first phase
    wave_k = (before - row_base)[phase_of_run[run_of]] + np.arange(K) - rstart[run_of]
    # pack wavefront, conflict and broadcast flags per distinct unit: one gather, one scatter
    packed_k = (wave_k << 2) | ((seg > 1)[run_of].astype(np.int64) << 1)
    lane_k = np.cumsum(first) - 1
    s_packed = np.where(valid, packed_k[np.maximum(lane_k, 0)] if K else 0, -4)
    dup = valid & ~first  # this lane repeats the unit of the lane before it (sorted order)
    shared = dup.copy()
    shared[:-1] |= dup[1:]
    s_packed |= shared
    res = np.empty(N * W, np.int64)
    res[flat] = s_packed
    res = res.reshape(N, W)
    out.update(
        lane_phase=np.where(served, phase, -1).astype(np.int64),
        lane_wave=np.where(served, res >> 2, -1),
        lane_unit=np.where(served, unit, -1).astype(np.int64),
        lane_shared=served & ((res & 1) != 0),
        lane_conflict=served & ((res & 2) != 0),
    )
    return out
