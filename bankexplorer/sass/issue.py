"""One issue of one instruction: the threads that run it, their guard, and operand access.

Every opcode's semantics is a function of an :class:`Issue`. Operands are read for all lanes of
the block at once (numpy vectors, one element per thread; uniform registers are spread to their
warp's lanes), computed on, and written back only where the guard holds (``on``). Inactive lanes
compute garbage that is never written, which keeps every opcode free of masks.
"""

from __future__ import annotations

import struct
import sys

import numpy as np

from .decode import Instruction
from .operands import PT, RZ, URZ, Const, FImm, Imm, Mem, Pred, Reg, Special
from .state import LOCAL_WINDOW_HI, SHARED_WINDOW_HI, WARP, Block

U32 = np.uint32
MASK32 = 0xFFFFFFFF


class EmulationError(RuntimeError):
    """The run cannot go on: an unknown opcode or operand, a fault, a deadlock, the budget.
    ``line``: the source line of the instruction it stopped on (None: not at one instruction), a
    field, so the window marks it without reading the text; ``reason`` is the message without it."""

    def __init__(self, reason: str, line: int | None = None):
        super().__init__(f"line {line}: {reason}" if line else reason)
        self.reason = reason
        self.line = line


class Issue:
    """What one issue of ``ins`` sees. ``S``: the threads issuing it; ``on``: those whose guard holds."""

    __slots__ = ("b", "ins", "S", "on", "jumps", "exited", "run", "taint", "_tr", "_tur", "_tp", "_tup", "_tr1",
                 "_tp1", "_memo")

    def __init__(self, run, ins: Instruction, S: np.ndarray, memo: dict | None = None):
        self.run = run
        self._memo = {} if memo is None else memo
        b = self.b = run.block
        self.ins = ins
        self._tr, self._tur, self._tp, self._tup, self._tr1, self._tp1 = b.taint_flags
        self.again(S)

    def again(self, S: np.ndarray) -> "Issue":
        """The next issue of the same instruction in the same run, by threads ``S``: the run keeps
        one Issue per instruction and starts it afresh (making a new one each time was a tenth of
        an ALU instruction's time); nothing keeps an Issue past its issue."""
        self.S = S
        g = self.ins.guard
        self.taint = 0  # data taint of every operand read so far (a bit per pointer parameter)
        self.on = S if g is None or g.index == PT and not g.neg else S & self.pred(g)
        self.jumps: list[tuple[np.ndarray, int]] | tuple = ()  # a list from the first jump on (most issues make none)
        self.exited: np.ndarray | None = None
        return self

    def memo(self, key, make):
        """``make(ins)``: something the instruction alone decides (which operands are which), made
        on its first issue and kept for the others (``memo``: the instruction's, from the run)."""
        v = self._memo.get(key)
        if v is None:
            v = self._memo[key] = make(self.ins)
        return v

    # ------------------------------------------------------------------ control (used by simt)
    def jump(self, mask: np.ndarray, target: int) -> None:
        if not self.jumps:
            self.jumps = []
        self.jumps.append((mask, target))

    def exit(self, mask: np.ndarray) -> None:
        self.exited = mask if self.exited is None else self.exited | mask

    def fail(self, message: str) -> EmulationError:
        return EmulationError(message)

    # ------------------------------------------------------------------ operand reads
    def op(self, i: int):
        try:
            return self.ins.operands[i]
        except IndexError:
            raise EmulationError(f"{self.ins.text!r}: operand {i + 1} is missing") from None

    def pred(self, p: Pred) -> np.ndarray | bool:
        # a taint row that is all zero (``Block.tainted``) is not read: ORing it changes nothing
        if p.index == PT:
            v = True
        elif p.uniform:
            v = self.b.UP[p.index][self.b.warp_of]
            if self._tup[p.index]:
                self.taint = _with(self.taint, self.b.UPT[p.index][self.b.warp_of])
        else:
            v = self.b.P[p.index]
            if self._tp[p.index]:
                self.taint = _with(self.taint, self.b.PTT[p.index], self._tp1[p.index])
        return ~v if (p.neg and not isinstance(v, bool)) else (not v if p.neg else v)

    def p(self, i: int) -> np.ndarray | bool:
        """Predicate operand ``i``'s value as the instruction read it: a copy where :meth:`pred` gives
        the predicate's own row, which a write of the same instruction would change under it
        (``ISETP.EQ.AND P2, P0, R4, RZ, P2`` writes P2 before it combines P2 into P0)."""
        o = self.op(i)
        if not isinstance(o, Pred):
            raise EmulationError(f"{self.ins.text!r}: operand {i + 1} should be a predicate")
        v = self.pred(o)
        return v.copy() if type(v) is np.ndarray and not o.neg and not o.uniform else v

    def raw(self, i: int):
        """Operand ``i``'s 32-bit pattern, no modifier applied (a vector, or a scalar)."""
        o = self.op(i)
        return self.bits(o)

    def bits(self, o):
        if type(o) is Reg:
            i = o.index
            if o.uniform:
                if i == URZ:
                    return _ZERO
                if self._tur[i]:
                    self.taint = _with(self.taint, self.b.URT[i][self.b.warp_of])
                return self.b.uniform_lanes(i)
            if i == RZ:
                return _ZERO
            if self._tr[i]:
                self.taint = _with(self.taint, self.b.RT[i], self._tr1[i])
            return self.b.R[i]
        if type(o) is Imm:
            return U32(o.value & MASK32)
        if isinstance(o, FImm):
            return np.float32(o.value).view(U32)
        if isinstance(o, Const):
            return self.const(o, 4).view(U32) if o.reg is not None else self._const_word(o)
        if isinstance(o, Special):
            return self.special(o.name)
        raise EmulationError(f"{self.ins.text!r}: cannot read {o!r} as a value")

    def u(self, i: int):
        """Unsigned 32-bit value with the integer modifiers (``-R`` two's complement, ``~R``)."""
        try:
            o = self.ins.operands[i]
        except IndexError:
            raise EmulationError(f"{self.ins.text!r}: operand {i + 1} is missing") from None
        v = self.bits(o)
        if type(o) is Reg and (o.abs or o.neg or o.inv):
            if o.abs:
                v = np.abs(np.asarray(v).view(np.int32)).view(U32)
            if o.neg:
                v = (U32(0) - v).astype(U32) if isinstance(v, np.ndarray) else U32((-int(v)) & MASK32)
            if o.inv:
                v = ~v
        return v

    def s(self, i: int):
        v = self.u(i)
        return v.view(np.int32) if isinstance(v, np.ndarray) else np.int32(np.uint32(v).view(np.int32))

    def f(self, i: int):
        """float32 with the float modifiers (``|R|``, ``-R``)."""
        o = self.op(i)
        if isinstance(o, FImm):
            v = np.float32(o.value)
        else:
            v = self.bits(o)
            v = v.view(np.float32) if isinstance(v, np.ndarray) else np.uint32(v).view(np.float32)
        if isinstance(o, Reg | Const):
            if getattr(o, "abs", False):
                v = np.abs(v)
            if getattr(o, "neg", False):
                v = -v
        return v

    def u64(self, i: int):
        o = self.op(i)
        if isinstance(o, Reg):
            if o.zero:
                return np.uint64(0)
            lo = self.bits(o)
            hi = self.bits(_high_half(o))
            v = np.asarray(lo).astype(np.uint64) | (np.asarray(hi).astype(np.uint64) << np.uint64(32))
            if o.neg:
                v = (np.uint64(0) - v).astype(np.uint64)
            return v
        if isinstance(o, Const):
            return self.const(o, 8).view(np.uint64) if o.reg is not None else np.uint64(self.const_scalar(o, 8))
        if isinstance(o, Imm):
            return np.uint64(o.value & 0xFFFFFFFFFFFFFFFF)
        if isinstance(o, FImm):
            return np.float64(o.value).view(np.uint64)
        raise EmulationError(f"{self.ins.text!r}: cannot read {o!r} as a 64-bit value")

    def d(self, i: int):
        """float64 from a register pair, a constant or an immediate, with ``|x|`` and ``-x``."""
        o = self.op(i)
        if isinstance(o, FImm):
            return np.float64(o.value)
        if isinstance(o, Imm):  # a double immediate is printed by its high 32 bits
            return np.uint64((o.value & MASK32) << 32).view(np.float64)
        raw = Reg(o.index, o.uniform) if isinstance(o, Reg) else o
        v = np.asarray(self._u64_plain(raw)).view(np.float64)
        if getattr(o, "abs", False):
            v = np.abs(v)
        if getattr(o, "neg", False):
            v = -v
        return v

    def _u64_plain(self, o):
        if isinstance(o, Reg):
            if o.zero:
                return np.uint64(0)
            lo = self.bits(o)
            hi = self.bits(_high_half(o))
            return np.asarray(lo).astype(np.uint64) | (np.asarray(hi).astype(np.uint64) << np.uint64(32))
        if isinstance(o, Const):
            return self.const(o, 8).view(np.uint64) if o.reg is not None else np.uint64(self.const_scalar(o, 8))
        raise EmulationError(f"{self.ins.text!r}: cannot read {o!r} as a 64-bit value")

    def _const_word(self, o: Const) -> np.uint32:
        """``c[bank][offset]`` as a uint32 (constant banks do not change while a block runs: each
        word is read from its bank once, on its first use, and kept by the block)."""
        key = (o.bank, o.offset)
        v = self.b.const_words.get(key)
        if v is None:
            v = self.b.const_words[key] = U32(self.const_scalar(o, 4))
        return v

    def const_scalar(self, o: Const, size: int) -> int:
        bank = self.b.const.get(o.bank)
        if bank is None or o.offset < 0 or o.offset + size > bank.size:
            raise EmulationError(f"{self.ins.text!r}: constant bank {o.bank} has no bytes at {o.offset:#x}")
        return int.from_bytes(bank[o.offset:o.offset + size].tobytes(), "little")

    def const(self, o: Const, size: int) -> np.ndarray:
        """An indexed constant read (``c[0x3][R2+0x10]``): one value per lane."""
        bank = self.b.const.get(o.bank)
        if bank is None:
            raise EmulationError(f"{self.ins.text!r}: constant bank {o.bank} is empty")
        addr = self.bits(o.reg).astype(np.int64) + o.offset
        addr = np.where(self.on, addr, 0)
        if (addr < 0).any() or (addr + size > bank.size).any():
            raise EmulationError(f"{self.ins.text!r}: indexed constant read past bank {o.bank}'s {bank.size} bytes")
        idx = addr[:, None] + np.arange(size)
        return np.ascontiguousarray(bank[idx]).view(np.uint32 if size == 4 else np.uint64).reshape(-1)

    def special(self, name: str):
        b = self.b
        sr = {"SR_TID.X": lambda: b.tid[0], "SR_TID.Y": lambda: b.tid[1], "SR_TID.Z": lambda: b.tid[2],
              "SR_CTAID.X": lambda: U32(b.index[0]), "SR_CTAID.Y": lambda: U32(b.index[1]),
              "SR_CTAID.Z": lambda: U32(b.index[2]), "SR_LANEID": lambda: b.lane_id,
              "SR_CgaCtaId": lambda: U32(0), "SRZ": lambda: U32(0), "SR_SWINHI": lambda: U32(SHARED_WINDOW_HI),
              "SR_LWINHI": lambda: U32(LOCAL_WINDOW_HI),
              "SR_EQMASK": lambda: (U32(1) << b.lane_id).astype(U32),
              "SR_LTMASK": lambda: ((U32(1) << b.lane_id) - U32(1)).astype(U32),
              "SR_LEMASK": lambda: (((U32(1) << b.lane_id) - U32(1)) | (U32(1) << b.lane_id)).astype(U32),
              "SR_GTMASK": lambda: (~(((U32(1) << b.lane_id) - U32(1)) | (U32(1) << b.lane_id))).astype(U32),
              "SR_GEMASK": lambda: (~((U32(1) << b.lane_id) - U32(1))).astype(U32),
              "SR_NTID.X": lambda: U32(b.dim[0]), "SR_NTID.Y": lambda: U32(b.dim[1]), "SR_NTID.Z": lambda: U32(b.dim[2]),
              "SR_NCTAID.X": lambda: U32(b.grid[0]), "SR_NCTAID.Y": lambda: U32(b.grid[1]),
              "SR_NCTAID.Z": lambda: U32(b.grid[2]),
              "SR_VIRTID": lambda: (b.warp_of.astype(U32) << U32(8)).astype(U32),
              "SR_WARPID": lambda: b.warp_of.astype(U32),
              "SR_CLOCKLO": lambda: self.run.clock(), "SR_CLOCKHI": lambda: U32(0),
              "SR_GLOBALTIMERLO": lambda: self.run.clock(), "SR_GLOBALTIMERHI": lambda: U32(0),
              "SR_CTAID": lambda: U32(0), "SR_SMID": lambda: U32(0), "SR_NSMID": lambda: U32(132),
              "SR_GRIDID": lambda: U32(1),
              # the lowest offset the stack may grow down to (code built with -G checks it on each call)
              "SR_LMEMHIOFF": lambda: U32(0)}
        fn = sr.get(name)
        if fn is None:
            raise EmulationError(f"{self.ins.text!r}: special register {name} is not modelled")
        if name.startswith("SR_CLOCK") or name.startswith("SR_GLOBALTIMER"):
            self.run.note_timing(self.ins, "reads the clock")
        return fn()

    # ------------------------------------------------------------------ writes
    def set(self, i: int, v) -> None:
        o = self.op(i)
        if type(o) is Reg:
            return self.write(o.index, o.uniform, v)
        if isinstance(o, Pred):
            return self.setp(i, v)
        if not isinstance(o, Reg):
            raise EmulationError(f"{self.ins.text!r}: operand {i + 1} is not a register to write")
        self.write(o.index, o.uniform, v)

    def write(self, index: int, uniform: bool, v, mask: np.ndarray | None = None, taint=None) -> None:
        on = self.on if mask is None else mask
        v = as_u32(v)
        t = self.taint if taint is None else taint
        if uniform:
            if index == URZ:
                return
            warps, lanes = self.b.first_lanes(on)
            if warps.size:
                self.b.UR[index][warps] = v if v.ndim == 0 else v[lanes]
                self.b.ur_lanes[index] = None
                if _clean(t, self._tur, index):
                    return
                t = np.asarray(t)
                self.b.URT[index][warps] = t if t.ndim == 0 else t[lanes]
            return
        if index == RZ:
            return
        if index > RZ:
            raise EmulationError(f"{self.ins.text!r}: register R{index} does not exist")
        if self.b.every(on):
            self.b.R[index] = v
        else:
            np.copyto(self.b.R[index], v, where=on)
        if not _clean(t, self._tr, index):
            _write_taint(self.b.RT, self._tr, self._tr1, index, t, on, self.b)

    def setf(self, i: int, v) -> None:
        self.set(i, np.asarray(v, np.float32).view(U32) if np.ndim(v) else np.float32(v).view(U32))

    def set64(self, i: int, v, mask: np.ndarray | None = None, taint=None) -> None:
        o = self.op(i)
        if not isinstance(o, Reg):
            raise EmulationError(f"{self.ins.text!r}: operand {i + 1} is not a register pair to write")
        if o.zero:
            return
        v = np.asarray(v)
        if v.dtype == np.float64:
            v = v.view(np.uint64)
        v = v.astype(np.uint64)
        if v.ndim == 1 and _LITTLE:  # the two words of each value, as views (no arithmetic)
            words = v.view(U32).reshape(-1, 2)
            lo, hi = words[:, 0], words[:, 1]
        else:
            lo, hi = (v & np.uint64(MASK32)).astype(U32), (v >> np.uint64(32)).astype(U32)
        self.write(o.index, o.uniform, lo, mask, taint)
        self.write(o.index + 1, o.uniform, hi, mask, taint)

    def setp(self, i: int, v) -> None:
        o = self.op(i)
        if not isinstance(o, Pred):
            raise EmulationError(f"{self.ins.text!r}: operand {i + 1} is not a predicate to write")
        if o.index == PT:
            return
        if o.uniform:
            warps, lanes = self.b.first_lanes(self.on)
            if warps.size:
                self.b.UP[o.index][warps] = v if np.ndim(v) == 0 else np.asarray(v)[lanes]
                if _clean(self.taint, self._tup, o.index):
                    return
                t = np.asarray(self.taint)
                self.b.UPT[o.index][warps] = t if t.ndim == 0 else t[lanes]
            return
        if self.b.every(self.on):
            self.b.P[o.index] = v
        else:
            np.copyto(self.b.P[o.index], v, where=self.on)
        if not _clean(self.taint, self._tp, o.index):
            _write_taint(self.b.PTT, self._tp, self._tp1, o.index, self.taint, self.on, self.b)

    # ------------------------------------------------------------------ addresses
    def address(self, i: int) -> np.ndarray:
        """A memory operand's address per lane (int64; 64-bit for ``R.64`` / uniform pairs)."""
        o = self.op(i)
        if not isinstance(o, Mem):
            raise EmulationError(f"{self.ins.text!r}: operand {i + 1} is not a memory address")
        base = self.ins.base
        wide = o.wide or ("E" in self.ins.mods and base in ("QSPC", "LD", "ST", "ATOM", "RED", "CCTL"))
        reg = o.reg if o.reg is not None and not o.reg.zero else None
        ureg = o.ureg if o.ureg is not None and not o.ureg.zero else None
        if not wide and not (ureg is not None and o.reg is None and base in _WIDE_UNIFORM):
            # a 32-bit address (shared, local): the sum wraps, as the hardware's adder does, so it
            # is summed in uint32 and widened once
            a = None
            if reg is not None:
                a = self.bits(reg)
                if o.scale != 1:
                    a = a * U32(o.scale)
            if ureg is not None:
                u = self.bits(ureg)
                a = u if a is None else a + u
            if a is None:
                return np.full(self.b.lanes, o.offset & MASK32, np.int64)
            if o.offset:
                a = a + U32(o.offset & MASK32)
            return a.astype(np.int64)
        a = None  # the sum so far (a new int64 array), None: 0
        if reg is not None:
            if wide:
                a = self._u64_plain(reg).astype(np.int64)
            else:
                a = self.bits(reg).astype(np.int64)
                if o.scale != 1:
                    a *= o.scale
        if ureg is not None:
            if o.wide or (o.reg is None and base in _WIDE_UNIFORM):
                u = self._u64_plain(ureg).astype(np.int64)
                wide = True
            else:
                u = self.bits(ureg).astype(np.int64)
            a = u if a is None else a + u
        if a is None:
            a = np.full(self.b.lanes, o.offset, np.int64)
        elif o.offset:
            a += o.offset
        if not wide:  # a 32-bit address (shared, local): the sum wraps, as the hardware's adder does
            a &= MASK32
        return a

    def lanes_on(self) -> np.ndarray:
        """The lanes whose guard holds, as ascending indices (the block's every lane, one array kept
        for the run, when they are all of them: the usual case, told without a search)."""
        on = self.on
        if np.count_nonzero(on) == on.size:
            every = self.b.every_lane
            if every is None or every.size != on.size:
                every = self.b.every_lane = np.arange(on.size)
            return every
        return np.flatnonzero(on)


#: opcodes whose uniform-register-only address is a 64-bit global one (a register pair)
_WIDE_UNIFORM = ("LDG", "STG", "LD", "ST", "ATOM", "ATOMG", "RED")


_ZERO = U32(0)
_LITTLE = sys.byteorder == "little"
_HIGH_HALVES: dict[tuple[int, bool], Reg] = {}


def _high_half(o: Reg) -> Reg:
    """The register after ``o`` (the high word of the pair ``o`` names), made once per register."""
    key = (o.index, o.uniform)
    r = _HIGH_HALVES.get(key)
    if r is None:
        r = _HIGH_HALVES[key] = Reg(o.index + 1, o.uniform)
    return r
_U32 = np.dtype(U32)


def _with(taint, row: np.ndarray, one: int | None = None):
    """The taint read so far with a register's ORed in: its ``one`` for all lanes where it has one
    (:attr:`.state.Block.taint_one`; numbers stay numbers), else its row (a copy of the row when it
    is the first: ORing a Python 0 into an array costs three times as much)."""
    if one is not None:
        return one if type(taint) is int and taint == 0 else taint | one
    return row.copy() if type(taint) is int and taint == 0 else taint | row


def _clean(taint, tainted: list[bool], index: int) -> bool:
    """Writing ``taint`` leaves register ``index``'s taint row all zero, as it is (``tainted``: the
    block's flags, :attr:`.state.Block.tainted`), so there is nothing to write; otherwise the row is
    flagged, to be written and read from now on."""
    if not tainted[index]:
        if not (np.count_nonzero(taint) if isinstance(taint, np.ndarray) else taint):
            return True
        tainted[index] = True
    return False


def _write_taint(rows: np.ndarray, tainted: list[bool], ones: list[int | None], index: int, taint, on: np.ndarray,
                 b) -> None:
    """Write ``taint`` into the flagged register (predicate) ``index`` where ``on``. One taint for
    every thread is kept as a number (``ones``: :attr:`.state.Block.taint_one`), and when it is none
    the flag is cleared, so that reads stop ORing it (a register reused for an address after it held
    a loaded value); otherwise the row holds each lane's, filled from the number first where a
    write covers only some lanes."""
    one = type(taint) is not np.ndarray or taint.ndim == 0
    if b.every(on):
        if one:
            v = ones[index] = int(taint)
            tainted[index] = v != 0
            return
        rows[index] = taint
        ones[index] = None
        if not np.count_nonzero(taint):
            tainted[index] = False
        return
    if one and not int(taint) and np.count_nonzero(on) == b.n:
        ones[index] = 0  # every thread (the lanes past a partial last warp hold no taint)
        tainted[index] = False
        return
    if one and ones[index] == int(taint):
        return  # the lanes written get the taint every lane has
    if ones[index] is not None:
        rows[index].fill(ones[index])
        ones[index] = None
    np.copyto(rows[index], taint, where=on)


def as_u32(v) -> np.ndarray:
    """Any integer or float32 value(s) as uint32 bit patterns (python ints wrap modulo 2**32)."""
    if type(v) is np.ndarray and v.dtype is _U32:
        return v
    if isinstance(v, int | bool):
        return np.asarray(int(v) & MASK32, U32)
    v = np.asarray(v)
    if v.dtype == U32:
        return v
    if v.dtype.itemsize == 4 and v.dtype.kind in "fi":
        return v.view(U32)
    if v.dtype == bool:
        return v.astype(U32)
    return v.astype(np.int64).astype(U32) if v.dtype.kind in "iu" else v.astype(np.float32).view(U32)


def f32_bits(x: float) -> int:
    return struct.unpack("<I", struct.pack("<f", x))[0]


__all__ = ["Issue", "EmulationError", "WARP", "f32_bits"]
