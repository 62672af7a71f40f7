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
    addr: np.ndarray  # (N, W) int64 byte offsets
    active: np.ndarray  # (N, W) bool

    def __len__(self) -> int:
        return int(self.kind.shape[0])

    @classmethod
    def from_rows(cls, rows: list[dict], warp_size: int = 32) -> "WarpBatch":
        """Rows shaped like the hardware data: kind, width or matrices, addresses (None = inactive)."""
        n = len(rows)
        kind = np.empty(n, np.int64)
        width = np.empty(n, np.int64)
        matrices = np.zeros(n, np.int64)
        addr = np.zeros((n, warp_size), np.int64)
        active = np.zeros((n, warp_size), bool)
        for i, r in enumerate(rows):
            kind[i] = KIND_CODE[r["kind"]]
            if r["kind"] in hwr.MATRIX_KINDS:
                matrices[i] = r["matrices"]
                width[i] = 16
            else:
                width[i] = r["width"]
            a = r["addresses"]
            act = np.array([x is not None for x in a], bool)
            active[i, : len(a)] = act
            addr[i, : len(a)] = [x if x is not None else 0 for x in a]
        return cls(kind, width, matrices, addr, active)


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
    mask = (np.asarray(width, np.int64) - 1) | ~np.int64(ADDRESS_LIMIT - 1)
    return ((addr & mask[:, None]) != 0).__and__(served).any(axis=1)


def validate_batch(batch: WarpBatch, hw: Hardware, served: np.ndarray | None = None) -> tuple[np.ndarray, list[str | None]]:
    """Misaligned or out-of-range lanes: a mask of bad instructions and a message for each."""
    if served is None:
        served = served_lanes(batch, hw)
    bad = _bad_rows(batch.addr, batch.width, served)
    errors: list[str | None] = [None] * len(batch)
    rows = np.flatnonzero(bad)
    neg = served[rows] & ((batch.addr[rows] < 0) | (batch.addr[rows] >= ADDRESS_LIMIT))
    mis = served[rows] & ((batch.addr[rows] & (batch.width[rows, None] - 1)) != 0)
    for i, r in enumerate(rows[:10000]):  # only bad instructions: messages are for people
        if neg[i].any():
            lane = int(np.argmax(neg[i]))
            errors[r] = f"lane {lane}: address {int(batch.addr[r, lane])} is outside shared memory"
        else:
            lane = int(np.argmax(mis[i]))
            w = int(batch.width[r])
            errors[r] = (
                f"lane {lane}: {w}-byte access at byte {int(batch.addr[r, lane])} is misaligned "
                f"(must be a multiple of {w})"
            )
    for r in rows[10000:]:
        errors[r] = "misaligned or out-of-range address"
    return bad, errors


def _log2(x):
    """Exact log2 of powers of two (scalars or arrays)."""
    if np.ndim(x) == 0:
        return int(x).bit_length() - 1
    return np.log2(x).astype(np.int64)


CHUNK_ROWS = 4096  # keeps each step's arrays in cache; the result does not depend on it


def analyze_batch(batch: WarpBatch, hw: Hardware = hwr.NVIDIA_SM70_SM90, detail: bool = True) -> BatchResult:
    """Wavefronts of every instruction; with ``detail`` also the per-lane assignment and flags."""
    N, W = batch.addr.shape
    bad, errors = validate_batch(batch, hw)
    parts = []
    for s in range(0, max(N, 1), CHUNK_ROWS):
        sl = slice(s, s + CHUNK_ROWS)
        parts.append(
            _analyze_rows(
                batch.kind[sl], batch.width[sl], batch.matrices[sl], batch.addr[sl], batch.active[sl], bad[sl], hw, detail
            )
        )
    out = {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}
    wavefronts = np.where(bad, -1, out.pop("wavefronts"))
    empty = np.zeros((N, W), bool) if not detail else None
    return BatchResult(
        wavefronts=wavefronts,
        error=errors,
        lane_phase=out.pop("lane_phase", empty),
        lane_wave=out.pop("lane_wave", empty),
        lane_unit=out.pop("lane_unit", empty),
        lane_shared=out.pop("lane_shared", empty),
        lane_conflict=out.pop("lane_conflict", empty),
        **out,
    )


def _analyze_rows(kind, width, matrices, addr, active, bad, hw: Hardware, detail: bool) -> dict:
    N, W = addr.shape
    kind = np.asarray(kind)
    width = np.asarray(width, dtype=np.int64)
    matrix = (kind == KIND_CODE["ldmatrix"]) | (kind == KIND_CODE["stmatrix"])
    served = active & ~bad[:, None]
    if matrix.any():
        served &= ~matrix[:, None] | hwr.matrix_lane_active(kind, matrices, W)
    addr = np.where(served, addr, 0)

    per = hwr.lanes_per_phase(kind, width, addr, served, hw)
    # every size here is a power of two (Hardware.validate, WIDTHS): shifts instead of divisions
    lanes = np.arange(W, dtype=np.int64)
    phase = lanes[None, :] >> _log2(per)[:, None]
    u = hwr.unit_bytes(width, hw).astype(np.int64)
    slots = np.maximum(hw.row_bytes // u, 1)
    unit = addr >> _log2(u)[:, None]
    n_slots = int(slots.max()) if N else 1
    group = (phase << _log2(n_slots)) | (unit & (slots - 1)[:, None])
    key = np.where(served, (group << _GROUP_SHIFT) | unit, _SENTINEL)

    # sort each instruction's lanes by (phase, slot, unit); lanes sharing a unit become neighbours
    order = np.argsort(key, axis=1)
    flat = (order + (np.arange(N, dtype=np.int64) * W)[:, None]).ravel()
    skey = key.ravel()[flat].reshape(N, W)
    valid = skey != _SENTINEL
    same_prev = np.zeros((N, W), bool)
    same_prev[:, 1:] = skey[:, 1:] == skey[:, :-1]
    atomic = (kind == KIND_CODE["atomic"])[:, None]
    first = valid & (~same_prev | atomic)  # atomics: every lane counts, equal addresses too
    sgroup = (skey >> _GROUP_SHIFT).astype(np.int32)
    sphase = sgroup >> _log2(n_slots)
    gstart = np.ones((N, W), bool)
    gstart[:, 1:] = sgroup[:, 1:] != sgroup[:, :-1]
    pstart = np.ones((N, W), bool)
    pstart[:, 1:] = sphase[:, 1:] != sphase[:, :-1]
    pend = np.ones((N, W), bool)
    pend[:, :-1] = pstart[:, 1:]
    pend &= valid

    cs = np.cumsum(first, axis=1, dtype=np.int32)
    srank = cs - np.maximum.accumulate(np.where(gstart, cs - first, 0), axis=1) - 1
    # phases are contiguous after the sort: a running max offset by phase gives each phase's cost
    big = W + 1
    pm = np.maximum.accumulate(np.where(valid, sphase * big + srank + 1, 0), axis=1)
    cost_at_end = np.where(pend, pm - sphase * big, 0)
    wavefronts = cost_at_end.sum(axis=1)
    pbase = np.maximum.accumulate(np.where(pstart, cs - first, 0), axis=1)
    distinct_at_end = np.where(pend, cs - pbase, 0)
    ideal = ((distinct_at_end + (slots - 1)[:, None]) >> _log2(slots)[:, None]).sum(axis=1)
    degree = np.where(valid, srank + 1, 0).max(axis=1)
    out = {
        "wavefronts": wavefronts,
        "ideal": ideal,
        "degree": degree,
        "phases": pend.sum(axis=1),
        "lanes_per_phase": per,
        "served": served,
        "bytes_requested": np.where(served, width[:, None], 0).sum(axis=1),
        "bytes_moved": wavefronts * hw.row_bytes,
    }
    if not detail:
        return out

    cum = np.cumsum(cost_at_end, axis=1)
    swave = np.where(valid, cum - cost_at_end + srank, -1)
    same_next = np.zeros((N, W), bool)
    same_next[:, :-1] = same_prev[:, 1:]
    sshared = valid & ~atomic & (same_prev | same_next)
    # group size = rank at the group's last lane + 1; spread it back over the group
    gend = np.ones((N, W), bool)
    gend[:, :-1] = gstart[:, 1:]
    end_pos = np.where(gend, lanes[None, :], W - 1)
    end_pos = np.flip(np.minimum.accumulate(np.flip(end_pos, axis=1), axis=1), axis=1)
    gsize = np.take_along_axis(srank, end_pos, axis=1) + 1
    sconflict = valid & (gsize > 1)

    def unsort(sorted_vals: np.ndarray, fill) -> np.ndarray:
        res = np.empty(N * W, sorted_vals.dtype)
        res[flat] = sorted_vals.ravel()
        res = res.reshape(N, W)
        return np.where(served, res, fill)

    out.update(
        lane_phase=np.where(served, phase, -1),
        lane_wave=unsort(swave, -1),
        lane_unit=np.where(served, unit, -1),
        lane_shared=unsort(sshared, False),
        lane_conflict=unsort(sconflict, False),
    )
    return out


def count_wavefronts(batch: WarpBatch, hw: Hardware = hwr.NVIDIA_SM70_SM90) -> BatchResult:
    """Wavefronts, ideal and N-way degree only, for large batches (benchmarks, the advisor).

    Same rules as :func:`analyze_batch`, computed differently: each phase becomes a row of its
    own, sorted by (slot, unit) in 32-bit keys when the addresses allow it, and a running count
    of distinct units per slot gives the phase's cost. Lane arrays of the result are empty.
    """
    N, W = batch.addr.shape
    served = served_lanes(batch, hw)
    bad, errors = validate_batch(batch, hw, served)
    if bad.any():
        served = served & ~bad[:, None]
    chunks = [slice(s, s + COUNT_CHUNK) for s in range(0, max(N, 1), COUNT_CHUNK)]

    def run(sl: slice):
        return _count_rows(batch.kind[sl], batch.width[sl], batch.addr[sl], served[sl], hw)

    # numpy releases the GIL in sorts and ufuncs: two threads use both cores of a small machine
    parts = list(_pool().map(run, chunks)) if len(chunks) > 1 else [run(chunks[0])]
    wavefronts, ideal, degree, per, req = (np.concatenate([p[i] for p in parts]) for i in range(5))
    none = np.zeros((0, W), bool)
    return BatchResult(
        wavefronts=np.where(bad, -1, wavefronts),
        ideal=ideal,
        degree=degree,
        phases=np.zeros(N, np.int64),
        lanes_per_phase=per,
        lane_phase=none,
        lane_wave=none,
        lane_unit=none,
        lane_shared=none,
        lane_conflict=none,
        served=none,
        bytes_requested=req,
        bytes_moved=wavefronts * hw.row_bytes,
        error=errors,
    )


COUNT_CHUNK = 16384
_POOL = None


def _pool():
    global _POOL
    if _POOL is None:
        import os
        from concurrent.futures import ThreadPoolExecutor

        _POOL = ThreadPoolExecutor(max_workers=max(1, min(4, os.cpu_count() or 1)))
    return _POOL


def _count_rows(kind, width, addr, served, hw: Hardware):
    N, W = addr.shape
    width = np.asarray(width, dtype=np.int64)
    per = hwr.lanes_per_phase(kind, width, addr, served, hw)
    u = hwr.unit_bytes(width, hw).astype(np.int64)
    slots = np.maximum(hw.row_bytes // u, 1)
    unit = addr >> _log2(u)[:, None]
    slot_bits = _log2(int(slots.max())) if N else 0
    small = N and int(unit.max(initial=0)) < (1 << (30 - slot_bits))  # inactive lanes too: harmless
    dtype = np.int32 if small else np.int64
    shift = 30 - slot_bits if small else _GROUP_SHIFT
    sentinel = np.iinfo(dtype).max
    unit = unit.astype(dtype, copy=False)
    key = np.where(served, ((unit & (slots - 1).astype(dtype)[:, None]) << dtype(shift)) | unit, sentinel)
    atomic = kind == KIND_CODE["atomic"]

    wavefronts = np.zeros(N, np.int64)
    ideal = np.zeros(N, np.int64)
    degree = np.zeros(N, np.int64)
    sizes = np.flatnonzero(np.bincount(per))
    for p in sizes:  # a handful of phase sizes (8, 16, 32 lanes), not one per row
        p = int(p)
        rows = np.flatnonzero(per == p) if sizes.size > 1 else np.arange(N)
        P = W // p
        R = rows.size * P
        skey = np.sort(key[rows].reshape(R, p), axis=1).ravel()
        valid = skey != sentinel
        first = valid.copy()
        first[1:] &= skey[1:] != skey[:-1]
        first[::p] = valid[::p]
        at = np.repeat(atomic[rows], P * p)
        if at.any():
            first[at] = valid[at]  # atomics: equal addresses still count once per lane
        # (row, slot) segments are contiguous after the sort: count the distinct units in each
        sslot = skey >> shift
        start = np.ones(R * p, bool)
        start[1:] = sslot[1:] != sslot[:-1]
        start[::p] = True
        pos = np.flatnonzero(start)
        cs = np.cumsum(first, dtype=np.int32)
        cs_before = np.concatenate(([0], cs))
        pos_end = np.empty_like(pos)
        pos_end[:-1] = pos[1:]
        pos_end[-1] = R * p
        seg = cs_before[pos_end] - cs_before[pos]
        row_start = np.flatnonzero((pos & (p - 1)) == 0)
        phase_cost = np.maximum.reduceat(seg, row_start).reshape(rows.size, P)
        ends = cs_before[p::p]
        distinct = ends - np.concatenate(([0], ends[:-1]))
        rslots = np.repeat(slots[rows], P)
        phase_ideal = ((distinct + rslots - 1) >> _log2(rslots)).reshape(rows.size, P)
        wavefronts[rows] = phase_cost.sum(axis=1)
        ideal[rows] = phase_ideal.sum(axis=1)
        degree[rows] = phase_cost.max(axis=1)
    return wavefronts, ideal, degree, per, np.count_nonzero(served, axis=1) * width
