"""Predicate logic: PLOP3 (three-input truth table), P2R / R2P (predicates to and from a register)."""

from __future__ import annotations

import numpy as np

from ..issue import EmulationError, Issue
from ..operands import Imm
from . import op


def _lut(lut: int, a, b, c):
    a, b, c = np.asarray(a, bool), np.asarray(b, bool), np.asarray(c, bool)
    idx = a.astype(np.uint8) * 4 + b.astype(np.uint8) * 2 + c.astype(np.uint8)
    return ((lut >> idx) & 1).astype(bool)


@op("PLOP3", "UPLOP3")
def plop3(iss: Issue) -> None:
    ops = iss.ins.operands
    luts = [o for o in ops if isinstance(o, Imm)]
    if len(luts) < 1:
        raise EmulationError(f"{iss.ins.text!r}: PLOP3 without a truth table")
    a, b, c = iss.p(2), iss.p(3), iss.p(4)
    iss.setp(0, _lut(luts[0].value & 0xFF, a, b, c))
    if len(luts) > 1:
        iss.setp(1, _lut(luts[1].value & 0xFF, a, b, c))


def _shift(iss: Issue) -> int:
    for m in iss.ins.mods:
        if m in ("B1", "B2", "B3"):
            return 8 * int(m[1])
    return 0


@op("P2R", "UP2UR")
def p2r(iss: Issue) -> None:
    """``P2R Rd, PR, Ra, mask``: Ra with the bits of P0..P6 (at the byte ``.Bn``) where mask is set."""
    b = iss.b
    uniform = iss.ins.base == "UP2UR"
    preds = b.UP[:, b.warp_of] if uniform else b.P
    bits = np.zeros(b.lanes, np.uint32)
    for i in range(7):
        bits |= preds[i].astype(np.uint32) << np.uint32(i)
    sh = _shift(iss)
    mask = np.asarray(iss.u(3), np.uint32) << np.uint32(sh)
    a = np.asarray(iss.u(2), np.uint32)
    iss.set(0, (a & ~mask) | ((bits << np.uint32(sh)) & mask))


@op("R2P")
def r2p(iss: Issue) -> None:
    """``R2P PR, Ra, mask``: P0..P6 from the bits of Ra (byte ``.Bn``) where mask is set."""
    sh = _shift(iss)
    v = np.asarray(iss.u(1), np.uint32) >> np.uint32(sh)
    mask = int(np.asarray(iss.u(2)).max())
    for i in range(7):
        if mask >> i & 1:
            np.copyto(iss.b.P[i], ((v >> np.uint32(i)) & 1).astype(bool), where=iss.on)
