"""Moves and selects: MOV, S2R, CS2R, LDC, SEL, PRMT, R2UR, and the instructions with no effect
on what is modelled (scheduling waits, fences, cache hints)."""

from __future__ import annotations

import numpy as np

from ..issue import EmulationError, Issue
from ..operands import Const, Pred, Reg, Special
from ..state import WARP
from . import op

U32 = np.uint32


@op("MOV", "UMOV", "MOV32I", "S2R", "S2UR", "UMOV32I")
def mov(iss: Issue) -> None:
    if iss.memo(mov, _moves_to_itself):  # MOV R5, R5 (a -G build is full of them): no change
        return
    iss.set(0, iss.u(1))


def _moves_to_itself(ins) -> bool:
    ops = ins.operands
    return len(ops) > 1 and ops[0] == ops[1] and isinstance(ops[0], Reg)


@op("R2UR")
def r2ur(iss: Issue) -> None:
    """``R2UR URd, Rs``: the value of the warp's first issuing lane into a uniform register.
    ``R2UR P1, URd, Rs`` also writes a predicate: true in the lanes whose value differs from the
    one taken (the compiler's test that a mask is uniform before a ``@!P1 BRA.DIV``; on the H100
    the lanes with P1 false are exactly those equal to the first active lane's value)."""
    ops = iss.ins.operands
    if not isinstance(ops[0], Pred):
        mov(iss)
        return
    v = np.broadcast_to(np.asarray(iss.u(2), U32), (iss.b.lanes,))
    warps, first = iss.b.first_lanes(iss.on)
    taken = np.zeros(iss.b.warps, U32)
    taken[warps] = v[first]
    iss.setp(0, v != np.repeat(taken, WARP))
    iss.set(1, v)


@op("CS2R")
def cs2r(iss: Issue) -> None:
    src = iss.ins.operands[1]
    if isinstance(src, Special) and src.name == "SRZ":
        if "32" in iss.ins.mods:
            iss.set(0, 0)
        else:
            iss.set64(0, np.uint64(0))
        return
    v = iss.u(1)
    if "32" in iss.ins.mods:
        iss.set(0, v)
    else:
        iss.set64(0, np.asarray(v).astype(np.uint64))


@op("LDC", "ULDC")
def ldc(iss: Issue) -> None:
    c = iss.ins.operands[1]
    if not isinstance(c, Const):
        raise EmulationError(f"{iss.ins.text!r}: LDC reads a constant-bank operand")
    mods = iss.ins.mods
    if "64" in mods:
        v = iss.const(c, 8) if c.reg is not None else np.uint64(iss.const_scalar(c, 8))
        iss.set64(0, v)
        return
    size = 1 if ("U8" in mods or "S8" in mods) else 2 if ("U16" in mods or "S16" in mods) else 4
    if c.reg is not None:
        v = iss.const(Const(c.bank, c.offset, c.reg), 4).astype(np.int64)
    else:
        v = np.int64(iss.const_scalar(c, 4))
    v = v & ((1 << (8 * size)) - 1)
    if "S8" in mods or "S16" in mods:
        v = np.where(v >= 1 << (8 * size - 1), v - (1 << (8 * size)), v)
    iss.set(0, np.asarray(v) & 0xFFFFFFFF)


@op("SEL", "USEL", "FSEL")
def sel(iss: Issue) -> None:
    p = iss.p(3)
    iss.set(0, np.where(p, iss.raw(1) if iss.ins.base == "FSEL" else iss.u(1),
                        iss.raw(2) if iss.ins.base == "FSEL" else iss.u(2)))


@op("PRMT", "UPRMT")
def prmt(iss: Issue) -> None:
    """Byte permute: each selector nibble picks a byte of (b:a); ``.F4E``/... modes are variants."""
    a = np.asarray(iss.u(1), U32).astype(np.uint64)
    s = np.asarray(iss.u(2), U32).astype(np.int64)
    b = np.asarray(iss.u(3), U32).astype(np.uint64)
    pool = a | (b << np.uint64(32))
    mode = next((m for m in iss.ins.mods if m in ("F4E", "B4E", "RC8", "ECL", "ECR", "RC16")), None)
    out = np.zeros(np.broadcast(a, s, b).shape, np.uint64)
    for k in range(4):
        if mode is None:
            nib = (s >> (4 * k)) & 0xF
            idx, sign = nib & 7, (nib & 8) != 0
        else:
            sel = s & 3
            idx = {"F4E": (sel + k) & 7, "B4E": (sel - k) & 7, "RC8": sel, "ECL": np.maximum(sel, k),
                   "ECR": np.minimum(sel, k), "RC16": (sel & 1) * 2 + (k & 1)}[mode]
            sign = False
        byte = (pool >> (idx.astype(np.uint64) * np.uint64(8))) & np.uint64(0xFF)
        byte = np.where(sign, np.where(byte & np.uint64(0x80), np.uint64(0xFF), np.uint64(0)), byte)
        out |= byte << np.uint64(8 * k)
    iss.set(0, out.astype(U32))


@op("NOP", "DEPBAR", "LDGDEPBAR", "MEMBAR", "FENCE", "ERRBAR", "CCTL", "CCTLL", "CGAERRBAR", "ARRIVES",
    "ACQBULK", "PMTRIG", "SETCTAID", "CGABAR", "USETMAXREG", "UCGABAR_ARV", "UCGABAR_WAIT", "WARPGROUP")
def nop(iss: Issue) -> None:
    """No effect on registers or memory as modelled (ordering only)."""
