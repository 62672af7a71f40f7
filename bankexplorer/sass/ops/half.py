"""Half precision, two lanes per register: HADD2, HMUL2, HFMA2, HSET2, HSETP2, HMNMX2 (the
tensor-core HMMA is :mod:`.tensor`'s).

An operand is a pair (low half, high half), read with its selector: ``R2.H0_H0`` repeats the low
half, ``R2.H1_H1`` the high one; an immediate pair is printed high half first (``0, 1``). Results
are computed in float64 (exact for sums and products of halves) and rounded to half once (``.F32``: the low lane's result as a float).
``.BF16_V2`` computes in bfloat16.
"""

from __future__ import annotations

import numpy as np

from ..issue import EmulationError, Issue
from ..operands import Const, FImm, Imm, Pred, Reg
from . import op
from .floating import bf16_from64, compare, min_max, round_pair
from .integer import combine

U32 = np.uint32
F32 = np.float32


def _from16(bits, bf16: bool):
    bits = np.asarray(bits, U32) & U32(0xFFFF)
    if bf16:
        return (bits << U32(16)).view(F32)
    return bits.astype(np.uint16).view(np.float16).astype(F32)


def _to16(x, bf16: bool):
    """A result (float64, or float32) rounded once to half or bfloat16 bits."""
    x = np.asarray(x, np.float64)
    if bf16:
        return bf16_from64(x)
    return round_pair(x, 0.0, np.float16).view(np.uint16).astype(U32)


class _Pairs:
    """Reads half-pair operands in order (an immediate pair takes two operand slots)."""

    def __init__(self, iss: Issue, start: int, bf16: bool):
        self.iss, self.i, self.bf16 = iss, start, bf16

    def next(self):
        iss, ops = self.iss, self.iss.ins.operands
        o = ops[self.i]
        if isinstance(o, FImm | Imm) and self.i + 1 < len(ops) and isinstance(ops[self.i + 1], FImm | Imm) and \
                isinstance(o, FImm):
            hi = F32(o.value) if isinstance(o, FImm) else _from16(o.value, self.bf16)
            o2 = ops[self.i + 1]
            lo = F32(o2.value) if isinstance(o2, FImm) else _from16(o2.value, self.bf16)
            self.i += 2
            return np.asarray(lo, F32), np.asarray(hi, F32)
        self.i += 1
        sel = o.sel if isinstance(o, Reg | Const) else ""
        if isinstance(o, Imm):  # a 32-bit pattern holding both halves
            bits = U32(o.value & 0xFFFFFFFF)
        else:
            bits = np.asarray(iss.bits(o), U32)
        if sel == "F32":
            v = np.asarray(bits, U32).view(F32)
            lo = hi = v
        else:
            lo, hi = _from16(bits, self.bf16), _from16(np.asarray(bits, U32) >> U32(16), self.bf16)
            if sel == "H0_H0":
                hi = lo
            elif sel == "H1_H1":
                lo = hi
            elif sel == "H1_H0":
                lo, hi = hi, lo
        if isinstance(o, Reg):
            if o.abs:
                lo, hi = np.abs(lo), np.abs(hi)
            if o.neg:
                lo, hi = -lo, -hi
        return np.asarray(lo, F32), np.asarray(hi, F32)


def _bf(iss: Issue) -> bool:
    return any(m.startswith("BF16") for m in iss.ins.mods)


def _store(iss: Issue, lo, hi) -> None:
    mods = iss.ins.mods
    if "SAT" in mods:
        lo, hi = np.clip(lo, 0, 1), np.clip(hi, 0, 1)
    if "RELU" in mods:
        lo, hi = np.maximum(lo, 0), np.maximum(hi, 0)
    if "F32" in mods:
        iss.setf(0, round_pair(lo, 0.0, F32))
        return
    bf = _bf(iss)
    iss.set(0, _to16(lo, bf) | (_to16(hi, bf) << U32(16)))


def _binary(fn):
    def run(iss: Issue) -> None:
        r = _Pairs(iss, 1, _bf(iss))
        a, b = r.next(), r.next()
        _store(iss, fn(a[0], b[0]), fn(a[1], b[1]))
    return run


# in float64: a sum or product of two halves (or bfloat16s) is exact there, rounded once on store
op("HADD2")(_binary(lambda x, y: x.astype(np.float64) + y))
op("HMUL2")(_binary(lambda x, y: x.astype(np.float64) * y))


@op("HFMA2")
def hfma2(iss: Issue) -> None:
    r = _Pairs(iss, 1, _bf(iss))
    a, b, c = r.next(), r.next(), r.next()
    f = lambda x, y, z: x.astype(np.float64) * y + z  # noqa: E731 (rounded once on store)
    _store(iss, f(a[0], b[0], c[0]), f(a[1], b[1], c[1]))


@op("HMNMX2", "VHMNMX")
def hmnmx2(iss: Issue) -> None:
    """Min (``PT``) or max (``!PT``) per half of two (HMNMX2) or three (VHMNMX) sources."""
    r = _Pairs(iss, 1, _bf(iss))
    vals = []
    while r.i < len(iss.ins.operands) and not isinstance(iss.ins.operands[r.i], Pred):
        vals.append(r.next())
    pick = iss.p(r.i) if r.i < len(iss.ins.operands) else True
    lo, hi = vals[0]
    for a, b in vals[1:]:
        lo = min_max(lo, a, pick)
        hi = min_max(hi, b, pick)
    _store(iss, lo, hi)


@op("HSET2")
def hset2(iss: Issue) -> None:
    r = _Pairs(iss, 1, _bf(iss) and False)
    a, b = r.next(), r.next()
    pc = iss.p(r.i)
    lo = combine(iss.ins.mods, compare(iss.ins.mods, a[0], b[0]), pc)
    hi = combine(iss.ins.mods, compare(iss.ins.mods, a[1], b[1]), pc)
    if "BF" in iss.ins.mods:
        one = U32(0x3C00)
        iss.set(0, np.where(lo, one, U32(0)) | (np.where(hi, one, U32(0)) << U32(16)))
    else:
        iss.set(0, np.where(lo, U32(0xFFFF), U32(0)) | (np.where(hi, U32(0xFFFF), U32(0)) << U32(16)))


@op("HSETP2")
def hsetp2(iss: Issue) -> None:
    r = _Pairs(iss, 2, _bf(iss))
    a, b = r.next(), r.next()
    pc = iss.p(r.i)
    lo = compare(iss.ins.mods, a[0], b[0])
    hi = compare(iss.ins.mods, a[1], b[1])
    if "H_AND" in iss.ins.mods:
        both = lo & hi
        iss.setp(0, combine(iss.ins.mods, both, pc))
        iss.setp(1, combine(iss.ins.mods, ~both, pc))
    else:
        iss.setp(0, combine(iss.ins.mods, lo, pc))
        iss.setp(1, combine(iss.ins.mods, hi, pc))
