"""Integer arithmetic and logic: IADD3, IMAD, LEA, SHF, LOP3, ISETP, VIADD, min/max, bit counts.

Values are uint32 vectors; ``-R`` and ``~R`` are applied on read (``Issue.u``). Carries travel in
predicates as the hardware does: ``IADD3 R0, P0, ...`` writes the carry out, ``IADD3.X`` reads it.
The uniform twins (``UIADD3``...) are the same functions: uniform registers read as lane vectors.
"""

from __future__ import annotations

import numpy as np

from ..issue import EmulationError, Issue
from ..operands import PT, Imm, Pred, Reg
from . import op

U32 = np.uint32
I64 = np.int64
M32 = np.int64(0xFFFFFFFF)


def _split(iss: Issue):
    """Operand indices: (leading predicate outputs after the destination, value sources, trailing
    predicate inputs); found once per instruction and run (:meth:`.Issue.memo`)."""
    return iss.memo(_split, _operand_kinds)


def _operand_kinds(ins):
    ops = ins.operands
    i = 1
    pouts = []
    while i < len(ops) and isinstance(ops[i], Pred):
        pouts.append(i)
        i += 1
    srcs = []
    while i < len(ops) and not isinstance(ops[i], Pred):
        srcs.append(i)
        i += 1
    pins = list(range(i, len(ops)))
    return pouts, srcs, pins


def _i64(v):
    return np.asarray(v).astype(I64)


def _carry_in(iss: Issue, pins) -> np.ndarray | int:
    """The carry-in predicates summed (int64; PT and !PT, the usual second one, as the 1 or 0 they are)."""
    c = 0
    for i in pins:
        o = iss.ins.operands[i]
        if type(o) is Pred and o.index == PT:
            c += 0 if o.neg else 1
            continue
        v = iss.p(i)
        c = c + (v.astype(I64) if type(v) is np.ndarray else int(v))
    return c


@op("IADD3", "UIADD3", "IADD", "UIADD")
def iadd3(iss: Issue) -> None:
    pouts, srcs, pins = _split(iss)
    if "64" in iss.ins.mods:  # UIADD3.64: register pairs (wgmma descriptors step through shared memory so)
        if pouts or pins:
            raise EmulationError(f"{iss.ins.text!r}: a 64-bit add with carries is not modelled")
        total64 = np.uint64(0)
        for i in srcs:
            total64 = total64 + np.asarray(iss.u64(i), np.uint64)
        iss.set64(0, total64)
        return
    if not pouts and "X" not in iss.ins.mods:  # no carry in or out: the sum modulo 2**32, in uint32
        ops = iss.ins.operands
        # a zero register (RZ, ``IADD3 R1, R2, R3, RZ``) adds nothing: it is not added (each numpy
        # addition of a scalar costs as much as one of two vectors)
        terms = [i for i in srcs if not (type(ops[i]) is Reg and ops[i].zero)] or srcs[:1]
        total = iss.u(terms[0])
        for i in terms[1:]:
            total = total + iss.u(i)
        iss.set(0, total)
        return
    total = 0  # in int64 (a Python int while every term is one: constants, immediates)
    for i in srcs:
        o = iss.ins.operands[i]
        if type(o) is Reg and o.zero and not (o.neg or o.inv or o.abs):
            continue  # RZ adds nothing (-RZ does: ~0 + 1 carries)
        if isinstance(o, Reg) and o.neg:
            # -x as ~x + 1, so that the carry is the borrow of a subtraction
            total = total + (_i64(iss.raw(i)) ^ M32) + 1
        else:
            v = iss.u(i)
            total = total + (v.astype(I64) if type(v) is np.ndarray else int(v))
    if "X" in iss.ins.mods:
        total = total + _carry_in(iss, pins)
    total = np.asarray(total)
    iss.set(0, total & M32)
    carry = total >> 32  # 0, 1 or 2 carries out of three addends: one predicate each (P0 + P1 = carry)
    for k, i in enumerate(pouts):
        iss.setp(i, carry > k)


def _lanes16(iss: Issue, i: int, signed: bool) -> tuple[np.ndarray, np.ndarray]:
    """The two 16-bit halves (low, high) of operand ``i`` as int64, ``-R`` negating each half."""
    o = iss.ins.operands[i]
    v = _i64(iss.raw(i)) if isinstance(o, Reg) else _i64(iss.u(i))
    if isinstance(o, Reg) and o.inv:
        v = v ^ M32
    halves = []
    for k in range(2):
        h = (v >> (16 * k)) & 0xFFFF
        if isinstance(o, Reg) and o.neg:
            h = (-h) & 0xFFFF
        if signed:
            h = np.where(h >= 0x8000, h - 0x10000, h)
        halves.append(np.asarray(h))
    return halves[0], halves[1]


def _join16(lo, hi) -> np.ndarray:
    return (np.asarray(lo) & 0xFFFF) | ((np.asarray(hi) & 0xFFFF) << 16)


@op("VIADD", "UVIADD")
def viadd(iss: Issue) -> None:
    """``VIADD d, a, b``; ``VIADD.16x2``: two independent 16-bit sums (``-R`` negates each half)."""
    if "16x2" in iss.ins.mods:
        alo, ahi = _lanes16(iss, 1, False)
        blo, bhi = _lanes16(iss, 2, False)
        iss.set(0, _join16(alo + blo, ahi + bhi))
        return
    iss.set(0, iss.u(1) + iss.u(2))  # uint32: the sum modulo 2**32


@op("VABSDIFF", "UVABSDIFF")
def vabsdiff(iss: Issue) -> None:
    """``VABSDIFF d, a, b, c`` (``sad``, ``__sad``/``__usad``): ``|a - b| + c``; signed unless ``.U32``."""
    if "U32" in iss.ins.mods:
        a, b = _i64(iss.u(1)), _i64(iss.u(2))
    else:
        a, b = _i64(iss.s(1)), _i64(iss.s(2))
    iss.set(0, (np.abs(a - b) + _i64(iss.u(3))) & M32)


@op("VABSDIFF4", "UVABSDIFF4")
def vabsdiff4(iss: Issue) -> None:
    """``VABSDIFF4.U8 d, a, b, c``: the absolute difference of each byte pair (``vabsdiff4``,
    ``__vabsdiffu4``); ``.ACC`` sums the four into c (``__vsadu4``). ``.S8`` for signed bytes."""
    mods = iss.ins.mods
    signed = "S8" in mods
    a, b, c = _i64(iss.u(1)), _i64(iss.u(2)), _i64(iss.u(3))
    diffs = []
    for k in range(4):
        x, y = (a >> (8 * k)) & 0xFF, (b >> (8 * k)) & 0xFF
        if signed:
            x, y = np.where(x >= 0x80, x - 0x100, x), np.where(y >= 0x80, y - 0x100, y)
        diffs.append(np.abs(x - y))
    if "ACC" in mods:
        iss.set(0, (diffs[0] + diffs[1] + diffs[2] + diffs[3] + c) & M32)
        return
    # no secondary operation: PTX merges the result into c by a byte mask, and the mask printed
    # by none (``.b3210``) takes every byte from the result (a -G build passes c = R0 = 0)
    iss.set(0, np.asarray(diffs[0] | diffs[1] << 8 | diffs[2] << 16 | diffs[3] << 24) & M32)


def _mul_signed(iss: Issue) -> bool:
    return "U32" not in iss.ins.mods


def _add64(a, b, c):
    """a + b + c of uint64 values (c: a small carry in), and how many times it wrapped."""
    a, b, c = (np.asarray(x).astype(np.uint64) for x in (a, b, c))
    s1 = a + b
    s2 = s1 + c
    return s2, (s1 < a).astype(np.int64) + (s2 < s1).astype(np.int64)


@op("IMAD", "UIMAD", "IMUL", "UIMUL")
def imad(iss: Issue) -> None:
    ins = iss.ins
    mods = ins.mods
    pouts, srcs, pins = _split(iss)
    if len(srcs) == 2:  # IMUL / IMAD.MOV forms with two sources
        a, b = iss.u(srcs[0]), iss.u(srcs[1])
        csrc = None
    else:
        a, b = iss.u(srcs[0]), iss.u(srcs[1])
        csrc = srcs[2]
    signed = _mul_signed(iss)
    if "WIDE" in mods:
        if signed:
            prod = _i64(np.asarray(a).view(np.int32) if np.ndim(a) else np.uint32(a).view(np.int32)) * \
                   _i64(np.asarray(b).view(np.int32) if np.ndim(b) else np.uint32(b).view(np.int32))
            prod = prod.astype(np.uint64)
        else:
            prod = np.asarray(a).astype(np.uint64) * np.asarray(b).astype(np.uint64)
        c64 = iss.u64(csrc) if csrc is not None else np.uint64(0)
        if not pouts and "X" not in mods:  # no carry in or out: the sum modulo 2**64, in uint64
            iss.set64(0, np.asarray(prod, np.uint64) + c64)
            return
        cin = np.asarray(_carry_in(iss, pins) if "X" in mods else 0).astype(np.uint64)
        res, carry = _add64(prod, c64, cin)
        iss.set64(0, res)
        for k, i in enumerate(pouts):  # IMAD.WIDE.U32 R10, P1, ...: the carry out of the 64-bit sum
            iss.setp(i, carry > k)
        return
    if "HI" in mods:
        # the high word of a*b plus a 64-bit addend (the register pair c+1:c), so that the low
        # word's carry reaches it
        if signed:
            sa = _i64(np.asarray(a).view(np.int32) if np.ndim(a) else np.uint32(a).view(np.int32))
            sb = _i64(np.asarray(b).view(np.int32) if np.ndim(b) else np.uint32(b).view(np.int32))
            prod = (sa * sb).astype(np.uint64)
        else:
            prod = np.asarray(a).astype(np.uint64) * np.asarray(b).astype(np.uint64)
        c64 = np.asarray(iss.u64(csrc) if csrc is not None else np.uint64(0)).astype(np.uint64)
        cin = np.asarray(_carry_in(iss, pins) if "X" in mods else 0).astype(np.uint64)
        # (a*b + c) >> 32 without overflowing 64 bits: its bit 32 is the carry out
        # (IMAD.HI.U32 R7, P2, ...: the predicate an IADD3.X of a 128-bit product reads)
        lo = (prod & np.uint64(0xFFFFFFFF)) + (c64 & np.uint64(0xFFFFFFFF))
        total = (prod >> np.uint64(32)) + (c64 >> np.uint64(32)) + (lo >> np.uint64(32)) + cin
        iss.set(0, (total & np.uint64(0xFFFFFFFF)).astype(np.uint32))
        for k, i in enumerate(pouts):
            iss.setp(i, (total >> np.uint64(32)) > k)
        return
    # low 32 bits: the product modulo 2**32 is the same signed or not
    if not pouts and "X" not in mods:  # no carry in or out: in uint32, modulo 2**32
        prod = a * b
        iss.set(0, prod + iss.u(csrc) if csrc is not None else prod)
        return
    lo = (np.asarray(a).astype(np.uint64) * np.asarray(b).astype(np.uint64)) & np.uint64(0xFFFFFFFF)
    total = lo.astype(I64)
    if csrc is not None:
        o = ins.operands[csrc]
        if isinstance(o, Reg) and o.neg and pouts:
            total = total + (_i64(iss.raw(csrc)) ^ M32) + 1
        else:
            total = total + _i64(iss.u(csrc))
    if "X" in mods:
        total = total + _carry_in(iss, pins)
    total = np.asarray(total)
    iss.set(0, total & M32)
    for k, i in enumerate(pouts):
        iss.setp(i, (total >> 32) > k)


@op("LEA", "ULEA")
def lea(iss: Issue) -> None:
    mods = iss.ins.mods
    pouts, srcs, pins = _split(iss)
    so = iss.ins.operands[srcs[-1]]
    shift = (so.value if type(so) is Imm else int(np.asarray(iss.u(srcs[-1])).max())) & 63
    if not pouts and shift < 32 and "HI" not in mods and "X" not in mods:
        # the usual form (LEA R4, R0, UR4, 0x2): b + (a << s) modulo 2**32, in uint32
        iss.set(0, iss.u(srcs[1]) + (iss.u(srcs[0]) << U32(shift)))
        return
    if "HI" in mods:
        # LEA.HI d, a, b, c, s: b + high word of ((c:a) << s); SX32: c is a's sign
        a = np.asarray(iss.u(srcs[0])).astype(np.uint64)
        b = _i64(iss.u(srcs[1]))
        if "SX32" in mods:
            hi_word = np.where(a >= np.uint64(1 << 31), np.uint64(0xFFFFFFFF), np.uint64(0))
            src = a | (hi_word << np.uint64(32))
        else:
            c = np.asarray(iss.u(srcs[2])).astype(np.uint64) if len(srcs) > 3 else np.uint64(0)
            src = a | (c << np.uint64(32))
        part = ((src << np.uint64(shift)) >> np.uint64(32)) & np.uint64(0xFFFFFFFF)
        total = b + part.astype(I64)
    else:
        a = np.asarray(iss.u(srcs[0])).astype(np.uint64)
        b = _i64(iss.u(srcs[1]))
        total = b + ((a << np.uint64(shift)) & np.uint64(0xFFFFFFFF)).astype(I64)
    if "X" in mods:
        total = total + _carry_in(iss, pins)
    total = np.asarray(total)
    iss.set(0, total & M32)
    for k, i in enumerate(pouts):
        iss.setp(i, (total >> 32) > k)


@op("SHF", "USHF")
def shf(iss: Issue) -> None:
    """Funnel shift of the 64-bit value (c:a) by b; ``.HI`` keeps the high word."""
    a, sh, c = iss.u(1), iss.u(2), iss.u(3)
    o = iss.ins.operands[2]
    if isinstance(o, Imm) and o.bits < 32:  # the usual form: a constant shift inside one word
        iss.set(0, _funnel_short(a, c, o.bits, iss.ins.mods))
    else:
        iss.set(0, _funnel(a, sh, c, iss.ins.mods))


def _funnel(a, sh, c, mods) -> np.ndarray:
    """SHF's result: the low or (``HI``) high word of (c:a) shifted by ``sh`` (per lane, any amount)."""
    a = np.asarray(a).astype(np.uint64)
    sh = np.asarray(sh).astype(np.int64)
    c = np.asarray(c).astype(np.uint64)
    wide = "U64" in mods or "S64" in mods
    if "W" in mods:
        sh = sh & (63 if wide else 31)
    else:
        sh = np.minimum(sh, 64 if wide else 32)
    v = a | (c << np.uint64(32))
    left = "L" in mods
    signed = "S32" in mods or "S64" in mods
    if left:
        res = np.where(sh >= 64, np.uint64(0), v << np.minimum(sh, 63).astype(np.uint64))
    elif signed:
        sv = v.view(np.int64) if isinstance(v, np.ndarray) else np.int64(v)
        if "S32" in mods:  # arithmetic shift of the high word (a 32-bit value in c)
            sv = np.asarray(c.astype(np.uint32).view(np.int32)).astype(np.int64) << 32 | a.astype(np.int64)
        res = (np.asarray(sv) >> np.minimum(sh, 63)).astype(np.uint64)
    else:
        res = np.where(sh >= 64, np.uint64(0), v >> np.minimum(sh, 63).astype(np.uint64))
    res = np.asarray(res).astype(np.uint64)
    out = (res >> np.uint64(32)) if "HI" in mods else res
    return (out & np.uint64(0xFFFFFFFF)).astype(U32)


def _funnel_short(a, c, sh: int, mods) -> np.ndarray:
    """:func:`_funnel` for a shift of 0 to 31 (the same for every lane), in 32-bit words: each
    result word takes bits of a and c only (for a right shift of a signed value, c's sign reaches
    just the high word), so neither the width nor ``W`` changes it."""
    a, c = np.asarray(a, U32), np.asarray(c, U32)
    hi = "HI" in mods
    if sh == 0:
        return (c if hi else a).copy()
    s, back = U32(sh), U32(32 - sh)
    if "L" in mods:
        return (c << s) | (a >> back) if hi else a << s
    if hi:
        return (c.view(np.int32) >> np.int32(sh)).view(U32) if "S32" in mods or "S64" in mods else c >> s
    return (a >> s) | (c << back)


#: truth tables of one operator on one, two or three inputs (the compiler's ``&``, ``|``, ``^``, ``~``):
#: the operator itself, a few numpy calls where the sum of minterms takes a dozen
_SIMPLE_TABLES = {
    0xF0: lambda a, b, c: a, 0xCC: lambda a, b, c: b, 0xAA: lambda a, b, c: c,
    0x0F: lambda a, b, c: ~a, 0x33: lambda a, b, c: ~b, 0x55: lambda a, b, c: ~c,
    0xC0: lambda a, b, c: a & b, 0xA0: lambda a, b, c: a & c, 0x88: lambda a, b, c: b & c,
    0xFC: lambda a, b, c: a | b, 0xFA: lambda a, b, c: a | c, 0xEE: lambda a, b, c: b | c,
    0x3C: lambda a, b, c: a ^ b, 0x5A: lambda a, b, c: a ^ c, 0x66: lambda a, b, c: b ^ c,
    0x80: lambda a, b, c: a & b & c, 0xFE: lambda a, b, c: a | b | c, 0x96: lambda a, b, c: a ^ b ^ c,
    0x30: lambda a, b, c: a & ~b, 0x0C: lambda a, b, c: ~a & b, 0x50: lambda a, b, c: a & ~c,
}


def lut3(a, b, c, lut: int):
    """Three-input logic by truth table (a = 0xF0, b = 0xCC, c = 0xAA), bitwise."""
    a, b, c = np.asarray(a, U32), np.asarray(b, U32), np.asarray(c, U32)
    simple = _SIMPLE_TABLES.get(lut)
    if simple is not None:
        r, shape = simple(a, b, c), max(a.shape, b.shape, c.shape, key=len)
        if r.shape != shape:
            return np.broadcast_to(r, shape).astype(U32)
        return r.copy() if r is a or r is b or r is c else r  # (an input passed through is copied)
    out = np.zeros(np.broadcast(a, b, c).shape, U32)
    na, nb, nc = ~a, ~b, ~c
    for i in range(8):
        if lut >> i & 1:
            out |= (a if i & 4 else na) & (b if i & 2 else nb) & (c if i & 1 else nc)
    return out


@op("LOP3", "ULOP3")
def lop3(iss: Issue) -> None:
    ops = iss.ins.operands
    pouts, srcs, pins = _split(iss)
    if isinstance(ops[0], Pred):  # LOP3.LUT P0, R5, R4, 0x1f, RZ, 0xc0, !PT: the predicate first
        pout, dst = 0, 1
        srcs = [i for i in range(2, len(ops)) if not isinstance(ops[i], Pred)]
    else:
        pout, dst = None, 0
    lut = iss.ins.operands[srcs[3]]
    if not isinstance(lut, Imm):
        raise EmulationError(f"{iss.ins.text!r}: LOP3's truth table is not an immediate")
    res = lut3(iss.u(srcs[0]), iss.u(srcs[1]), iss.u(srcs[2]), lut.value & 0xFF)
    iss.set(dst, res)
    if pout is not None:
        iss.setp(pout, res != 0)


@op("LOP", "ULOP")
def lop(iss: Issue) -> None:
    m = iss.ins.mods
    a, b = iss.u(1), iss.u(2)
    res = a & b if "AND" in m else a | b if "OR" in m else a ^ b if "XOR" in m else ~a if "PASS_B" not in m else b
    iss.set(0, res)


_CMP = {
    "EQ": np.equal, "NE": np.not_equal, "LT": np.less, "LE": np.less_equal, "GT": np.greater, "GE": np.greater_equal,
}
_BOOL = {"AND": np.logical_and, "OR": np.logical_or, "XOR": np.logical_xor}


def combine(mods, value, pc):
    """``value`` combined with the predicate ``pc`` by the instruction's ``.AND`` / ``.OR`` / ``.XOR``
    (``.AND`` when none is written)."""
    if pc is True and ("AND" in mods or "OR" not in mods and "XOR" not in mods):
        return value  # AND with PT, the usual form: the value itself (a numpy call saved on each issue)
    for name, fn in _BOOL.items():
        if name in mods:
            return fn(value, pc)
    return np.logical_and(value, pc)


@op("ISETP", "UISETP")
def isetp(iss: Issue) -> None:
    mods = iss.ins.mods
    cmp = next((m for m in mods if m in _CMP or m in ("T", "F")), None)
    if cmp is None:
        raise EmulationError(f"{iss.ins.text!r}: no comparison")
    unsigned = "U32" in mods
    a, b = iss.u(2), iss.u(3)
    if not unsigned:
        a = np.asarray(a).view(np.int32) if np.ndim(a) else np.uint32(a).view(np.int32)
        b = np.asarray(b).view(np.int32) if np.ndim(b) else np.uint32(b).view(np.int32)
    if cmp in ("T", "F"):
        r = np.full(iss.b.lanes, cmp == "T")
    elif "EX" in mods:
        # the high words of a 64-bit comparison; the low words' result comes in the last predicate
        low = iss.p(5)
        eq = np.equal(a, b)
        if cmp in ("EQ",):
            r = eq & low
        elif cmp == "NE":
            r = ~eq | low
        else:
            strict = {"LT": np.less, "LE": np.less, "GT": np.greater, "GE": np.greater}[cmp](a, b)
            r = strict | (eq & low)
    else:
        r = _CMP[cmp](a, b)
    pc = iss.p(4)
    iss.setp(0, combine(mods, r, pc))
    second = iss.ins.operands[1]
    if not (isinstance(second, Pred) and second.index == PT):  # (a write to PT is no write)
        iss.setp(1, combine(mods, ~np.asarray(r), pc))


def _minmax(iss: Issue, a, b, pick_min):
    if "U32" not in iss.ins.mods:
        a = np.asarray(a).view(np.int32) if np.ndim(a) else np.uint32(a).view(np.int32)
        b = np.asarray(b).view(np.int32) if np.ndim(b) else np.uint32(b).view(np.int32)
    return np.where(pick_min, np.minimum(a, b), np.maximum(a, b))


def _mode16(iss: Issue) -> str | None:
    """The two-halves modifier of a min/max (``16x2``, ``S16x2``, ``U16x2``), None for 32 bits."""
    return next((m for m in iss.ins.mods if m in ("16x2", "S16x2", "U16x2")), None)


def _pick(pick_min, x, y):
    return np.where(pick_min, np.minimum(x, y), np.maximum(x, y))


def _relu(iss: Issue, v):
    """``.RELU`` (the DPX ``*_relu`` forms, a max with 0): a negative signed result becomes 0."""
    return np.maximum(v, 0) if "RELU" in iss.ins.mods else v


def _minmax16(iss: Issue, halves: list, pick_min) -> np.ndarray:
    """Min or max of (low, high) 16-bit halves (``__vmins2``, CUB's ``short`` max of several
    items, ``__vimax3_s16x2``): each half on its own, then ``.RELU``."""
    lo, hi = halves[0]
    for blo, bhi in halves[1:]:
        lo, hi = _pick(pick_min, lo, blo), _pick(pick_min, hi, bhi)
    return _join16(_relu(iss, lo), _relu(iss, hi))


def _halves(iss: Issue, srcs: list[int]) -> list:
    signed = _mode16(iss) != "U16x2"
    return [_lanes16(iss, i, signed) for i in srcs]


def _minmax32(iss: Issue, vals: list, pick_min) -> np.ndarray:
    """Min or max of 32-bit values, signed unless U32, then ``.RELU``."""
    r = vals[0]
    for v in vals[1:]:
        r = _minmax(iss, (np.asarray(r).astype(np.int64) & M32).astype(U32), v, pick_min)
    r = _relu(iss, np.asarray(r).astype(np.int64)) if "U32" not in iss.ins.mods else np.asarray(r).astype(np.int64)
    return r & M32


@op("VIMNMX", "IMNMX", "UIMNMX", "UVIMNMX")
def vimnmx(iss: Issue) -> None:
    """``VIMNMX d, a, b, P``: min (P true) or max; sm_100 writes two predicates after d first."""
    _pouts, srcs, pins = _split(iss)
    pick_min = iss.p(pins[-1])
    if _mode16(iss) is not None:
        iss.set(0, _minmax16(iss, _halves(iss, srcs[:2]), pick_min))
        return
    iss.set(0, _minmax32(iss, [iss.u(srcs[0]), iss.u(srcs[1])], pick_min))


@op("VIMNMX3")
def vimnmx3(iss: Issue) -> None:
    """``VIMNMX3 d, a, b, c, P``: the min (P true) or max of three; ``.S16x2``/``.U16x2`` per half."""
    pick_min = iss.p(4)
    if _mode16(iss) is not None:
        iss.set(0, _minmax16(iss, _halves(iss, [1, 2, 3]), pick_min))
        return
    iss.set(0, _minmax32(iss, [iss.u(1), iss.u(2), iss.u(3)], pick_min))


@op("VIADDMNMX")
def viaddmnmx(iss: Issue) -> None:
    """``VIADDMNMX d, a, b, c, P``: min or max of (a + b) and c (``__viaddmax_s32``); per 16-bit
    half, the sums wrapping in 16 bits, with ``.S16x2``/``.U16x2``."""
    pick_min = iss.p(4)
    if _mode16(iss) is not None:
        (alo, ahi), (blo, bhi), c = _halves(iss, [1, 2, 3])
        signed = _mode16(iss) != "U16x2"
        wrap = (lambda x: (x + 0x8000) % 0x10000 - 0x8000) if signed else (lambda x: x % 0x10000)  # noqa: E731
        iss.set(0, _minmax16(iss, [(wrap(alo + blo), wrap(ahi + bhi)), c], pick_min))
        return
    s = (_i64(iss.u(1)) + _i64(iss.u(2))) & M32
    iss.set(0, _minmax32(iss, [s.astype(U32), iss.u(3)], pick_min))


@op("IABS", "UIABS")
def iabs(iss: Issue) -> None:
    iss.set(0, np.abs(_i64(iss.s(1))) & M32)


@op("POPC", "UPOPC")
def popc(iss: Issue) -> None:
    v = np.asarray(iss.u(1), U32)
    iss.set(0, popcount(v))


def popcount(v: np.ndarray) -> np.ndarray:
    """Set bits of each uint32 (numpy 2's bitwise_count, or a byte table before it)."""
    if hasattr(np, "bitwise_count"):
        return np.bitwise_count(v).astype(U32)
    table = np.array([bin(i).count("1") for i in range(256)], U32)
    b = np.atleast_1d(v).astype(U32).view(np.uint8).reshape(-1, 4)
    out = table[b].sum(axis=1).astype(U32)
    return out if np.ndim(v) else out[0]


@op("FLO", "UFLO")
def flo(iss: Issue) -> None:
    """Position of the highest set bit (``.SH``: counted from the top); 0xffffffff for none."""
    v = np.asarray(iss.u(len(iss.ins.operands) - 1)).astype(np.uint64)
    if "U32" not in iss.ins.mods:  # signed: the highest bit that differs from the sign
        sv = v.astype(np.uint32).view(np.int32)
        v = np.where(sv < 0, ~v & np.uint64(0xFFFFFFFF), v)
    pos = np.where(v == 0, -1, np.floor(np.log2(np.maximum(v, 1).astype(np.float64))).astype(np.int64))
    # log2 of integers near 2**k can round up: correct by one where needed
    pos = np.where((v > 0) & ((np.uint64(1) << np.maximum(pos, 0).astype(np.uint64)) > v), pos - 1, pos)
    if "SH" in iss.ins.mods:
        pos = np.where(pos < 0, -1, 31 - pos)
    iss.set(0, pos & M32)


@op("BREV", "UBREV")
def brev(iss: Issue) -> None:
    v = np.asarray(iss.u(1), U32)
    b = np.unpackbits(np.atleast_1d(v).view(np.uint8).reshape(-1, 4), axis=1, bitorder="little")
    r = np.packbits(b[:, ::-1], axis=1, bitorder="little").view(U32).reshape(-1)
    iss.set(0, r if np.ndim(v) else r[0])


@op("BMSK", "UBMSK")
def bmsk(iss: Issue) -> None:
    pos = _i64(iss.u(1)) & (31 if "W" in iss.ins.mods else 0xFF)
    width = _i64(iss.u(2)) & (31 if "W" in iss.ins.mods else 0xFF)
    mask = ((np.int64(1) << np.minimum(width, 32)) - 1) << np.minimum(pos, 32)
    iss.set(0, np.asarray(mask) & M32)


@op("SGXT", "USGXT")
def sgxt(iss: Issue) -> None:
    v = _i64(iss.u(1))
    bits = np.clip(_i64(iss.u(2)), 0, 32)
    keep = np.where(bits >= 32, M32, (np.int64(1) << bits) - 1)
    x = v & keep
    if "U32" not in iss.ins.mods:
        sign = np.where(bits > 0, (x >> np.maximum(bits - 1, 0)) & 1, 0)
        x = np.where(sign == 1, x | (~keep & M32), x)
    iss.set(0, np.asarray(x) & M32)


@op("BFE", "UBFE")
def bfe(iss: Issue) -> None:
    v = _i64(iss.u(1))
    ctl = _i64(iss.u(2))
    pos, length = ctl & 0xFF, (ctl >> 8) & 0xFF
    x = (v >> np.minimum(pos, 31)) & ((np.int64(1) << np.minimum(length, 32)) - 1)
    if "U32" not in iss.ins.mods:
        top = np.maximum(length - 1, 0)
        x = np.where((length > 0) & ((x >> top) & 1 == 1), x | (M32 & ~((np.int64(1) << np.minimum(length, 32)) - 1)), x)
    iss.set(0, np.asarray(x) & M32)


@op("IDP", "IDP4A")
def idp(iss: Issue) -> None:
    """Dot product of four bytes (``.4A``) or two halves (``.2A``), plus a 32-bit addend."""
    m = iss.ins.mods
    a, b, c = np.asarray(iss.u(1), U32), np.asarray(iss.u(2), U32), _i64(iss.u(3))
    n, bits = (4, 8) if "4A" in m or iss.ins.base == "IDP4A" else (2, 16)
    sa = "S8" in m or "S16" in m
    total = c
    for k in range(n):
        x = (a.astype(np.int64) >> (k * bits)) & ((1 << bits) - 1)
        y = (b.astype(np.int64) >> (k * bits)) & ((1 << bits) - 1)
        if sa:
            x = np.where(x >= 1 << (bits - 1), x - (1 << bits), x)
            y = np.where(y >= 1 << (bits - 1), y - (1 << bits), y)
        total = total + x * y
    iss.set(0, np.asarray(total) & M32)


@op("I2I", "I2IP")
def i2i(iss: Issue) -> None:
    """Integer to integer of another width, saturating (``I2I.U8.S32.SAT``)."""
    m = [x for x in iss.ins.mods if x[:1] in "US" and x[1:].isdigit()]
    dst = m[0] if m else "S32"
    v = _i64(iss.s(len(iss.ins.operands) - 1)) if (len(m) > 1 and m[1].startswith("S")) else _i64(iss.u(len(iss.ins.operands) - 1))
    bits = int(dst[1:])
    if dst.startswith("U"):
        lo, hi = 0, (1 << bits) - 1
    else:
        lo, hi = -(1 << (bits - 1)), (1 << (bits - 1)) - 1
    iss.set(0, np.clip(v, lo, hi) & M32)
