"""Hopper's transaction barriers in shared memory (``mbarrier``, ``cuda::barrier``) and the bulk
copies they complete: ``SYNCS.EXCH.64`` (init), ``SYNCS.ARRIVE.TRANS64`` (arrive, expect bytes),
``UBLKCP`` (a bulk copy from global memory that completes bytes), ``ELECT``. The wait,
``SYNCS.PHASECHK.TRANS64.TRYWAIT``, is control flow and lives in :mod:`..simt`.

A barrier is kept as what it means, not as the hardware's bits: its phase, the arrivals still
pending in it, how many each phase expects, and the transaction bytes still owed. A phase
completes when no arrival and no byte is pending; the count then starts again. What the code
reads back is the token an arrive returns, of which only the phase's parity is kept, in bit 63
as the hardware's phase bit (a wait reads bit 31 of the token's high word; ``try_wait.parity``
compiles to the same check with the parity shifted there).

As measured (``resources/hardware/kernels/extra14/cuda_memcpy_async_barrier``): the init value is
``(0x100000 - count) << 1`` in its low word; a bulk copy's operands are ``[dst, barrier]`` (two
uniform registers), ``[source]`` (a 64-bit pair) and the size in 16-byte units; none of these
instructions moves a shared-memory wavefront in Nsight's counters. The bulk copy lands at once
here, so a wait never spins: the GPU's try-wait suspends the warp too, and measured no retry.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..issue import EmulationError, Issue
from ..operands import Mem, Pred, Reg
from ..state import WARP
from . import op
from .memory import _check, _GlobalView, _shared

U32 = np.uint32


@dataclass
class MBarrier:
    expected: int
    pending: int
    tx: int = 0
    phase: int = 0

    def complete_if_done(self) -> bool:
        if self.pending <= 0 and self.tx == 0:
            self.phase += 1
            self.pending = self.expected
            return True
        return False


def _address(iss: Issue, i: int) -> int:
    """The barrier's shared address (one per issue: the instructions take it from a uniform
    register, or the same value in every issuing lane)."""
    a = iss.address(i)[iss.on] if isinstance(iss.op(i), Mem) else np.asarray(iss.u(i))[iss.on]
    u = np.unique(a)
    if u.size != 1:
        raise EmulationError(f"{iss.ins.text!r}: the lanes name {u.size} different barriers")
    _check(u, 8, iss.b.shared.size, "shared", iss)
    return int(u[0])


def find(iss: Issue, i: int) -> tuple[int, MBarrier]:
    """The barrier operand ``i`` names: its address and state."""
    addr = _address(iss, i)
    return addr, _at(iss, addr)


def _at(iss: Issue, addr: int) -> MBarrier:
    bar = iss.b.mbarriers.get(addr)
    if bar is None:
        raise EmulationError(f"{iss.ins.text!r}: the barrier at shared address {addr:#x} was never initialised")
    return bar


def init(iss: Issue) -> None:
    """``SYNCS.EXCH.64 _, [bar], value``: a barrier expecting ``count`` arrivals a phase."""
    if not iss.on.any():
        return
    addr = _address(iss, 1)
    v = np.asarray(iss.u64(2)).astype(np.uint64)
    v = int(v) if v.ndim == 0 else int(v[iss.on][0])
    count = 0x100000 - ((v & 0xFFFFFFFF) >> 1 & 0xFFFFF)
    if not 0 < count <= 0xFFFFF:
        raise EmulationError(f"{iss.ins.text!r}: an init value {v:#x} that names no arrival count")
    iss.b.mbarriers[addr] = MBarrier(count, count)
    sh = _shared(iss)
    lane = np.flatnonzero(iss.on)[:1]
    sh.write(np.array([addr]), np.frombuffer(np.uint64(v).tobytes(), np.uint8).reshape(1, 8), 0, lane)


def arrive(iss: Issue) -> bool:
    """``SYNCS.ARRIVE.TRANS64[.RED][.A<n>T<..>] token, [bar], bytes``: each issuing thread arrives
    ``n`` times (1 unless ``A<n>`` says otherwise; ``A0`` only announces bytes) and adds ``bytes``
    to the transaction count (unless ``T0``). The token (``RZ``: none) holds the phase arrived in.
    True when the phase completed."""
    if not iss.on.any():
        return False
    addr, bar = find(iss, 1)
    mods = iss.ins.mods
    n = next((int(m[1]) for m in mods if len(m) >= 2 and m[0] == "A" and m[1].isdigit()), 1)
    threads = int(iss.on.sum())
    if not any(m.endswith("T0") for m in mods):  # the bytes to expect, from the register (RZ: none)
        by = np.broadcast_to(np.asarray(iss.u(2), np.int64), iss.S.shape)
        bar.tx += int(by[iss.on].sum())
    dst = iss.op(0)
    if isinstance(dst, Reg) and not dst.zero:  # the token: the parity of the phase arrived in, in bit 63
        iss.set64(0, np.full(iss.S.shape, np.uint64(bar.phase & 1) << np.uint64(63)))
    bar.pending -= n * threads
    return bar.complete_if_done()


def wait_done(iss: Issue) -> tuple[int, MBarrier, np.ndarray]:
    """For ``SYNCS.PHASECHK.TRANS64.TRYWAIT P, [bar], token``: the barrier and, per lane, whether
    the phase its token names has completed."""
    addr, bar = find(iss, 1)
    parity = np.broadcast_to(np.asarray(iss.u(2), np.int64) >> 31 & 1, iss.S.shape)  # the token's high word
    return addr, bar, parity != (bar.phase & 1)


@op("UBLKCP")
def ublkcp(iss: Issue) -> None:
    """``UBLKCP.S.G [dst, bar], [src], size``: ``size`` x 16 bytes from global memory into shared
    memory, then those bytes completed on the barrier (the copy lands at once here)."""
    if not iss.on.any():
        return
    ops = iss.ins.operands
    if len(ops) != 3 or not all(isinstance(o, Mem) for o in ops[:2]) or "S" not in iss.ins.mods \
            or "G" not in iss.ins.mods:
        raise EmulationError(f"{iss.ins.text!r}: only UBLKCP.S.G (global to shared) is modelled")
    d, s = ops[0], ops[1]
    if d.ureg is None or s.ureg is None:
        raise EmulationError(f"{iss.ins.text!r}: a bulk copy's addresses are uniform registers")
    w = int(np.flatnonzero(iss.on.reshape(-1, WARP).any(axis=1))[0])
    ur = iss.b.UR
    dst = int(ur[d.ureg.index][w]) + d.offset
    addr = int(ur[d.ureg.index + 1][w])
    src = int(ur[s.ureg.index][w]) | int(ur[s.ureg.index + 1][w]) << 32
    size = int(np.asarray(iss.u(2)).reshape(-1)[0] if np.ndim(iss.u(2)) else iss.u(2)) * 16
    if size <= 0 or size > iss.b.shared.size:
        raise EmulationError(f"{iss.ins.text!r}: a bulk copy of {size:,} bytes")
    _check(np.array([dst]), 16, iss.b.shared.size, "shared", iss)  # 16-byte aligned
    _check(np.array([dst + size - 16]), 16, iss.b.shared.size, "shared", iss)  # and inside
    raw, taint = _GlobalView(iss).read(np.array([src], np.int64), size)
    lane = np.array([w * WARP])
    _shared(iss).write(np.array([dst]), raw.reshape(1, size), taint, lane)
    bar = _at(iss, addr)
    bar.tx -= size
    if bar.complete_if_done():
        iss.run.sched.mbarrier_completed(addr)


@op("ELECT")
def elect(iss: Issue) -> None:
    """``ELECT P, R, Q``: in each warp, the lowest issuing thread whose ``Q`` holds is elected (``P``
    true there only); ``R``, when written, gets its lane number."""
    ops = iss.ins.operands
    q = np.broadcast_to(iss.pred(ops[2]) if len(ops) > 2 and isinstance(ops[2], Pred) else True, iss.S.shape)
    cand = (iss.on & q).reshape(-1, WARP)
    first = cand.argmax(axis=1)
    pick = np.zeros_like(cand)
    has = cand.any(axis=1)
    pick[np.flatnonzero(has), first[has]] = True
    iss.setp(0, pick.reshape(-1))
    if len(ops) > 1 and isinstance(ops[1], Reg) and not ops[1].zero:
        iss.set(1, np.repeat(first.astype(U32), WARP))
