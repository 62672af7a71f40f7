"""Warp-wide instructions: SHFL, VOTE / VOTEU, REDUX, MATCH, MOVM. Each works on the lanes of every
issuing warp at once (arrays reshaped to warps x 32)."""

from __future__ import annotations

import numpy as np

from ..issue import EmulationError, Issue
from ..operands import Imm, Pred, Reg
from ..state import WARP
from . import op

U32 = np.uint32


def _ballot(mask: np.ndarray) -> np.ndarray:
    """(warps,) uint32 bit masks of a (lanes,) bool array."""
    m = mask.reshape(-1, WARP).astype(np.uint64) << np.arange(WARP, dtype=np.uint64)
    return m.sum(axis=1, dtype=np.uint64).astype(U32)


@op("SHFL")
def shfl(iss: Issue) -> None:
    """``SHFL.mode Pd, Rd, Ra, b, c``: Rd = Ra of the source lane, Pd = whether it was in range."""
    mode = next((m for m in iss.ins.mods if m in ("IDX", "UP", "DOWN", "BFLY")), None)
    if mode is None:
        raise EmulationError(f"{iss.ins.text!r}: shuffle mode not modelled")
    ops = iss.ins.operands
    if all(isinstance(ops[i], Imm) or type(ops[i]) is Reg and ops[i].zero for i in (3, 4)):
        # b and c written in the code (``SHFL.UP P0, R5, R38, 0x1, RZ``): each lane's source is the
        # same on every issue, worked out on the first
        src_lane, ok = iss.memo(shfl, lambda ins: _sources(iss, mode))
    else:
        src_lane, ok = _sources(iss, mode)
    src = np.broadcast_to(np.asarray(iss.raw(2), U32), (iss.b.lanes,))
    if type(iss.taint) is np.ndarray and iss.taint.ndim:  # each lane's: the source lane's goes with the value
        iss.taint = iss.taint[src_lane]
    iss.set(1, src[src_lane])
    if isinstance(ops[0], Pred):
        iss.setp(0, ok)


def _sources(iss: Issue, mode: str) -> tuple[np.ndarray, np.ndarray]:
    """(the thread each lane reads from, whether its source lane was in range) of a shuffle."""
    b = np.broadcast_to(np.asarray(iss.u(3), np.int64), (iss.b.lanes,))
    c = np.broadcast_to(np.asarray(iss.u(4), np.int64), (iss.b.lanes,))
    lane = iss.b.lane_id.astype(np.int64)
    clamp, seg = c & 0x1F, (c >> 8) & 0x1F
    max_lane = (lane & seg) | (clamp & ~seg)
    min_lane = lane & seg
    if mode == "IDX":
        j = min_lane | (b & 0x1F & ~seg)
        ok = j <= max_lane
    elif mode == "UP":
        j = lane - b
        ok = j >= max_lane
    elif mode == "DOWN":
        j = lane + b
        ok = j <= max_lane
    else:
        j = lane ^ (b & 0x1F)
        ok = j <= max_lane
    j = np.where(ok, j, lane)
    return iss.b.warp_of * WARP + j, ok


@op("VOTE")
def vote(iss: Issue) -> None:
    """``VOTE.ANY Rd, Pd, Ps`` (Rd: the ballot), ``.ALL``, ``.EQ``: over the issuing lanes."""
    ps = np.broadcast_to(iss.p(len(iss.ins.operands) - 1), (iss.b.lanes,)) & iss.on
    act = iss.on.reshape(-1, WARP)
    pw = ps.reshape(-1, WARP)
    mode = next((m for m in iss.ins.mods if m in ("ANY", "ALL", "EQ")), "ANY")
    anyv = pw.any(axis=1)
    allv = (pw | ~act).all(axis=1)
    res = {"ANY": anyv, "ALL": allv, "EQ": allv | ~anyv}[mode]
    ops = iss.ins.operands
    if isinstance(ops[0], Reg):
        iss.set(0, np.repeat(_ballot(ps), WARP))
        if len(ops) > 2 and isinstance(ops[1], Pred):
            iss.setp(1, np.repeat(res, WARP))
    else:
        iss.setp(0, np.repeat(res, WARP))


@op("VOTEU")
def voteu(iss: Issue) -> None:
    """The uniform vote: ``VOTEU.ANY UR4, UPT, PT`` (UR4 = the ballot), ``VOTEU.ANY UP0, P0``."""
    vote(iss)


_REDUX = {"SUM": np.add, "MIN": np.minimum, "MAX": np.maximum, "AND": np.bitwise_and, "OR": np.bitwise_or,
          "XOR": np.bitwise_xor}


@op("REDUX")
def redux(iss: Issue) -> None:
    """``REDUX.SUM URd, Ra``: a reduction of Ra over the issuing lanes, into a uniform register.
    With no operation named (``REDUX URd, Ra``) it is the AND (``redux.sync.and``: the operation
    whose encoding is 0, which the disassembler leaves unprinted)."""
    name = next((m for m in iss.ins.mods if m in _REDUX), "AND")
    signed = "S32" in iss.ins.mods
    v = np.broadcast_to(np.asarray(iss.u(1), U32), (iss.b.lanes,))
    v = v.view(np.int32).astype(np.int64) if signed else v.astype(np.int64)
    act = iss.on.reshape(-1, WARP)
    vw = v.reshape(-1, WARP)
    ident = {"SUM": 0, "MIN": np.iinfo(np.int64).max, "MAX": np.iinfo(np.int64).min, "AND": -1, "OR": 0, "XOR": 0}[name]
    red = _REDUX[name].reduce(np.where(act, vw, ident), axis=1)
    iss.set(0, np.repeat(red & 0xFFFFFFFF, WARP))


@op("MATCH")
def match(iss: Issue) -> None:
    """``MATCH.ANY Rd, Ra``: the lanes holding the same value; ``MATCH.ALL Rd, Pd, Ra`` or, as
    sm_90 prints it, ``MATCH.ALL Pd, Rd, Ra``."""
    ops = iss.ins.operands
    src = len(ops) - 1
    dst = next(i for i in range(src) if isinstance(ops[i], Reg))
    pd = next((i for i in range(src) if isinstance(ops[i], Pred)), None)
    v = np.broadcast_to(np.asarray(iss.u64(src) if "U64" in iss.ins.mods else iss.u(src)).astype(np.uint64),
                        (iss.b.lanes,)).reshape(-1, WARP)
    act = iss.on.reshape(-1, WARP)
    same = (v[:, :, None] == v[:, None, :]) & act[:, None, :] & act[:, :, None]
    masks = (same.astype(np.uint64) << np.arange(WARP, dtype=np.uint64)).sum(axis=2, dtype=np.uint64)
    if "ALL" in iss.ins.mods:
        full = (act.astype(np.uint64) << np.arange(WARP, dtype=np.uint64)).sum(axis=1, dtype=np.uint64)
        alleq = ((masks == full[:, None]) | ~act).all(axis=1)  # over the issuing lanes only
        iss.set(dst, np.repeat(np.where(alleq, full, 0).astype(U32), WARP))
        if pd is not None:
            iss.setp(pd, np.repeat(alleq, WARP))
    else:
        iss.set(dst, masks.reshape(-1).astype(U32))


@op("MOVM")
def movm(iss: Issue) -> None:
    """``MOVM.16.MT88 Rd, Rs`` (``movmatrix.trans``): an 8x8 matrix of 16-bit values, held as
    ``ldmatrix`` leaves it (thread t: row t/4, columns 2(t%4) and 2(t%4)+1), transposed in place."""
    if "MT88" not in iss.ins.mods:
        raise EmulationError(f"{iss.ins.text!r}: only the transposing MOVM is modelled")
    v = np.broadcast_to(np.asarray(iss.raw(1), U32), (iss.b.lanes,)).reshape(-1, WARP)
    t = np.arange(WARP)
    m = np.zeros((v.shape[0], 8, 8), np.uint32)
    m[:, t // 4, 2 * (t % 4)] = v & U32(0xFFFF)
    m[:, t // 4, 2 * (t % 4) + 1] = v >> U32(16)
    out = m[:, 2 * (t % 4), t // 4] | (m[:, 2 * (t % 4) + 1, t // 4] << U32(16))
    taint = np.broadcast_to(np.asarray(iss.taint, U32), (iss.b.lanes,)).reshape(-1, WARP)
    iss.taint = np.repeat(np.bitwise_or.reduce(taint, axis=1), WARP)
    iss.set(0, out.reshape(-1).astype(U32))
