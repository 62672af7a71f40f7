"""Warp-level tensor-core MMA: ``HMMA`` (PTX ``mma.sync.m16n8k{4,8,16}``), every shape and type
sm_90 compiles it to.

``HMMA.<shape>.<acc>[.<input>]`` computes D = A x B + C for each warp, the 16 x K A, K x 8 B and
16 x 8 C/D fragments spread over the lanes as PTX's ``mma`` fragment layouts say (g = lane / 4,
q = lane % 4):

======================  ===========================  ==========================  ==================
shape, inputs           A (registers: row, column)   B (registers: k, n)         count A / B
======================  ===========================  ==========================  ==================
16816 F16/BF16          g+8(r%2), 2q+h+8(r/2)        2q+h+8r, g                  4 / 2
1688  F16/BF16          g+8r, 2q+h                   2q+h, g                     2 / 1
1688  TF32              g+8(r%2), q+4(r/2)           q+4r, g                     4 / 2
1684  TF32              g+8r, q                      q, g                        2 / 1
======================  ===========================  ==========================  ==================

(h: the low or high half of a 16-bit pair.) C and D: F32 accumulators are 4 registers at row
g+8(r/2), column 2q+(r%2); F16 ones 2 registers of pairs at row g+8r, columns 2q+h.

Values: the products are exact (16-bit inputs, and TF32's 10-bit mantissas, multiply exactly in
double precision); the tensor core sums them in its own order and precision, which is not
documented. Here each output is the exact sum rounded once to the accumulator type (F32: ties to
even, F16: likewise), so a result differs from the GPU's by at most a few units in the last place
of the accumulator (within ``2**-22 * sum |a*b| + |c|`` for F32, checked against measured kernels).
TF32 inputs are floats whose 13 low mantissa bits the tensor core does not read (they are
dropped here: a value is truncated toward zero to TF32).
"""

from __future__ import annotations

import numpy as np

from ..issue import EmulationError, Issue
from ..operands import Reg
from . import op

U32 = np.uint32
F32 = np.float32

#: (shape, input kind) -> (K, A registers, B registers)
_SHAPES = {("16816", "16"): (16, 4, 2), ("1688", "16"): (8, 2, 1),
           ("1688", "TF32"): (8, 4, 2), ("1684", "TF32"): (4, 2, 1)}


def _coords_a(shape: str, kind: str, nregs: int):
    """(register, half, row[32], column[32]) for every A element a lane holds."""
    t = np.arange(32)
    g, q = t // 4, t % 4
    out = []
    for r in range(nregs):
        if kind == "TF32":
            row = g + 8 * (r % 2) if shape == "1688" else g + 8 * r
            col = q + 4 * (r // 2) if shape == "1688" else q
            out.append((r, None, row, col))
        else:
            for h in (0, 1):
                row = g + 8 * (r % 2) if shape == "16816" else g + 8 * r
                col = 2 * q + h + (8 * (r // 2) if shape == "16816" else 0)
                out.append((r, h, row, col))
    return out


def _coords_b(kind: str, nregs: int):
    """(register, half, k[32], n[32]) for every B element a lane holds."""
    t = np.arange(32)
    g, q = t // 4, t % 4
    out = []
    for r in range(nregs):
        if kind == "TF32":
            out.append((r, None, q + 4 * r, g))
        else:
            for h in (0, 1):
                out.append((r, h, 2 * q + h + 8 * r, g))
    return out


def _coords_c(f32: bool):
    t = np.arange(32)
    g, q = t // 4, t % 4
    if f32:
        return [(r, None, g + 8 * (r // 2), 2 * q + r % 2) for r in range(4)]
    return [(r, h, g + 8 * r, 2 * q + h) for r in range(2) for h in (0, 1)]


def _value(bits: np.ndarray, half: int | None, kind: str) -> np.ndarray:
    """Element values (float64) from register bits: a half of a 16-bit pair, or a TF32 float."""
    if half is None:
        if kind == "TF32":
            bits = bits & U32(0xFFFFE000)
        return bits.view(F32).astype(np.float64)
    b16 = (bits >> U32(16 * half)) & U32(0xFFFF)
    if kind == "BF16":
        return (b16 << U32(16)).view(F32).astype(np.float64)
    return b16.astype(np.uint16).view(np.float16).astype(np.float64)


@op("HMMA")
def hmma(iss: Issue) -> None:
    """``HMMA.<shape>.<F32|F16>[.BF16|.TF32] D, A, B, C`` for every warp with an active lane."""
    mods = iss.ins.mods
    shape = next((m for m in mods if m[:1].isdigit()), "")
    kind = "TF32" if "TF32" in mods else "BF16" if "BF16" in mods else "F16"
    spec = _SHAPES.get((shape, "TF32" if kind == "TF32" else "16"))
    if spec is None or "SP" in mods:
        raise EmulationError(f"{iss.ins.text!r}: this HMMA form is not modelled (m16n8k16 and m16n8k8 of "
                             f"F16/BF16, m16n8k8 and m16n8k4 of TF32 are)", iss.ins.line)
    K, na, nb = spec
    f32 = mods[1:2] == ("F32",) or "F32" in mods[:2]
    d, a, b, c = iss.ins.operands[:4]
    lanes = iss.b.lanes
    warps = np.flatnonzero(iss.on.reshape(-1, 32).any(axis=1))
    if not warps.size:
        return

    def regs(o, n):  # [n][warps, 32] register bits of the warps that issue
        return [np.zeros((warps.size, 32), U32) if getattr(o, "zero", False) else
                np.asarray(iss.bits(Reg(o.index + k, o.uniform)), U32).reshape(-1, 32)[warps] for k in range(n)]

    A, B, C = regs(a, na), regs(b, nb), regs(c, 4 if f32 else 2)
    W = warps.size
    am = np.zeros((W, 16, K))
    bm = np.zeros((W, K, 8))
    cm = np.zeros((W, 16, 8))
    for r, h, row, col in _coords_a(shape, kind if kind == "TF32" else "16", na):
        am[:, row, col] = _value(A[r], h, kind)
    for r, h, k, n in _coords_b(kind if kind == "TF32" else "16", nb):
        bm[:, k, n] = _value(B[r], h, kind)
    for r, h, row, col in _coords_c(f32):
        cm[:, row, col] = _value(C[r], h, "F16") if h is not None else C[r].view(F32).astype(np.float64)
    dm = np.matmul(am, bm) + cm  # exact for these inputs, then rounded once
    out = []
    if f32:
        for r, _h, row, col in _coords_c(True):
            out.append(dm[:, row, col].astype(F32).view(U32))
    else:
        pairs = {}
        for r, h, row, col in _coords_c(False):
            v = dm[:, row, col].astype(np.float16).view(np.uint16).astype(U32)
            pairs[r] = pairs.get(r, U32(0)) | (v << U32(16 * h))
        out = [pairs[0], pairs[1]]
    for k, v in enumerate(out):  # the lanes that issued receive their part of D
        full = np.zeros(lanes, U32)
        full.reshape(-1, 32)[warps] = v
        iss.write(d.index + k, False, full)
