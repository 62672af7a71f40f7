"""Control flow: the opcodes that decide which threads issue next (branches, convergence barriers,
block barriers, calls and returns, waits, exits), one small function each, registered like every
other opcode. They act on the issuing threads through the :class:`~bankexplorer.sass.issue.Issue`
and hand the decision to the scheduler (:mod:`bankexplorer.sass.simt`: reconvergence, barriers,
call sites) and its named policies (:mod:`bankexplorer.sass.policy`); which opcodes these are is
in the opcode facts (:data:`bankexplorer.sass.opcode.CONTROL_OPCODES`).
"""

from __future__ import annotations

import numpy as np

from ..calls import runtime_call
from ..issue import EmulationError, Issue
from ..operands import Barrier, Imm, Label, Pred, Reg
from ..simt import FULL, _lane_bits
from ..state import WARP
from . import op

def _target(iss: Issue) -> int:
    for o in iss.ins.operands:
        if isinstance(o, Label):
            if o.target is None:
                raise EmulationError(f"{iss.ins.text!r}: the branch target {o.name} is not in the kernel's code")
            return o.target
    raise EmulationError(f"{iss.ins.text!r}: no branch target")


def _mask_operand(iss: Issue, i: int) -> np.ndarray:
    return np.broadcast_to(np.asarray(iss.raw(i)).astype(np.int64), iss.S.shape)


@op("BRA", "JMP")
def op_bra(iss: Issue) -> None:
    ins = iss.ins
    taken = iss.on
    first = ins.operands[0] if ins.operands else None
    if "DIV" in ins.mods:
        # taken when the group is not every living thread of the mask (the warp is diverged); a
        # guard true in only some of the group's threads sends the whole group (measured: the
        # fast path after ``@!P1 BRA.DIV`` ran by no thread when P1 differed between lanes)
        want = _mask_operand(iss, 0).reshape(-1, WARP)
        sched = iss.run.sched
        alive = np.repeat(sched.alive, WARP).reshape(-1, WARP)
        here = np.repeat(_lane_bits(iss.on).astype(np.int64), WARP).reshape(-1, WARP)
        some = np.repeat(iss.on.reshape(-1, WARP).any(axis=1), WARP)
        taken = iss.S & some & ((want & alive & ~here) != 0).reshape(-1)
    elif isinstance(first, Pred):
        taken = taken & iss.pred(first)
    target = _target(iss)
    if target == ins.pc and taken.any():  # nothing runs between two issues of it: no way out
        raise EmulationError(f"{ins.text!r} branches to itself, so the threads that take it never finish (an "
                             f"endless loop: on the GPU the kernel would hang)", ins.line)
    iss.jump(taken, target)


@op("EXIT", "KILL")
def op_exit(iss: Issue) -> None:
    iss.exit(iss.on)


@op("BSSY")
def op_bssy(iss: Issue) -> None:
    x = iss.ins.operands[0].index
    B = iss.b.B[x]
    warps = np.repeat(iss.S.reshape(-1, WARP).any(axis=1), WARP)
    B[warps] = iss.on[warps]


@op("BMOV")
def op_bmov(iss: Issue) -> None:
    """``BMOV.32.CLEAR Rd, Bn``: a convergence barrier's members (the warp's lane mask) into a
    register, the barrier emptied; ``BMOV.32 Bn, Rs``: the members back (a function built with -G
    keeps its caller's barrier this way across its own)."""
    ops = iss.ins.operands
    b = iss.b
    warps = np.repeat(iss.on.reshape(-1, WARP).any(axis=1), WARP)
    if isinstance(ops[0], Barrier):
        v = np.broadcast_to(np.asarray(iss.u(1), np.uint32), iss.S.shape)
        # the warp's mask as its first issuing lane holds it
        _w, first = b.first_lanes(iss.on)
        per_warp = np.zeros(b.warps, np.uint32)
        per_warp[_w] = v[first]
        bits = (np.repeat(per_warp, WARP) >> b.lane_id) & 1
        b.B[ops[0].index][warps] = bits[warps].astype(bool)
        return
    if not isinstance(ops[1], Barrier):
        raise EmulationError(f"{iss.ins.text!r}: BMOV moves a convergence barrier")
    x = ops[1].index
    iss.set(0, np.repeat(_lane_bits(b.B[x]), WARP).astype(np.uint32))
    if "CLEAR" in iss.ins.mods:
        b.B[x][warps] = False


@op("YIELD")
def op_yield(iss: Issue) -> None:
    iss.run.sched.yield_(iss)


@op("BSYNC")
def op_bsync(iss: Issue) -> None:
    iss.run.sched.bsync(iss)


@op("BREAK")
def op_break(iss: Issue) -> None:
    x = iss.ins.operands[-1].index if iss.ins.operands else 0
    first = iss.ins.operands[0]
    on = iss.on & iss.pred(first) if isinstance(first, Pred) else iss.on
    iss.b.B[x] &= ~on
    iss.run.sched.advance(iss.ins.pc, iss)
    iss.run.sched.break_()


@op("WARPSYNC")
def op_warpsync(iss: Issue) -> None:
    if "ALL" in iss.ins.mods or not iss.ins.operands or isinstance(iss.ins.operands[0], Label):
        want = np.full(iss.S.shape, FULL, np.int64)
    else:
        want = _mask_operand(iss, 0)
    # COLLECTIVE (the divergent fallback of a warp-wide op on a mask that differs between lanes):
    # as EXCLUSIVE, one group per mask (measured: a MATCH.ALL inside it issued once per mask)
    iss.run.sched.warpsync(iss, np.where(iss.S, want, 0), iss.ins.has("EXCLUSIVE", "COLLECTIVE"))


@op("ENDCOLLECTIVE", "NANOSLEEP")
def op_nop(iss: Issue) -> None:
    """Instructions with no effect on what is modelled (scheduling hints)."""


@op("LEPC")
def op_lepc(iss: Issue) -> None:
    """``LEPC Rd, label``: the label's address into Rd:Rd+1 (a call's return address)."""
    iss.set64(0, np.uint64(_target(iss)))


@op("CALL")
def op_call(iss: Issue) -> None:
    if runtime_call(iss):  # printf, assert: the device runtime's functions (sass/calls.py)
        return
    iss.run.sched.calls.enter(np.flatnonzero(iss.on), iss.ins.line if iss.ins.own_line else None, iss.ins.text)
    iss.jump(iss.on, _target(iss))


@op("BRX", "JMX")
def op_brx(iss: Issue) -> None:
    """``BRX Ra, imm``: an indirect branch (a switch's jump table): to pc + 16 + Ra + imm, per lane."""
    to = np.broadcast_to(np.asarray(iss.u(0)).astype(np.int64), iss.S.shape) + int(iss.raw(1)) + iss.ins.pc + 16
    to = to & 0xFFFFFFFF
    for pc in np.unique(to[iss.on]):
        iss.jump(iss.on & (to == pc), int(pc))


@op("RET")
def op_ret(iss: Issue) -> None:
    reg = iss.ins.operands[0]
    if not isinstance(reg, Reg):
        raise EmulationError(f"{iss.ins.text!r}: the return address is not in a register")
    to = np.broadcast_to(np.asarray(iss.bits(reg)), iss.S.shape)
    if len(iss.ins.operands) > 1 and isinstance(iss.ins.operands[1], Imm):  # RET.ABS R20 0x0: plus an offset
        to = to + np.int64(iss.ins.operands[1].value)
    iss.run.sched.calls.leave(iss.on)
    for pc in np.unique(to[iss.on]):
        iss.jump(iss.on & (to == pc), int(pc))


@op("BAR")
def op_bar(iss: Issue) -> None:
    ins = iss.ins
    ops = ins.operands
    if not iss.on.any():  # predicated off: no arrival
        iss.run.sched.advance(ins.pc, iss)
        return
    count, red, bar, rest = 0, None, 0, list(enumerate(ops))
    if "SYNCALL" not in ins.mods and ops:
        v = np.asarray(iss.raw(0))
        bar = int(v) if v.ndim == 0 else int(v[iss.S].max(initial=0))
        rest = rest[1:]
    for i, o in rest:
        if isinstance(o, Pred):
            red = o
        elif isinstance(o, Imm | Reg):
            v = np.asarray(iss.raw(i))
            count = int(v.max()) if v.ndim == 0 else int(v[iss.on].max(initial=0))
    sched = iss.run.sched
    if "RED" in ins.mods:
        op = next(m for m in ins.mods if m in ("POPC", "AND", "OR"))
        vals = np.broadcast_to(iss.pred(red) if red is not None else True, iss.S.shape) & iss.on
        sched.arrive(iss, bar, count, True, (op, vals))
    elif "ARV" in ins.mods:
        sched.arrive(iss, bar, count, False)
    else:
        sched.arrive(iss, bar, count, True)


@op("SYNCS")
def op_syncs(iss: Issue) -> None:
    """Hopper's transaction barriers (:mod:`.ops.mbarrier`): init and arrive go on; a try-wait
    holds its threads until their phase completes."""
    from . import mbarrier

    mods = iss.ins.mods
    sched = iss.run.sched
    if "PHASECHK" in mods:
        if "TRYWAIT" not in mods and "TEST" not in mods:
            raise EmulationError(f"{iss.ins.text!r}: this barrier check is not modelled")
        sched.mbarrier_wait(iss)
        return
    if "EXCH" in mods:
        mbarrier.init(iss)
    elif "ARRIVE" in mods:
        if mbarrier.arrive(iss):
            addr = mbarrier.find(iss, 1)[0]
            sched.advance(iss.ins.pc, iss)
            sched.mbarrier_completed(addr)
            return
    else:
        raise EmulationError(f"{iss.ins.text!r}: this SYNCS form is not modelled")
    sched.advance(iss.ins.pc, iss)


@op("B2R")
def op_b2r(iss: Issue) -> None:
    res = iss.run.sched.bars.result
    for i, o in enumerate(iss.ins.operands):
        if isinstance(o, Pred):
            iss.setp(i, res != 0)
        elif isinstance(o, Reg):
            iss.set(i, res)


@op("BPT")
def op_trap(iss: Issue) -> None:
    if iss.on.any():
        raise EmulationError(f"the kernel traps (an assert or __trap()) at {iss.ins.text!r}", iss.ins.line)
