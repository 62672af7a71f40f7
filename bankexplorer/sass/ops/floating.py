"""Single and double precision: FADD, FMUL, FFMA, FMNMX, FSETP, FSET, MUFU, FCHK, conversions
(F2I, I2F, I2FP, F2F, F2FP, FRND) and the double-precision DADD, DMUL, DFMA, DSETP, DMNMX.

numpy computes in IEEE round-to-nearest. Every other result is carried exactly as a float64 pair
(the rounded value and its rest: two-sum, Dekker's product split, ``math.fsum`` for DFMA's three
terms) and rounded once to its type in the instruction's mode (``.RZ``, ``.RM``, ``.RP``; RN when
none), so FFMA, the directed FADD/FMUL/DADD/DMUL/DFMA, conversions from 64-bit integers and to
half and bfloat16 (F2F, F2FP, I2F) round as the hardware does, saturating conversions to integers
included. Min and max (FMNMX, DMNMX, HMNMX2) take a number over a NaN and order -0 below +0.
``MUFU`` (the hardware's approximate reciprocal, square root, exponential...) gives the exact
function: a last-bit difference from the GPU is possible there.
"""

from __future__ import annotations

import numpy as np

from ..issue import EmulationError, Issue
from ..operands import FImm
from . import op
from .integer import combine

F32 = np.float32
F64 = np.float64


def ftz(x):
    x = np.asarray(x, F32)
    tiny = np.abs(x) < np.finfo(F32).tiny
    return np.where(tiny & (x != 0), np.copysign(F32(0), x), x).astype(F32)


def _rounding(iss: Issue) -> str:
    return next((m for m in iss.ins.mods if m in ("RN", "RZ", "RM", "RP")), "RN")


def two_sum(a, b):
    """``a + b`` as float64 (hi, lo): hi the rounded sum, lo the exact rest (0 where not finite)."""
    a, b = np.asarray(a, F64), np.asarray(b, F64)
    with np.errstate(invalid="ignore", over="ignore"):
        hi = a + b
        bb = hi - a
        lo = (a - (hi - bb)) + (b - bb)
    return hi, np.where(np.isfinite(lo), lo, 0.0)


_SPLIT = F64(134217729.0)  # 2**27 + 1


def two_prod(a, b):
    """``a * b`` as float64 (hi, lo) by Dekker's split: exact unless it over- or underflows (lo 0 there)."""
    a, b = np.asarray(a, F64), np.asarray(b, F64)
    with np.errstate(invalid="ignore", over="ignore", under="ignore"):
        hi = a * b

        def split(x):
            t = _SPLIT * x
            h = t - (t - x)
            return h, x - h
        ah, al = split(a)
        bh, bl = split(b)
        lo = ((ah * bh - hi) + ah * bl + al * bh) + al * bl
        ok = np.isfinite(lo) & (np.abs(a) < 2.0 ** 995) & (np.abs(b) < 2.0 ** 995) & \
            ((hi == 0) | (np.abs(hi) > 2.0 ** -960))
    return hi, np.where(ok, lo, 0.0)


def round_pair(hi, lo, dtype, mode: str = "RN"):
    """Round the exact value ``hi + lo`` (float64 hi, its rest lo: a value carried to more than
    double precision) to ``dtype`` (float16, float32 or float64) in ``mode``: one rounding, as the
    hardware does (RN to nearest even, RZ toward zero, RM down, RP up; past the largest finite value
    RZ and the directed mode away from the infinity give the largest finite)."""
    hi, lo = np.asarray(hi, F64), np.asarray(lo, F64)
    with np.errstate(invalid="ignore", over="ignore"):
        near = hi.astype(dtype)
        back = near.astype(F64)
        fin = np.isfinite(hi)
        # the sign of exact - near (an infinity rounded from a finite value lies beyond it)
        d = np.where(np.isinf(back) & fin, -back, (hi - back) + lo)
        d = np.where(fin, d, 0.0)
        up = np.nextafter(near, dtype(np.inf)).astype(dtype)
        down = np.nextafter(near, dtype(-np.inf)).astype(dtype)
        if mode == "RN":
            # hi on a midpoint of two values of dtype (the tie went to even): the rest decides
            other = np.where(d > 0, up, down)
            gap = np.abs(other.astype(F64) - back)
            mid = (2 * np.abs(hi - back) == gap) & (lo != 0) & (np.sign(lo) == np.sign(hi - back)) & np.isfinite(back)
            return np.where(mid, other, near).astype(dtype)
        if mode == "RZ":
            toward = ((back > 0) & (d < 0)) | ((back < 0) & (d > 0))
            return np.where(toward, np.where(back > 0, down, up), near).astype(dtype)
        if mode == "RM":
            return np.where(d < 0, down, near).astype(dtype)
        return np.where(d > 0, up, near).astype(dtype)


def to_f32(exact, mode: str = "RN", lo=0.0):
    """Round float64 values (plus their exact rest ``lo``) to float32 in ``mode``."""
    return round_pair(exact, lo, F32, mode)


def _inputs(iss: Issue, *idx):
    vals = [np.asarray(iss.f(i), F32) for i in idx]
    if "FTZ" in iss.ins.mods:
        vals = [ftz(v) for v in vals]
    return vals


def _out(iss: Issue, v) -> None:
    v = np.asarray(v, F32)
    if "SAT" in iss.ins.mods:
        v = np.where(np.isnan(v), F32(0), np.clip(v, 0, 1)).astype(F32)
    if "FTZ" in iss.ins.mods:
        v = ftz(v)
    iss.setf(0, v)


def _zero_sign(r, exact, x, y, mode: str):
    """An exact zero sum ``x + y`` is +0 except in RM (-0), and -0 where both are -0."""
    r = np.asarray(r)
    exact = np.asarray(exact)
    both_neg = np.signbit(x) & np.signbit(y) & (x == 0) & (y == 0)
    neg = both_neg if mode != "RM" else ~((x == 0) & (y == 0) & ~np.signbit(x) & ~np.signbit(y))
    return np.where(exact == 0, np.where(neg, -np.abs(r), np.abs(r)), r).astype(r.dtype)


@op("FADD", "FADD32I")
def fadd(iss: Issue) -> None:
    a, b = _inputs(iss, 1, 2)
    mode = _rounding(iss)
    if mode == "RN":
        _out(iss, a + b)
        return
    hi, lo = two_sum(a, b)
    _out(iss, _zero_sign(to_f32(hi, mode, lo), hi, a, b, mode))


@op("FMUL", "FMUL32I")
def fmul(iss: Issue) -> None:
    a, b = _inputs(iss, 1, 2)
    mode = _rounding(iss)
    _out(iss, (a * b) if mode == "RN" else to_f32(a.astype(F64) * b.astype(F64), mode))


@op("FFMA", "FFMA32I")
def ffma(iss: Issue) -> None:
    """a*b is exact in float64; the sum with c is carried exactly and rounded once."""
    a, b, c = _inputs(iss, 1, 2, 3)
    mode = _rounding(iss)
    p = a.astype(F64) * b.astype(F64)
    hi, lo = two_sum(p, c)
    _out(iss, _zero_sign(to_f32(hi, mode, lo), hi, p, c.astype(F64), mode))


def min_max(a, b, pick_min):
    """IEEE 754-2019 minimumNumber / maximumNumber, as FMNMX, DMNMX and HMNMX2 compute: a number
    over a NaN, and -0 below +0 (min of the two zeros is -0, max is +0)."""
    with np.errstate(invalid="ignore"):
        lo, hi = np.fmin(a, b), np.fmax(a, b)
        zeros = (a == 0) & (b == 0)
        lo = np.where(zeros, np.where(np.signbit(a) | np.signbit(b), -np.abs(lo), lo), lo)
        hi = np.where(zeros, np.where(~np.signbit(a) | ~np.signbit(b), np.abs(hi), hi), hi)
    return np.where(pick_min, lo, hi)


@op("FMNMX")
def fmnmx(iss: Issue) -> None:
    a, b = _inputs(iss, 1, 2)
    pick_min = iss.p(3)
    _out(iss, min_max(a, b, pick_min))


_ORDERED = {"EQ": np.equal, "NE": np.not_equal, "LT": np.less, "LE": np.less_equal, "GT": np.greater,
            "GE": np.greater_equal}


def compare(mods, a, b):
    cmp = next((m for m in mods if m in _ORDERED or m[:-1] in _ORDERED and m.endswith("U")
                or m in ("NUM", "NAN", "T", "F", "MAX", "MIN")), None)
    if cmp is None:
        raise EmulationError(f"no comparison in {'.'.join(mods)}")
    nan = np.isnan(a) | np.isnan(b)
    if cmp == "NUM":
        return ~nan
    if cmp == "NAN":
        return nan
    if cmp in ("T", "F"):
        return np.full(np.broadcast(a, b).shape, cmp == "T")
    if cmp in ("MAX", "MIN"):
        return min_max_pick(cmp, a, b)[0]
    if cmp in _ORDERED:
        return _ORDERED[cmp](a, b) & ~nan
    return _ORDERED[cmp[:-1]](a, b) | nan


def min_max_pick(mode: str, a, b):
    """``xSETP.MAX`` / ``.MIN`` (how ``fmax``/``fmin`` of doubles compile: two SELs pick the words):
    the first predicate says the result is ``a`` (the larger, or smaller, value; a number over a NaN;
    +0 over -0 for MAX), the second that both are NaN (the code then returns ``b`` quieted)."""
    na, nb = np.isnan(a), np.isnan(b)
    neg = np.signbit(a)
    if mode == "MAX":
        better = (a > b) | ((a == b) & ~neg)
    else:
        better = (a < b) | ((a == b) & neg)
    return (nb & ~na) | (~na & ~nb & better), na & nb


def _set_predicates(iss: Issue, a, b) -> None:
    """The two predicates of FSETP/DSETP: the comparison and its complement, each combined with the
    third predicate; for .MAX/.MIN the pick and the both-NaN flag (:func:`min_max_pick`)."""
    mods = iss.ins.mods
    pc = iss.p(4)
    mode = next((m for m in mods if m in ("MAX", "MIN")), None)
    if mode is not None:
        pick, both_nan = min_max_pick(mode, a, b)
        iss.setp(0, combine(mods, pick, pc))
        iss.setp(1, combine(mods, both_nan, pc))
        return
    r = compare(mods, a, b)
    iss.setp(0, combine(mods, r, pc))
    iss.setp(1, combine(mods, ~r, pc))


@op("FSETP")
def fsetp(iss: Issue) -> None:
    a, b = _inputs(iss, 2, 3)
    _set_predicates(iss, a, b)


@op("FSET")
def fset(iss: Issue) -> None:
    a, b = _inputs(iss, 1, 2)
    r = combine(iss.ins.mods, compare(iss.ins.mods, a, b), iss.p(3))
    if "BF" in iss.ins.mods:
        iss.setf(0, np.where(r, F32(1), F32(0)))
    else:
        iss.set(0, np.where(r, np.uint32(0xFFFFFFFF), np.uint32(0)))


@op("FCHK")
def fchk(iss: Issue) -> None:
    """Does the fast division ``a / b`` (reciprocal, multiply, one correction) risk a wrong result?
    True when b is zero, infinite, NaN or tiny, a is infinite or NaN, a's exponent is tiny (a zero
    or denormal dividend included: the H100 calls the slow path for ``0 / b``), or the exponents are
    so far apart that the quotient or the reciprocal leaves the normal range."""
    a = np.asarray(iss.f(1), F32)
    b = np.asarray(iss.f(2), F32)
    ea = ((a.view(np.uint32) >> 23) & 0xFF).astype(np.int64)
    eb = ((b.view(np.uint32) >> 23) & 0xFF).astype(np.int64)
    bad_b = (eb == 0) | (eb >= 253)  # zero/denormal, or too large for a normal reciprocal
    bad_a = ea == 255
    gap = ea - eb
    bad_gap = (gap >= 126) | (gap <= -126) | (ea <= 24)
    iss.setp(0, bad_b | bad_a | bad_gap)


_MUFU = {
    "RCP": lambda x: F32(1) / x, "RSQ": lambda x: F32(1) / np.sqrt(x), "SQRT": np.sqrt, "EX2": np.exp2,
    "LG2": np.log2, "SIN": lambda x: np.sin(x * F32(2 * np.pi)), "COS": lambda x: np.cos(x * F32(2 * np.pi)),
    "TANH": np.tanh,
}


@op("MUFU")
def mufu(iss: Issue) -> None:
    fn = next((m for m in iss.ins.mods if m in _MUFU or m in ("RCP64H", "RSQ64H", "SQRT64H")), None)
    if fn is None:
        raise EmulationError(f"{iss.ins.text!r}: MUFU function not modelled")
    if fn.endswith("64H"):  # the high word of a double's approximation, from the high word alone
        o = iss.ins.operands[1]
        if isinstance(o, FImm):  # an immediate is the double printed by its value: its high word
            word = np.uint64(np.float64(o.value).view(np.uint64) >> np.uint64(32))
        else:
            word = np.asarray(iss.u(1)).astype(np.uint64)
        hi = np.asarray(word).astype(np.uint64) << np.uint64(32)
        d = hi.view(F64) if isinstance(hi, np.ndarray) else np.uint64(hi).view(F64)
        r = {"RCP64H": lambda x: 1.0 / x, "RSQ64H": lambda x: 1.0 / np.sqrt(x), "SQRT64H": np.sqrt}[fn](d)
        iss.set(0, (np.asarray(r, F64).view(np.uint64) >> np.uint64(32)).astype(np.uint32))
        return
    x = np.asarray(iss.f(1), F32)
    if "FTZ" in iss.ins.mods or fn in ("RCP", "RSQ", "EX2", "LG2", "SQRT"):
        x = ftz(x)
    iss.setf(0, ftz(np.asarray(_MUFU[fn](x), F32)))


@op("F2I")
def f2i(iss: Issue) -> None:
    """Float (``.F64``, ``.F16`` or float32) to an integer in the rounding the modifier names,
    saturated to the destination's range (NaN gives 0)."""
    mods = iss.ins.mods
    src64 = "F64" in mods
    if src64:
        x = np.asarray(iss.d(1), F64)
    elif "F16" in mods:
        x = (np.asarray(iss.u(1), np.uint32) & 0xFFFF).astype(np.uint16).view(np.float16).astype(F64)
    else:
        x = np.asarray(iss.f(1), F32).astype(F64)
        if "FTZ" in mods:
            x = np.asarray(ftz(x.astype(F32)), F64)
    rnd = next((m for m in mods if m in ("TRUNC", "FLOOR", "CEIL", "RN")), "RN")
    r = {"TRUNC": np.trunc, "FLOOR": np.floor, "CEIL": np.ceil, "RN": np.rint}[rnd](x)
    ints = [m for m in mods if m[:1] in "US" and m[1:] in ("8", "16", "32", "64")]
    dst = ints[0] if ints else "S32"
    bits = int(dst[1:])
    signed = dst[0] == "S"
    lo, hi = (-(2.0 ** (bits - 1)), 2.0 ** (bits - 1)) if signed else (0.0, 2.0 ** bits)
    nan = np.isnan(r)
    over = r >= hi  # the largest value is 2**bits - 1 (or 2**(bits-1) - 1): not a float of these widths
    r = np.where(nan | over, 0.0, np.maximum(r, lo))
    top = (1 << (bits - 1)) - 1 if signed else (1 << bits) - 1
    if bits == 64:
        v = r.astype(np.int64).view(np.uint64) if signed else r.astype(np.uint64)
        v = np.where(over, np.uint64(top), v)
        iss.set64(0, np.asarray(v).astype(np.uint64))
    else:
        v = np.where(over, top, r.astype(np.int64))
        iss.set(0, np.asarray(v, np.int64) & 0xFFFFFFFF)


def _int_source(iss: Issue, i: int, kind: str):
    if kind in ("S64", "U64"):
        v = iss.u64(i)
        return np.asarray(v).view(np.int64).astype(F64) if kind == "S64" else np.asarray(v).astype(F64)
    v = np.asarray(iss.u(i), np.uint32)
    if kind == "S32":
        return v.view(np.int32).astype(F64)
    if kind == "S16":
        return (v & 0xFFFF).astype(np.uint16).view(np.int16).astype(F64)
    if kind == "U16":
        return (v & 0xFFFF).astype(F64)
    if kind == "S8":
        return (v & 0xFF).astype(np.uint8).view(np.int8).astype(F64)
    if kind == "U8":
        return (v & 0xFF).astype(F64)
    return v.astype(F64)


def _int_exact(iss: Issue, i: int, kind: str):
    """An integer source as float64 (hi, lo): hi rounded to nearest, lo the exact rest."""
    x = _int_source(iss, i, kind)
    if kind not in ("S64", "U64"):
        return x, np.zeros_like(np.asarray(x, F64))
    v = np.asarray(iss.u64(i)).astype(np.uint64)
    vals = np.atleast_1d(v).ravel()
    hi = np.atleast_1d(np.asarray(x, F64)).ravel()
    # hi as an integer modulo 2**64 (it is one: a rounded 64-bit integer), then v - hi, which is
    # small (under an ulp of hi), in two's complement
    with np.errstate(invalid="ignore"):
        h = np.where(np.isfinite(hi), hi, 0.0)
        big = h >= 2.0 ** 63
        h_mod = np.where(big, np.where(h >= 2.0 ** 64, 0.0, h), 0.0).astype(np.uint64)
        h_mod = np.where(big, h_mod, np.where(big, 0.0, h).astype(np.int64).view(np.uint64))
    lo = (vals - h_mod).view(np.int64).astype(F64)
    lo = np.where(np.isfinite(hi), lo, 0.0)
    return np.asarray(x, F64), lo.reshape(np.shape(x)) if np.ndim(x) else lo[0]


@op("I2F", "I2FP")
def i2f(iss: Issue) -> None:
    """Integer to float (``.F64``, ``.F16``, float32) rounded once in the named mode."""
    mods = iss.ins.mods
    ints = [m for m in mods if m[:1] in "US" and m[1:] in ("8", "16", "32", "64")]
    src = ints[-1] if ints else "S32"
    hi, lo = _int_exact(iss, len(iss.ins.operands) - 1, src)
    mode = _rounding(iss)
    if "F64" in mods:
        iss.set64(0, round_pair(hi, lo, F64, mode))
    elif "F16" in mods:
        iss.set(0, round_pair(hi, lo, np.float16, mode).view(np.uint16).astype(np.uint32))
    else:
        iss.setf(0, round_pair(hi, lo, F32, mode))


@op("F2F")
def f2f(iss: Issue) -> None:
    mods = [m for m in iss.ins.mods if m in ("F16", "F32", "F64", "BF16")]
    if len(mods) < 2:
        raise EmulationError(f"{iss.ins.text!r}: F2F without two types")
    dst, src = mods[0], mods[1]
    if src == "F64":
        x = np.asarray(iss.d(1), F64)
    elif src == "F16":
        x = (np.asarray(iss.u(1), np.uint32) & 0xFFFF).astype(np.uint16).view(np.float16).astype(F64)
    else:
        x = np.asarray(iss.f(1), F32).astype(F64)
    mode = _rounding(iss)
    if dst == "F64":
        iss.set64(0, x)
    elif dst == "F16":
        iss.set(0, round_pair(x, 0.0, np.float16, mode).view(np.uint16).astype(np.uint32))
    elif dst == "BF16":
        iss.set(0, bf16_from64(x, mode))
    else:
        iss.setf(0, to_f32(x, mode))


def bf16_bits(x, mode: str = "RN") -> np.ndarray:
    """float32 -> bfloat16 bits in ``mode`` (RN to nearest even, RZ, RM, RP); NaN gives 0x7FC0."""
    b = np.asarray(x, F32).view(np.uint32).astype(np.uint64)
    keep = b >> np.uint64(16)
    rest = b & np.uint64(0xFFFF)
    neg = (b >> np.uint64(31)) == 1
    if mode == "RN":
        r = (b + np.uint64(0x7FFF) + (keep & np.uint64(1))) >> np.uint64(16)
    elif mode == "RZ":
        r = keep
    else:  # away from zero where the rest is not zero and the direction is the sign's
        away = (rest != 0) & (neg if mode == "RM" else ~neg)
        r = keep + away.astype(np.uint64)
    nan = np.isnan(np.asarray(x, F32))
    return np.where(nan, np.uint64(0x7FC0), r & np.uint64(0xFFFF)).astype(np.uint32)


def bf16_from64(x, mode: str = "RN") -> np.ndarray:
    """float64 -> bfloat16 bits rounded once: to float32 toward zero with a sticky last bit (round
    to odd; the directed modes go straight), then to bfloat16."""
    x = np.asarray(x, F64)
    t = round_pair(x, 0.0, F32, "RZ" if mode in ("RN", "RZ") else mode)
    if mode == "RN":
        sticky = (t.astype(F64) != x) & np.isfinite(x)
        t = (t.view(np.uint32) | sticky.astype(np.uint32)).view(F32)
    return bf16_bits(t, mode).astype(np.uint32)


@op("F2FP")
def f2fp(iss: Issue) -> None:
    """Two floats packed into two halves: ``PACK_AB d, a, b`` puts a in the high half."""
    mods = iss.ins.mods
    a = np.asarray(iss.f(1), F32)
    b = np.asarray(iss.f(2), F32) if len(iss.ins.operands) > 2 else np.zeros_like(a)
    mode = _rounding(iss)
    if "BF16" in mods:
        ha, hb = bf16_bits(a, mode), bf16_bits(b, mode)
    else:
        ha = round_pair(a.astype(F64), 0.0, np.float16, mode).view(np.uint16).astype(np.uint32)
        hb = round_pair(b.astype(F64), 0.0, np.float16, mode).view(np.uint16).astype(np.uint32)
    iss.set(0, (ha << np.uint32(16)) | hb)


@op("FRND")
def frnd(iss: Issue) -> None:
    mods = iss.ins.mods
    rnd = next((m for m in mods if m in ("TRUNC", "FLOOR", "CEIL")), "RN")
    fn = {"TRUNC": np.trunc, "FLOOR": np.floor, "CEIL": np.ceil, "RN": np.rint}[rnd]
    if "F64" in mods:
        iss.set64(0, fn(np.asarray(iss.d(1), F64)))
    else:
        iss.setf(0, fn(np.asarray(iss.f(1), F32)))


# ---------------------------------------------------------------------- double precision
def _two_sum(a, b):
    """``a + b`` as the rounded sum and its exact error (Knuth's TwoSum, on whole lane vectors)."""
    s = a + b
    bb = s - a
    return s, (a - (s - bb)) + (b - bb)


def _exact_sum(terms, fallback):
    """The exact sum of float64 terms as (hi, lo): hi correctly rounded, lo the exact rest;
    ``fallback`` where a term is not finite or the sum overflows. Lane vectors throughout: the
    terms are summed with error-free TwoSums and the errors summed again; where that second sum is
    itself inexact (three terms spread over more than 106 bits: rare), those lanes alone are summed
    exactly with ``math.fsum``."""
    import math

    shape = np.shape(fallback)
    cols = [np.broadcast_to(np.asarray(t, F64), shape).ravel() for t in terms]
    fb = np.asarray(fallback, F64).ravel()
    with np.errstate(all="ignore"):
        hi, errs = cols[0].copy(), []
        for c in cols[1:]:
            hi, e = _two_sum(hi, c)
            errs.append(e)
        r, exact = errs[0], np.ones(fb.shape, bool)
        for e in errs[1:]:
            r, x = _two_sum(r, e)
            exact &= x == 0
        hi, lo = _two_sum(hi, r)
    ok = np.logical_and.reduce([np.isfinite(c) for c in cols]) & np.isfinite(fb)
    good = ok & exact & np.isfinite(hi) & np.isfinite(lo)
    out_hi = np.where(good, hi, fb)
    out_lo = np.where(good, lo, 0.0)
    # an exact zero: the fallback's zero where it is one, else +0 (the sign rules are the caller's)
    out_hi = np.where(good & (out_hi == 0), np.where(fb == 0, fb, 0.0), out_hi)
    for k in np.flatnonzero(ok & ~good):
        xs = [c[k] for c in cols]
        h = math.fsum(xs)
        if not math.isfinite(h):
            continue
        if h == 0:
            out_hi[k], out_lo[k] = (fb[k] if fb[k] == 0 else 0.0), 0.0
            continue
        out_hi[k] = h
        out_lo[k] = math.fsum(xs + [-h])
    return out_hi.reshape(shape), out_lo.reshape(shape)


@op("DADD")
def dadd(iss: Issue) -> None:
    """a + b rounded once in the named mode (``.RZ``, ``.RM``, ``.RP``; RN by default)."""
    a, b = np.asarray(iss.d(1), F64), np.asarray(iss.d(2), F64)
    mode = _rounding(iss)
    if mode == "RN":
        iss.set64(0, a + b)
        return
    hi, lo = two_sum(a, b)
    iss.set64(0, _zero_sign(np.atleast_1d(round_pair(hi, lo, F64, mode)), np.atleast_1d(hi), a, b, mode)
              .reshape(np.shape(hi)))


@op("DMUL")
def dmul(iss: Issue) -> None:
    """a * b rounded once in the named mode (the rest of the product by Dekker's split)."""
    a, b = np.asarray(iss.d(1), F64), np.asarray(iss.d(2), F64)
    mode = _rounding(iss)
    if mode == "RN":
        iss.set64(0, a * b)
        return
    hi, lo = two_prod(a, b)
    iss.set64(0, round_pair(hi, lo, F64, mode))


@op("DFMA")
def dfma(iss: Issue) -> None:
    """a*b + c rounded once (RN, or the named ``.RZ``/``.RM``/``.RP``): the product split exactly
    (Dekker), the three terms summed exactly (:func:`_exact_sum`)."""
    a, b, c = (np.asarray(iss.d(i), F64) for i in (1, 2, 3))
    mode = _rounding(iss)
    p, e = two_prod(a, b)
    with np.errstate(invalid="ignore", over="ignore"):
        ld = np.longdouble
        near = (a.astype(ld) * b.astype(ld) + c.astype(ld)).astype(F64)
    shape = np.broadcast(a, b, c).shape
    hi, lo = _exact_sum([p, e, c], np.broadcast_to(near, shape))
    r = round_pair(hi, lo, F64, mode)
    if mode == "RM":  # an exact zero sum is -0 rounding down
        pz = np.broadcast_to(p, shape)
        r = _zero_sign(np.atleast_1d(r), np.atleast_1d(np.where(hi == 0, 0.0, 1.0)), np.atleast_1d(pz),
                       np.atleast_1d(np.broadcast_to(c, shape)), mode).reshape(shape)
    iss.set64(0, r)


@op("DSETP")
def dsetp(iss: Issue) -> None:
    a, b = np.asarray(iss.d(2), F64), np.asarray(iss.d(3), F64)
    _set_predicates(iss, a, b)


@op("DMNMX")
def dmnmx(iss: Issue) -> None:
    a, b = np.asarray(iss.d(1), F64), np.asarray(iss.d(2), F64)
    iss.set64(0, min_max(a, b, iss.p(3)))
