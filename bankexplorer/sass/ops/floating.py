"""Single and double precision: FADD, FMUL, FFMA, FMNMX, FSETP, FSET, MUFU, FCHK, conversions
(F2I, I2F, I2FP, F2F, F2FP, FRND) and the double-precision DADD, DMUL, DFMA, DSETP, DMNMX.

numpy computes in IEEE round-to-nearest. A fused multiply-add is computed in double precision and
rounded once to single (the same result except in rare double-rounding cases); directed rounding
(``.RZ``, ``.RM``, ``.RP``) steps the nearest result by one unit where it went the wrong way.
``MUFU`` (the hardware's approximate reciprocal, square root, exponential...) gives the exact
function: a last-bit difference from the GPU is possible there.
"""

from __future__ import annotations

import numpy as np

from ..issue import EmulationError, Issue
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


def to_f32(exact, mode: str = "RN"):
    """Round float64 values to float32 in ``mode``."""
    exact = np.asarray(exact, F64)
    near = exact.astype(F32)
    if mode == "RN":
        return near
    back = near.astype(F64)
    if mode == "RZ":
        step = (np.abs(back) > np.abs(exact))
        return np.where(step & np.isfinite(exact), np.nextafter(near, F32(0)), near).astype(F32)
    if mode == "RM":
        return np.where((back > exact) & np.isfinite(exact), np.nextafter(near, F32(-np.inf)), near).astype(F32)
    return np.where((back < exact) & np.isfinite(exact), np.nextafter(near, F32(np.inf)), near).astype(F32)


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


@op("FADD", "FADD32I")
def fadd(iss: Issue) -> None:
    a, b = _inputs(iss, 1, 2)
    mode = _rounding(iss)
    _out(iss, (a + b) if mode == "RN" else to_f32(a.astype(F64) + b.astype(F64), mode))


@op("FMUL", "FMUL32I")
def fmul(iss: Issue) -> None:
    a, b = _inputs(iss, 1, 2)
    mode = _rounding(iss)
    _out(iss, (a * b) if mode == "RN" else to_f32(a.astype(F64) * b.astype(F64), mode))


@op("FFMA", "FFMA32I")
def ffma(iss: Issue) -> None:
    a, b, c = _inputs(iss, 1, 2, 3)
    _out(iss, to_f32(a.astype(F64) * b.astype(F64) + c.astype(F64), _rounding(iss)))


@op("FMNMX")
def fmnmx(iss: Issue) -> None:
    a, b = _inputs(iss, 1, 2)
    pick_min = iss.p(3)
    _out(iss, np.where(pick_min, np.fmin(a, b), np.fmax(a, b)))


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
    True when b is zero, infinite, NaN or tiny, a is infinite or NaN, or the exponents are so far
    apart that the quotient or the reciprocal leaves the normal range."""
    a = np.asarray(iss.f(1), F32)
    b = np.asarray(iss.f(2), F32)
    ea = ((a.view(np.uint32) >> 23) & 0xFF).astype(np.int64)
    eb = ((b.view(np.uint32) >> 23) & 0xFF).astype(np.int64)
    bad_b = (eb == 0) | (eb >= 253)  # zero/denormal, or too large for a normal reciprocal
    bad_a = ea == 255
    gap = ea - eb
    bad_gap = (ea != 0) & ((gap >= 126) | (gap <= -126) | (ea <= 24))
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
        hi = np.asarray(iss.u(1)).astype(np.uint64) << np.uint64(32)
        d = hi.view(F64) if isinstance(hi, np.ndarray) else np.uint64(hi).view(F64)
        r = {"RCP64H": lambda x: 1.0 / x, "RSQ64H": lambda x: 1.0 / np.sqrt(x), "SQRT64H": np.sqrt}[fn](d)
        iss.set(0, (np.asarray(r, F64).view(np.uint64) >> np.uint64(32)).astype(np.uint32))
        return
    x = np.asarray(iss.f(1), F32)
    if "FTZ" in iss.ins.mods or fn in ("RCP", "RSQ", "EX2", "LG2", "SQRT"):
        x = ftz(x)
    iss.setf(0, ftz(np.asarray(_MUFU[fn](x), F32)))


def _src_width(mods, default="S32"):
    ints = [m for m in mods if m[:1] in "US" and m[1:] in ("8", "16", "32", "64")]
    return ints


@op("F2I")
def f2i(iss: Issue) -> None:
    mods = iss.ins.mods
    src64 = "F64" in mods
    x = np.asarray(iss.d(1) if src64 else iss.f(1), F64)
    if "FTZ" in mods and not src64:
        x = np.asarray(ftz(x.astype(F32)), F64)
    rnd = next((m for m in mods if m in ("TRUNC", "FLOOR", "CEIL", "RN")), "RN")
    r = {"TRUNC": np.trunc, "FLOOR": np.floor, "CEIL": np.ceil, "RN": np.rint}[rnd](x)
    ints = [m for m in mods if m[:1] in "US" and m[1:] in ("8", "16", "32", "64")]
    dst = ints[0] if ints else "S32"
    bits = int(dst[1:])
    lo, hi = (0, 2.0 ** bits - 1) if dst[0] == "U" else (-(2.0 ** (bits - 1)), 2.0 ** (bits - 1) - 1)
    r = np.where(np.isnan(r), 0, np.clip(r, lo, hi))
    if bits == 64:
        v = r.astype(np.int64) if dst[0] == "S" else r.astype(np.uint64)
        iss.set64(0, np.asarray(v).astype(np.uint64))
    else:
        iss.set(0, r.astype(np.int64) & 0xFFFFFFFF)


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


@op("I2F", "I2FP")
def i2f(iss: Issue) -> None:
    mods = iss.ins.mods
    ints = [m for m in mods if m[:1] in "US" and m[1:] in ("8", "16", "32", "64")]
    src = ints[-1] if ints else "S32"
    x = _int_source(iss, len(iss.ins.operands) - 1, src)
    mode = _rounding(iss)
    if "F64" in mods:
        iss.set64(0, np.asarray(x, F64))
    elif "F16" in mods:
        iss.set(0, np.asarray(x, F64).astype(np.float16).view(np.uint16).astype(np.uint32))
    else:
        iss.setf(0, to_f32(x, mode))


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
    if dst == "F64":
        iss.set64(0, x)
    elif dst == "F16":
        iss.set(0, x.astype(np.float16).view(np.uint16).astype(np.uint32))
    elif dst == "BF16":
        iss.set(0, bf16_bits(x.astype(F32)).astype(np.uint32))
    else:
        iss.setf(0, to_f32(x, _rounding(iss)))


def bf16_bits(x) -> np.ndarray:
    """float32 -> bfloat16 bits, round to nearest even."""
    b = np.asarray(x, F32).view(np.uint32).astype(np.uint64)
    r = (b + np.uint64(0x7FFF) + ((b >> np.uint64(16)) & np.uint64(1))) >> np.uint64(16)
    nan = np.isnan(np.asarray(x, F32))
    return np.where(nan, np.uint64(0x7FC0), r & np.uint64(0xFFFF)).astype(np.uint32)


@op("F2FP")
def f2fp(iss: Issue) -> None:
    """Two floats packed into two halves: ``PACK_AB d, a, b`` puts a in the high half."""
    mods = iss.ins.mods
    a = np.asarray(iss.f(1), F32)
    b = np.asarray(iss.f(2), F32) if len(iss.ins.operands) > 2 else np.zeros_like(a)
    if "BF16" in mods:
        ha, hb = bf16_bits(a), bf16_bits(b)
    else:
        ha = a.astype(np.float16).view(np.uint16).astype(np.uint32)
        hb = b.astype(np.float16).view(np.uint16).astype(np.uint32)
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
def _dround(iss: Issue, v):
    return np.asarray(v, F64)


@op("DADD")
def dadd(iss: Issue) -> None:
    iss.set64(0, _dround(iss, np.asarray(iss.d(1), F64) + np.asarray(iss.d(2), F64)))


@op("DMUL")
def dmul(iss: Issue) -> None:
    iss.set64(0, _dround(iss, np.asarray(iss.d(1), F64) * np.asarray(iss.d(2), F64)))


@op("DFMA")
def dfma(iss: Issue) -> None:
    a, b, c = (np.asarray(iss.d(i), F64) for i in (1, 2, 3))
    # a*b+c rounded once: exact through Python's decimal-free fsum is slow; longdouble where it is wider
    ld = np.longdouble
    iss.set64(0, (a.astype(ld) * b.astype(ld) + c.astype(ld)).astype(F64))


@op("DSETP")
def dsetp(iss: Issue) -> None:
    a, b = np.asarray(iss.d(2), F64), np.asarray(iss.d(3), F64)
    _set_predicates(iss, a, b)


@op("DMNMX")
def dmnmx(iss: Issue) -> None:
    a, b = np.asarray(iss.d(1), F64), np.asarray(iss.d(2), F64)
    iss.set64(0, np.where(iss.p(3), np.fmin(a, b), np.fmax(a, b)))
