"""Hopper's warpgroup matrix multiply (``wgmma.mma_async``, SASS ``HGMMA``) with its operands in
shared memory, addressed by matrix descriptors.

``HGMMA.64xNxK.F32 D, gdesc[URa], C[, P]``: the four warps of a warpgroup compute D = A (64 x K) x
B (K x N) + C, warp ``w % 4`` holding rows 16(w % 4) .. +15 of D, each 8-column block of them laid
out as ``mma.m16n8``'s accumulator (thread t: rows t/4 and t/4 + 8, columns 2(t%4) and +1).
``gdesc[URa]`` is two 64-bit descriptors, A's in URa:URa+1 and B's in URa+2:URa+3; ``C`` is ``RZ``
(or the predicate false) for D = A x B. ``HGMMA D, Ra, gdesc[URb], C`` takes A from each warp's
registers (the ``mma.m16n8k16`` A fragment, Ra..Ra+3); B's descriptor stays in URb+2:URb+3. ``.tnspA``/``.tnspB``: that operand is M/N-major in shared
memory instead of K-major. A descriptor (PTX ISA, "Matrix Descriptor Format") holds the start
address >> 4 (bits 0-13), the leading and stride byte offsets >> 4 (bits 16-29, 32-45), the base
offset (bits 49-51) and the swizzle (bits 62-63: 0 none, 1 128-byte, 2 64-byte, 3 32-byte).

Element addresses follow the canonical layouts CuTe writes for the descriptor
(``cute/atom/mma_traits_sm90_gmma.hpp``, ``make_gmma_desc``), in bytes for elements of ``e``
bytes and a swizzle width ``W`` (16 for none):

- K-major, swizzled: ``(mn % 8) W + (mn / 8) SBO + k e``; not swizzled:
  ``(mn % 8) 16 + (mn / 8) SBO + (k % T) e + (k / T) LBO`` with T = 16 / e;
- M/N-major, swizzled: ``(mn % (W/e)) e + (mn / (W/e)) LBO + (k % 8) W + (k / 8) SBO``; not
  swizzled: ``(mn % T) e + (mn / T) SBO + (k % 8) 16 + (k / 8) LBO``;

then the swizzle of the address (CuTe's ``Swizzle<B, 4, 3>``, B = 3, 2, 1 for 128, 64 and 32 bytes:
bits 4.. of the 16-byte chunk XORed with bits 7..). The emulated products equal numpy's (tests).
``WARPGROUP.ARRIVE`` and ``WARPGROUP.DEPBAR`` order the asynchronous product against the
registers; the emulator completes each product when it issues, so they do nothing here.
"""

from __future__ import annotations

import re

import numpy as np

from ..issue import EmulationError, Issue
from ..operands import Other, Reg
from . import op

U32 = np.uint32
_SHAPE = re.compile(r"^(\d+)x(\d+)x(\d+)$")
_DESC = re.compile(r"^gdesc\[UR(\d+)\]((?:\.tnsp[AB])*)")
#: swizzle field -> (swizzle width in bytes, CuTe's B of Swizzle<B, 4, 3>)
_SWIZZLE = {0: (16, 0), 1: (128, 3), 2: (64, 2), 3: (32, 1)}
#: input types by the SASS modifier -> element bytes
_INPUTS = {"F16": 2, "BF16": 2, "TF32": 4}


def descriptor_fields(desc: int) -> dict[str, int]:
    """The fields of a 64-bit wgmma matrix descriptor (byte values)."""
    return {"start": (desc & 0x3FFF) << 4, "lbo": ((desc >> 16) & 0x3FFF) << 4, "sbo": ((desc >> 32) & 0x3FFF) << 4,
            "base_offset": (desc >> 49) & 0x7, "swizzle": (desc >> 62) & 0x3}


def operand_addresses(desc: int, mn: int, k: int, esize: int, mn_major: bool) -> np.ndarray:
    """Byte address in shared memory of every element [mn, k] of an operand (``mn`` x ``k``)."""
    f = descriptor_fields(desc)
    if f["base_offset"]:
        raise EmulationError(f"a wgmma descriptor with base offset {f['base_offset']} is not modelled")
    width, bits = _SWIZZLE[f["swizzle"]]
    M, K = np.meshgrid(np.arange(mn), np.arange(k), indexing="ij")
    t = 16 // esize
    if not mn_major:
        if bits:
            off = (M % 8) * width + (M // 8) * f["sbo"] + K * esize
        else:
            off = (M % 8) * 16 + (M // 8) * f["sbo"] + (K % t) * esize + (K // t) * f["lbo"]
    else:
        per = width // esize
        if bits:
            off = (M % per) * esize + (M // per) * f["lbo"] + (K % 8) * width + (K // 8) * f["sbo"]
        else:
            off = (M % t) * esize + (M // t) * f["sbo"] + (K % 8) * 16 + (K // 8) * f["lbo"]
    addr = f["start"] + off
    if bits:
        addr = addr ^ (((addr >> 7) & ((1 << bits) - 1)) << 4)
    return addr.astype(np.int64)


def _elements(shared: np.ndarray, addr: np.ndarray, kind: str, where: str) -> np.ndarray:
    esize = _INPUTS[kind]
    if addr.size and (addr.min() < 0 or addr.max() + esize > shared.size):
        raise EmulationError(f"{where}: a wgmma operand reaches shared byte {int(addr.max()):,}, past the block's "
                             f"{shared.size:,} bytes")
    raw = shared[addr[..., None] + np.arange(esize)]
    if kind == "F16":
        return raw.view(np.float16)[..., 0].astype(np.float64)
    if kind == "BF16":
        return (raw.view(np.uint16)[..., 0].astype(U32) << U32(16)).view(np.float32).astype(np.float64)
    bits = raw.view(U32)[..., 0] & U32(0xFFFFE000)  # tf32: the tensor core reads 10 mantissa bits
    return bits.view(np.float32).astype(np.float64)


def core_matrices(addr: np.ndarray, esize: int, mn_major: bool) -> np.ndarray:
    """The operand's core matrices (8 rows of 16 bytes, the unit its layouts are made of) as the
    addresses of their 8 rows: shape (matrices, 8), K-major rows along M/N, M/N-major along K."""
    t = 16 // esize
    mn, k = addr.shape
    if not mn_major:  # row r of matrix (mn / 8, k / t): element [8 (mn / 8) + r, t (k / t)]
        rows = addr[:, ::t].reshape(mn // 8, 8, -1)
        return rows.transpose(0, 2, 1).reshape(-1, 8)
    rows = addr[::t, :].reshape(mn // t, -1, 8)  # [mn chunk, k / 8, k % 8]
    return rows.reshape(-1, 8)


def _record_reads(iss: Issue, w: int, a_rows: np.ndarray, b_all: np.ndarray) -> None:
    """The shared-memory reads of warp ``w``'s part of the product, for the wavefront count: the
    core matrices of its 16 rows of A and a quarter of B's, each costed as one ``ldmatrix`` matrix
    (8 rows of 16 bytes: one wavefront where the 8 rows fall in distinct bank quads). Nsight
    Compute's source page counts an HGMMA's wavefronts so: one per 128 bytes of A and B on the 13
    swizzled (conflict-free) wgmma kernels of resources/hardware/kernels/triton. Held out (drawn by
    scripts/make_wgmma_family.py before it was measured, ``triton/heldout``: bf16 and fp16, K-major
    and N-major B, M-major A, A in registers, two warpgroups splitting N, 64- and 128-byte swizzles,
    an attention forward): 36/36 HGMMA instructions of 10 kernels exact, A in registers costing
    B's bytes alone."""
    mats = np.concatenate([a_rows, np.array_split(b_all, 4)[w % 4]])  # A from registers: B's alone
    lanes = iss.b.lanes
    for start in range(0, len(mats), 4):
        part = mats[start:start + 4].reshape(-1)
        addr = np.zeros(lanes, np.int64)
        mask = np.zeros(lanes, bool)
        addr[w * 32:w * 32 + part.size] = part
        mask[w * 32:w * 32 + 32] = True
        iss.run.record.shared_access(iss, "ldmatrix", 16, addr, mask, matrices=part.size // 8)


def _register_a(b, a: Reg, sl: slice, k: int, kind: str) -> np.ndarray:
    """A warp's 16 x k rows of A from its registers, laid out as ``mma.m16n8k16``'s A fragment
    (16-bit: register r of thread t holds row t/4 + 8 (r % 2), columns 2(t%4) + 8 (r / 2) and +1;
    tf32, k = 8: row t/4 + 8 (r % 2), column t%4 + 4 (r / 2))."""
    t = np.arange(32)
    g, q = t // 4, t % 4
    out = np.zeros((16, k), np.float64)
    for r in range(4):
        v = np.asarray(b.R[a.index + r][sl], U32)
        row = g + 8 * (r % 2)
        if kind == "TF32":
            out[row, q + 4 * (r // 2)] = (v & U32(0xFFFFE000)).view(np.float32)
            continue
        for h in range(2):
            bits = ((v >> U32(16 * h)) & U32(0xFFFF)).astype(np.uint16)
            val = bits.view(np.float16).astype(np.float64) if kind == "F16" else \
                (bits.astype(U32) << U32(16)).view(np.float32).astype(np.float64)
            out[row, 2 * q + 8 * (r // 2) + h] = val
    return out


@op("HGMMA")
def hgmma(iss: Issue) -> None:
    """See the module's docstring."""
    ins = iss.ins
    mods = ins.mods
    shape = next((_SHAPE.match(m) for m in mods if _SHAPE.match(m)), None)
    if shape is None:
        raise EmulationError(f"{ins.text!r}: no MxNxK shape")
    m, n, k = (int(x) for x in shape.groups())
    kind = next((t for t in ("BF16", "TF32") if t in mods), "F16")
    if "F32" not in mods or any(x in mods for x in ("E4M3", "E5M2", "S8", "U8")):
        raise EmulationError(f"{ins.text!r}: only fp16, bf16 and tf32 inputs with float accumulators are modelled")
    d, a = ins.operands[0], ins.operands[1]
    a_reg = a if isinstance(a, Reg) else None  # HGMMA D, A-registers, gdesc[B], C: A from each warp's registers
    desc = ins.operands[2] if a_reg is not None else a
    if not isinstance(desc, Other) or not (dm := _DESC.match(desc.text)):
        raise EmulationError(f"{ins.text!r}: no shared-memory descriptor operand (gdesc[URn])")
    ur = int(dm.group(1))
    trans = dm.group(2)
    rest_at = 3 if a_reg is not None else 2
    c = ins.operands[rest_at] if len(ins.operands) > rest_at else None
    rest = " ".join(o.text for o in ins.operands[rest_at + 1:] if isinstance(o, Other))
    accumulate = isinstance(c, Reg) and not c.zero and "!UPT" not in rest
    if m != 64 or n % 8 or n > 256:
        raise EmulationError(f"{ins.text!r}: shape {m}x{n}x{k} is not a wgmma shape")
    b = iss.b
    lanes = np.arange(32)
    g, q = lanes // 4, lanes % 4
    esize = _INPUTS[kind]
    for w in np.flatnonzero(iss.on.reshape(-1, 32).any(axis=1)):
        sl = slice(w * 32, w * 32 + 32)
        ureg = [int(b.UR[ur + i][w]) for i in range(4)]
        db = ureg[2] | (ureg[3] << 32)
        b_addr = operand_addresses(db, n, k, esize, ".tnspB" in trans)
        B = _elements(b.shared, b_addr, kind, ins.text).T
        rows = 16 * (w % 4)
        if a_reg is None:
            a_addr = operand_addresses(ureg[0] | (ureg[1] << 32), m, k, esize, ".tnspA" in trans)
            A = _elements(b.shared, a_addr, kind, ins.text)[rows:rows + 16]
            a_mats = core_matrices(a_addr[rows:rows + 16], esize, ".tnspA" in trans)
        else:
            A = _register_a(b, a_reg, sl, k, kind)
            a_mats = np.zeros((0, 8), np.int64)
        prod = A @ B  # this warp's 16 rows of D
        _record_reads(iss, w, a_mats, core_matrices(b_addr, esize, ".tnspB" in trans))
        for j in range(n // 8):
            for r in range(4):
                row, col = g + 8 * (r // 2), 8 * j + 2 * q + r % 2
                reg = d.index + 4 * j + r
                val = prod[row, col]
                if accumulate:
                    val = val + b.R[reg][sl].view(np.float32)
                out = np.asarray(b.R[reg]).copy()
                out[sl] = np.asarray(val, np.float32).view(U32)
                mask = np.zeros(b.lanes, bool)
                mask[sl] = iss.on[sl]
                iss.write(reg, False, out, mask)
