"""Memory instructions: shared (LDS, STS, ATOMS, LDSM, STSM), global (LDG, STG, ATOM, ATOMG, RED),
generic (LD, ST, QSPC), local (LDL, STL) and the asynchronous copy LDGSTS.

Every shared-memory access (and a generic one that lands in shared memory) is handed to the run's
recorder with each lane's byte address, where the wavefront engine costs it. Atomics apply lane by
lane in thread order, each lane seeing the ones before it, as the hardware serializes lanes that
share an address.
"""

from __future__ import annotations

import numpy as np

from ...model import hardware as hwr
from .. import compiled
from ..issue import EmulationError, Issue
from ..operands import RZ, Mem, Pred, Reg
from ..state import LOCAL_WINDOW, SHARED_WINDOW, WRITERS, MemoryFault
from . import op

U32 = np.uint32
TIMING = U32(1 << 31)  #: taint bit: the value depends on the order in which warps reached memory
_WIDTHS = {"U8": 1, "S8": 1, "U16": 2, "S16": 2, "32": 4, "64": 8, "128": 16}


def width_of(mods, default: int = 4) -> int:
    for m in mods:
        if m in _WIDTHS:
            return _WIDTHS[m]
    return default


def _signed(mods) -> bool:
    return "S8" in mods or "S16" in mods


def _mem_index(ins) -> int:
    for i, o in enumerate(ins.operands):
        if isinstance(o, Mem):
            return i
    raise EmulationError(f"{ins.text!r}: no memory operand")


# ---------------------------------------------------------------------- bytes <-> registers
def _to_regs(raw: np.ndarray, width: int, signed: bool) -> list[np.ndarray]:
    """(k, width) bytes -> uint32 register values (one array per register)."""
    if width >= 4:
        words = np.ascontiguousarray(raw).view(U32).reshape(raw.shape[0], width // 4)
        return [words[:, j] for j in range(width // 4)]
    v = np.ascontiguousarray(raw).view(np.uint8 if width == 1 else np.uint16).reshape(-1)
    if signed:
        v = v.view(np.int8 if width == 1 else np.int16).astype(np.int32).view(U32)
    return [v.astype(U32)]


def _from_regs(iss: Issue, src: int, width: int, idx: np.ndarray) -> np.ndarray:
    """The bytes a store writes for lanes ``idx``: (k, width) uint8, from registers src, src+1..."""
    o = iss.ins.operands[src]
    n = max(1, width // 4)
    if isinstance(o, Reg):
        regs = []
        for j in range(n):
            v = iss.bits(o if j == 0 or o.zero else Reg(o.index + j, o.uniform))
            regs.append(_of(v, idx) if np.ndim(v) else np.full(idx.size, v, U32))  # (every lane: the row itself)
        if n == 1:
            return np.asarray(regs[0], U32).reshape(-1, 1).view(np.uint8)[:, :width]
    else:
        regs = [np.broadcast_to(np.asarray(iss.u(src), U32), (iss.b.lanes,))[idx]] + \
               [np.zeros(idx.size, U32)] * (n - 1)
    words = np.stack([np.asarray(r, U32) for r in regs], axis=1)
    raw = words.view(np.uint8).reshape(idx.size, n * 4)
    return raw[:, :width]


def _write_regs(iss: Issue, dst: int, regs: list[np.ndarray], idx: np.ndarray, taint) -> None:
    """Registers dst, dst+1... of lanes ``idx`` (ascending, as ``np.flatnonzero`` gives them)."""
    o = iss.ins.operands[dst]
    if not isinstance(o, Reg) or o.zero:
        return
    lanes = iss.b.lanes
    if idx.size == lanes:  # every lane: the values are in lane order already
        mask = iss.on if iss.on.size == lanes else np.ones(lanes, bool)
        for j, r in enumerate(regs):
            iss.write(o.index + j, o.uniform, r, mask, taint)
        return
    mask = np.zeros(lanes, bool)
    mask[idx] = True
    for j, r in enumerate(regs):
        full = np.zeros(lanes, U32)
        full[idx] = r
        iss.write(o.index + j, o.uniform, full, mask, taint)


def _check(addr: np.ndarray, width: int, size: int, space: str, iss: Issue) -> None:
    if addr.size == 0:
        return
    fast = compiled.shared
    if fast is not None and addr.dtype == np.int64 and not width & (width - 1):
        try:
            if fast.within(addr, width, size):
                return
        except (ValueError, BufferError):
            pass
    # the usual case in two reductions (a negative address sets the OR's sign bit, a misaligned one
    # its low bits); where they fail, the first bad lane is named
    ored = int(np.bitwise_or.reduce(addr))
    if ored < 0 or int(addr.max()) + width > size:
        bad = (addr < 0) | (addr + width > size)
        a = int(addr[np.flatnonzero(bad)[0]])
        # (the emulator names the instruction and its line around this message)
        raise MemoryFault(f"{space} address {a:#x} is outside the {size:,} bytes of {space} memory"
                          + (block_hint(iss.b.dim) if space == "shared" else ""))
    if width > 1 and (ored & (width - 1) if width & (width - 1) == 0 else (addr % width).any()):
        a = int(addr[np.flatnonzero(addr % width)[0]])
        raise MemoryFault(f"{space} address {a:#x} is not aligned to {width} bytes")


def block_hint(dim) -> str:
    """Why a kernel's shared index runs past its arrays, most often: it was written for another
    block size than the one executed (its thread index reaches rows the arrays do not have)."""
    return (f" (the block executed is {'x'.join(map(str, dim))}: a kernel written for another block size indexes "
            f"past its arrays; give the block with a '// block: x, y' comment, --block or block=)")


# ---------------------------------------------------------------------- spaces
class _Space:
    """A memory the instructions read and write by address; ``lanes`` are the threads doing it."""

    taint = None

    def read(self, addr: np.ndarray, width: int, lanes: np.ndarray) -> tuple[np.ndarray, np.ndarray | int]:
        raise NotImplementedError

    def write(self, addr: np.ndarray, raw: np.ndarray, taint, lanes: np.ndarray, atomic_op: int = 0) -> None:
        """``atomic_op``: an order-free atomic's code (:data:`ORDER_FREE_ATOMICS`), 0 for any other write."""
        raise NotImplementedError


class _SharedSpace(_Space):
    """Shared memory, with each byte's data taint and the warp that last wrote it (and when, in
    barriers completed): a value another warp wrote since the last barrier depends on timing.

    The bytes an access touches are indexed byte-major, ``(width, lanes)`` (:func:`_bytes_of`): numpy
    reduces over the short byte axis far faster that way than along rows of 4 or 8 bytes, and these
    run on every shared-memory issue.

    Stamps and atomic codes by word: while every write since the last barrier covered whole aligned
    4-byte words (nearly always; ``Block.shared_subword`` says when not), every byte written since
    then has the stamp and atomic code of its word's first byte, and bytes written before have
    stamps at or below :attr:`since`, which all mean the same. Then the race checks read and write
    one stamp a word (a quarter of the elements), and only those first bytes are kept up to date;
    the first write of a narrower value after a barrier copies them to the other bytes
    (:meth:`_by_bytes`) and the checks go byte by byte until the next barrier."""

    def __init__(self, b, epoch: int):
        self.b, self.data, self.taint = b, b.shared, b.shared_taint
        self.stamp, self.atomic = b.shared_stamp, b.shared_atomic
        self.epoch = epoch
        #: a byte whose stamp is above this was written since the last barrier (``Block.shared_stamp``)
        self.since = self.epoch * WRITERS
        #: the compiled module's view of the block for LDS and STS issues (:func:`_fused`), and the
        #: module it is of (None: none made yet)
        self.view = self.view_of = None

    def make_view(self, fast):
        """``fast``'s view of the block's registers and shared memory (None where the module has none
        or cannot take these arrays: then the issues take the general path)."""
        b = self.b
        self.view_of = fast
        try:
            self.view = fast.view(b.R, b.RT, b.tainted["R"], b.taint_one["R"], b.UR, b.URT, b.tainted["UR"], b.n,
                                  self.data, self.taint, b.shared_taint_words, self.stamp, self.atomic)
        except (AttributeError, ValueError, TypeError, BufferError):
            self.view = None
        return self.view

    def _mine(self, lanes) -> np.ndarray:
        """The stamp a write of ``lanes`` (an index array, or one lane) leaves now, per lane (the
        last answer is kept: the same array of every lane comes issue after issue)."""
        b = self.b
        last = b.last_mine
        if last is not None and last[0] is lanes and last[1] == self.epoch:
            return last[2]
        w = b.warp_of
        w = w if isinstance(lanes, np.ndarray) and lanes.size == w.size else w[lanes]
        mine = w + (self.since + 1)
        if isinstance(lanes, np.ndarray):
            b.last_mine = (lanes, self.epoch, mine)
        return mine

    def _by_bytes(self) -> None:
        """A write narrower than a word comes: from now until the next barrier, stamps and atomic
        codes byte by byte (each word's first byte's copied to the others)."""
        for a in (self.stamp, self.atomic):
            if a.size >= 4:
                w = a[:a.size & ~3].reshape(-1, 4)
                w[:, 1:] = w[:, :1]
        self.b.shared_subword = self.epoch

    def _checked(self, addr, width, idx, word=None):
        """(stamps, atomic codes, where): of each word an access touches (``(lanes,)``, or ``(words,
        lanes)`` for wider accesses) while the checks go by words, else of each byte (``idx``).
        ``word``: ``addr >> 2`` where the caller has it. A narrower load goes by words too (its
        bytes lie in one word, whose first byte holds their stamp); a narrower store has switched
        the checks to bytes before it comes here (:meth:`write`)."""
        if self.b.shared_subword == self.epoch:
            return self.stamp, self.atomic, idx if idx is not None else _bytes_of(addr, width)
        w = addr >> 2 if word is None else word
        if width > 4:
            w = _word_rows(width >> 2) + w
        return self.stamp[::4], self.atomic[::4], w

    def _taint_of(self, addr, width, word):
        """The OR of the taint of each lane's bytes: by words where the access is of whole words
        (``Block.shared_taint_words``: one gather), else byte by byte."""
        tw = self.b.shared_taint_words
        if tw is not None and not width & 3:
            w = addr >> 2 if word is None else word
            return tw[w] if width == 4 else np.bitwise_or.reduce(tw[_word_rows(width >> 2) + w], axis=0)
        return np.bitwise_or.reduce(self.taint[_bytes_of(addr, width)], axis=0)

    def _set_taint(self, addr, width, idx, new) -> None:
        """Bytes ``idx`` get taint ``new`` (per byte, per lane or one), and their words the OR."""
        self.taint[idx] = new
        tw = self.b.shared_taint_words
        if tw is None:
            return
        w = addr >> 2
        if width & 3:  # narrower than a word: its words' ORs from their bytes again
            tw[w] = np.bitwise_or.reduce(self.taint[:tw.size * 4].reshape(-1, 4)[w], axis=1)
            return
        n = width >> 2
        if n > 1:
            w = _word_rows(n) + w
        if np.ndim(new) == 2 and new.shape[0] == width:  # per byte: the OR of each word's four
            new = np.bitwise_or.reduce(new.reshape(n, 4, -1), axis=1)
            new = new[0] if n == 1 else new
        tw[w] = new

    def read(self, addr, width, lanes):
        """(bytes, taint) of a load of ``width`` bytes at ``addr`` by ``lanes``: the taint of the bytes,
        with the timing bit where another warp wrote them since the last barrier."""
        b = self.b
        fast = compiled.shared
        if fast is not None and addr.dtype == np.int64:
            check = b.shared_written == self.epoch
            out = np.empty((addr.size, width), np.uint8)
            try:
                t = fast.read(self.data, self.taint, b.shared_taint_words, self.stamp, addr, width,
                              b.shared_tainted, check, b.shared_subword == self.epoch, self.since,
                              self._mine(lanes) if check else None, out)
            except (ValueError, BufferError):
                pass  # (an address past the memory, an array not laid out as it expects): numpy's answer
            else:
                return out, U32(t) if type(t) is int else np.frombuffer(t, U32)
        return self._read_numpy(addr, width, lanes)

    def _read_numpy(self, addr, width, lanes):
        """:meth:`read` in numpy: the rule the compiled one (``sass/_shared.c``) follows."""
        b = self.b
        idx = None
        words = _words(self.data, width)
        wi = None
        if words is not None:  # aligned (every shared access is checked so): a word per lane, no byte gather
            wi = addr >> _SHIFT[width]
            data = words[wi].view(np.uint8).reshape(-1, width)
        else:
            idx = _bytes_of(addr, width)
            data = np.ascontiguousarray(self.data[idx].T)
        t = self._taint_of(addr, width, wi if width == 4 else None) if b.shared_tainted else U32(0)
        if b.shared_written != self.epoch:  # nothing was written since the last barrier
            return data, t
        stamp, _atomic, at = self._checked(addr, width, idx, wi if width == 4 else None)
        st = stamp[at]
        # written since the last barrier by another warp
        raced = (st > self.since) & (st != self._mine(lanes))
        if raced.ndim > 1:
            raced = raced.any(axis=0)
        if not np.count_nonzero(raced):
            return data, t
        return data, np.where(raced, t | TIMING, t)

    def write(self, addr, raw, taint, lanes, atomic_op=0):
        """Store ``raw`` ((lanes, width) bytes) at ``addr`` with data taint ``taint`` (per lane or one),
        the bytes' stamps and atomic codes, and the timing bit where warps' order decides what stays."""
        b = self.b
        width = raw.shape[1]
        if width & 3 and b.shared_subword != self.epoch:
            self._by_bytes()
        fast = compiled.shared
        if fast is not None and addr.dtype == np.int64:
            mine = self._mine(lanes)
            if np.ndim(mine) == 0:
                mine = np.full(addr.size, mine, np.int64)
            t = taint if np.ndim(taint) else int(taint)
            if type(t) is np.ndarray and t.dtype != U32:
                t = t.astype(U32)
            try:
                set_taint = fast.write(self.data, self.taint, b.shared_taint_words, self.stamp, self.atomic,
                                        addr, raw if raw.flags.c_contiguous else np.ascontiguousarray(raw), t,
                                        mine, self.since, b.shared_subword == self.epoch, atomic_op,
                                        b.shared_atomics, b.shared_tainted)
            except (ValueError, BufferError):
                pass  # numpy's answer (it wrote nothing)
            else:
                if atomic_op:
                    b.shared_atomics = True
                b.shared_written = self.epoch
                if set_taint:
                    b.shared_tainted = True
                return
        self._write_numpy(addr, raw, taint, lanes, atomic_op)

    def _write_numpy(self, addr, raw, taint, lanes, atomic_op=0):
        """:meth:`write` in numpy (after the switch to bytes): the rule the compiled one follows."""
        b = self.b
        width = raw.shape[1]
        words = _words(self.data, width)
        wi = addr >> _SHIFT[width] if words is not None else None
        raw_t = raw.T
        mine = self._mine(lanes)
        idx = _bytes_of(addr, width)
        # another warp wrote here since the last barrier: which store lands last is up to timing,
        # unless both writes are the same order-free atomic (integer add, min, max, and, or, xor):
        # then what the word holds once all of them are done is the same in any order; likewise a
        # plain store of the byte the other warp left there (flags set to 1 by several warps)
        stamp, atomic, at = self._checked(addr, width, idx, wi if width == 4 else None)
        st = stamp[at]
        raced = (st > self.since) & (st != mine)
        t = np.asarray(taint, U32) if np.ndim(taint) else U32(taint)  # per lane (broadcast over the bytes) or one
        extra = None  # the timing bit each byte gets besides t (None: none)
        if atomic_op:
            raced = _per_byte(raced & (atomic[at] != atomic_op), width)
            t = t | (self.taint[idx] & TIMING)  # combined with the old value: a raced old value stays raced
            if np.count_nonzero(raced):
                extra = np.where(raced, TIMING, U32(0))
        elif np.count_nonzero(raced):
            same = self.data[idx] == raw_t
            if b.shared_atomics:  # (else every atomic code is 0)
                same &= _per_byte(atomic[at] == 0, width)
            # a raced byte that gets the value it holds again keeps its timing bit (a byte already
            # raced stays raced); any other raced byte is raced now
            timed = _per_byte(raced, width) & (~same | (self.taint[idx] >= TIMING))  # (TIMING: the top bit)
            extra = np.left_shift(timed, 31, dtype=U32)
        if words is not None:  # aligned: a word per lane (repeated words: the last lane's, as bytes would)
            words[wi] = np.ascontiguousarray(raw).view(words.dtype).reshape(-1)
        else:
            self.data[idx] = raw_t
        stamp[at] = mine
        if atomic_op or b.shared_atomics:
            atomic[at] = atomic_op
            b.shared_atomics = True
        b.shared_written = self.epoch
        if not atomic_op and mine.size > 1 and mine[0] != mine[-1] and np.count_nonzero(stamp[at] != mine):
            # warps of this store wrote the same word: with different values, timing decides
            within = _raced_within(idx, raw_t, mine)
            extra = np.where(within, TIMING, U32(0) if extra is None else extra)
        if b.shared_tainted or np.ndim(t) or t or extra is not None and np.count_nonzero(extra):
            self._set_taint(addr, width, idx, t if extra is None else t | extra)
            b.shared_tainted = True


_BYTE_COLUMNS: dict[int, np.ndarray] = {}
_WORD_ROWS: dict[int, np.ndarray] = {}
_WORD_TYPES = {4: np.uint32, 8: np.uint64}
_SHIFT = {4: 2, 8: 3}


def _word_rows(n: int) -> np.ndarray:
    """``(n, 1)``: the word offsets 0..n-1 of an ``n``-word access, to add to its first word's index."""
    rows = _WORD_ROWS.get(n)
    if rows is None:
        rows = _WORD_ROWS[n] = np.arange(n, dtype=np.int64)[:, None]
    return rows


def _per_byte(by_word: np.ndarray, width: int) -> np.ndarray:
    """A per-word check (``(lanes,)`` or ``(words, lanes)``, or already per byte) as one that
    broadcasts to ``(width, lanes)`` (a ``(1, lanes)`` view for one word a lane)."""
    if by_word.ndim == 1:
        return by_word[None]
    if by_word.shape[0] == width:
        return by_word
    return np.repeat(by_word, 4, axis=0)


def _words(data: np.ndarray, width: int) -> np.ndarray | None:
    """Shared memory as ``width``-byte words (4 or 8), where it divides into them; else None."""
    dt = _WORD_TYPES.get(width)
    return data.view(dt) if dt is not None and data.size % width == 0 else None


def _bytes_of(addr: np.ndarray, width: int) -> np.ndarray:
    """The byte addresses of ``width``-byte accesses at ``addr``: (width, lanes), byte-major."""
    cols = _BYTE_COLUMNS.get(width)
    if cols is None:
        cols = _BYTE_COLUMNS[width] = np.arange(width, dtype=np.int64)[:, None]
    return cols + addr


def _raced_within(idx: np.ndarray, raw: np.ndarray, warp: np.ndarray) -> np.ndarray:
    """Bytes that warps issuing one store together write with different values: the GPU runs
    those warps in some order, so which value lands is up to timing (one warp's own lanes land in
    a fixed order). ``idx``, ``raw``: (width, lanes); ``warp``: each lane's (any number that tells
    warps apart). Called where two warps wrote one word (the usual case, no word written by two
    warps, is told by the stamps left). (width, lanes) bool."""
    a, v, w = idx.ravel(), raw.ravel(), np.broadcast_to(warp, idx.shape).ravel()
    order = np.argsort(a, kind="stable")
    sa, sv, sw = a[order], v[order].astype(np.int64), w[order]
    start = np.flatnonzero(np.r_[True, sa[1:] != sa[:-1]])
    mixed = (np.minimum.reduceat(sw, start) != np.maximum.reduceat(sw, start)) & \
            (np.minimum.reduceat(sv, start) != np.maximum.reduceat(sv, start))
    out = np.zeros(a.size, bool)
    out[order] = np.repeat(mixed, np.diff(np.r_[start, a.size]))
    return out.reshape(idx.shape)


def _shared(iss: Issue) -> _Space:
    """The block's shared memory as it stands between two barriers (one object per epoch)."""
    b, epoch = iss.b, iss.run.sched.bars.epoch
    space = b.shared_space
    if space is None or space.epoch != epoch:
        old, space = space, _SharedSpace(b, epoch)
        if old is not None:  # the compiled view holds the same arrays (_fused)
            space.view, space.view_of = old.view, old.view_of
        b.shared_space = space
    return space


def _of(v: np.ndarray, idx: np.ndarray) -> np.ndarray:
    """``v[idx]`` for the lanes ``idx`` (ascending): ``v`` itself when they are every lane (the usual
    case, no copy: the callers only read it)."""
    return v if idx.size == v.size else v[idx]


def _split_generic(iss: Issue, addr: np.ndarray, idx: np.ndarray):
    """Generic addresses of lanes ``idx`` -> (shared lanes, local lanes, global lanes) with offsets."""
    a = addr[idx]
    sh = (a >= SHARED_WINDOW) & (a < SHARED_WINDOW + (1 << 32))
    lo = (a >= LOCAL_WINDOW) & (a < LOCAL_WINDOW + (1 << 32))
    return sh, lo, ~(sh | lo)


# ---------------------------------------------------------------------- shared loads and stores
class _Form:
    """What an LDS or STS instruction alone decides (its width, where its address and data are),
    worked out on its first issue (:meth:`.Issue.memo`), not on every one; and, where the compiled
    call takes its issues (:func:`_fused`: ``fused``), the same as the call's ``args``: the address
    as register indices and an offset, the data registers, and the recorder's kind code."""

    __slots__ = ("width", "mem", "signed", "fused", "args", "code", "index")

    def __init__(self, ins):
        self.width, self.mem, self.signed = width_of(ins.mods), _mem_index(ins), _signed(ins.mods)
        self.index: int | None = None  # the instruction's in the program (its first fused issue looks it up)
        self.args = self._args(ins)
        self.fused = self.args is not None
        self.code = hwr.kind_code("store" if ins.base == "STS" else "load", self.width, "shared", "add")

    def _args(self, ins) -> tuple | None:
        """(address register, its scale, uniform register, offset, width, sign-extended, first data
        register), -1 for none (or RZ), where the compiled call does what :func:`lds` and :func:`sts`
        do for every issue of ``ins``: a 32-bit address of a register (not a pair), a uniform register
        and an offset (:meth:`.Issue.address`), data in registers R (not uniform ones, not an
        immediate, none past RZ), and the instruction on its own source line (not a header
        function's, whose rows take the caller's line). None where it does not."""
        o = ins.operands[self.mem]
        store = ins.base == "STS"
        d = self.mem + 1 if store else 0
        data = ins.operands[d] if d < len(ins.operands) else None
        if isinstance(data, Reg):
            if data.uniform or data.index + max(1, self.width // 4) - 1 > RZ:
                return None
        elif store:
            return None
        reg = o.reg if o.reg is not None and not o.reg.zero else None
        ureg = o.ureg if o.ureg is not None and not o.ureg.zero else None
        if (self.width not in (1, 2, 4, 8, 16) or o.wide or not ins.own_line or not 0 <= o.scale <= 0xFFFFFFFF
                or reg is not None and reg.uniform or ureg is not None and not ureg.uniform):
            return None
        return (-1 if reg is None else reg.index, o.scale, -1 if ureg is None else ureg.index, o.offset & 0xFFFFFFFF,
                self.width, int(self.signed), data.index if isinstance(data, Reg) and not data.zero else -1)


def _fused(iss: Issue, f: _Form, store: bool) -> bool:
    """An LDS (STS) issue in one compiled call (``sass/_shared.c``: ``View.load``, ``View.store``):
    what :func:`lds` (:func:`sts`) does, to the same registers, taint, shared memory, stamps and
    recorded rows, the registers' taint read where :meth:`.Issue.bits` reads it (``iss.taint`` keeps
    the guard's: nothing reads it after the issue). Python keeps the epoch's flags and the rows'
    per-issue columns. False where it does not take the issue (not built, no lane on, a fault, no room
    in the rows' chunk), with nothing changed: the general path then runs, and says what is wrong."""
    fast = compiled.shared
    if fast is None:
        return False
    b = iss.b
    space = _shared(iss)
    epoch = space.epoch
    view = space.view if space.view_of is fast else space.make_view(fast)
    if view is None:
        return False
    rows = iss.run.record.rows
    c, k = rows.chunks[-1]
    if view.chunk is not c:
        view.rows(c, c["issue"], c["warp"], c["addr"], c["active"])
    try:
        if store:
            got = view.store(iss.on, f.args, iss.taint, b.shared_atomics, b.shared_subword == epoch, space.since,
                             b.shared_tainted, rows.issued, k)
        else:
            got = view.load(iss.on, f.args, iss.taint, b.shared_written == epoch, b.shared_subword == epoch,
                            space.since, b.shared_tainted, rows.issued, k)
    except (ValueError, TypeError, OverflowError, BufferError):
        return False  # (arrays or a taint not as it takes them)
    if got is None:
        return False
    if f.index is None:
        f.index = iss.run.program.index_of[iss.ins.pc]
    rows.written(got[0], f.index, f.code, f.width, got[1], iss.ins.line)
    if store:
        if f.width & 3 and b.shared_subword != epoch:  # (the call switched the stamps to bytes)
            b.shared_subword = epoch
        b.shared_written = epoch
        if got[2]:
            b.shared_tainted = True
    return True


@op("LDS")
def lds(iss: Issue) -> None:
    f = iss.memo(_Form, _Form)
    if f.fused and _fused(iss, f, False):
        return
    addr = iss.address(f.mem)
    idx = iss.lanes_on()
    _check(_of(addr, idx), f.width, iss.b.shared.size, "shared", iss)
    iss.run.record.shared_access(iss, "load", f.width, addr, iss.on)
    _load(iss, _shared(iss), addr, idx, f.width)


@op("STS")
def sts(iss: Issue) -> None:
    f = iss.memo(_Form, _Form)
    if f.fused and _fused(iss, f, True):
        return
    addr = iss.address(f.mem)
    idx = iss.lanes_on()
    _check(_of(addr, idx), f.width, iss.b.shared.size, "shared", iss)
    iss.run.record.shared_access(iss, "store", f.width, addr, iss.on)
    _store(iss, _shared(iss), addr, idx, f.width, f.mem + 1)


# ---------------------------------------------------------------------- ldmatrix / stmatrix
def _matrix_count(mods) -> int:
    return int(mods[-1]) if mods and mods[-1] in ("1", "2", "4") else 1


@op("LDSM")
def ldsm(iss: Issue) -> None:
    """``ldmatrix``: lanes 8m..8m+7 give the 16-byte rows of 8x8 matrix m; thread t receives row
    t/4, elements 2(t%4) and 2(t%4)+1 (``.MT88``: the transpose) of each matrix in register d+m."""
    b = iss.b
    n = _matrix_count(iss.ins.mods)
    trans = "MT88" in iss.ins.mods
    addr = iss.address(1)
    iss.run.record.shared_access(iss, "ldmatrix", 16, addr, iss.on, matrices=n)
    warps = np.flatnonzero(iss.on.reshape(-1, 32).any(axis=1))
    dst = iss.ins.operands[0]
    for w in warps:
        lanes = slice(w * 32, w * 32 + 32)
        rows = addr[lanes]
        for mtx in range(n):
            ra = rows[8 * mtx:8 * mtx + 8]
            _check(ra, 16, b.shared.size, "shared", iss)
            tile = b.shared[ra[:, None] + np.arange(16)].view(np.uint16).reshape(8, 8)  # [row][col]
            tt = b.shared_taint[ra[:, None] + np.arange(16)].reshape(8, 16)
            t = np.arange(32)
            if trans:
                lo, hi = tile[2 * (t % 4), t // 4], tile[2 * (t % 4) + 1, t // 4]
            else:
                lo, hi = tile[t // 4, 2 * (t % 4)], tile[t // 4, 2 * (t % 4) + 1]
            val = lo.astype(U32) | (hi.astype(U32) << U32(16))
            mask = np.zeros(b.lanes, bool)
            mask[lanes] = iss.on[lanes]
            full = np.zeros(b.lanes, U32)
            full[lanes] = val
            taint = np.zeros(b.lanes, U32)
            taint[lanes] = np.bitwise_or.reduce(tt.reshape(-1))
            iss.write(dst.index + mtx, dst.uniform, full, mask, taint)


@op("STSM")
def stsm(iss: Issue) -> None:
    b = iss.b
    n = _matrix_count(iss.ins.mods)
    trans = "MT88" in iss.ins.mods
    addr = iss.address(0)
    iss.run.record.shared_access(iss, "stmatrix", 16, addr, iss.on, matrices=n)
    src = iss.ins.operands[1]
    warps = np.flatnonzero(iss.on.reshape(-1, 32).any(axis=1))
    for w in warps:
        lanes = slice(w * 32, w * 32 + 32)
        rows = addr[lanes]
        for mtx in range(n):
            ra = rows[8 * mtx:8 * mtx + 8]
            _check(ra, 16, b.shared.size, "shared", iss)
            val = np.asarray(iss.bits(Reg(src.index + mtx, src.uniform)))[lanes].astype(U32)
            tile = np.zeros((8, 8), np.uint16)
            t = np.arange(32)
            lo, hi = (val & 0xFFFF).astype(np.uint16), (val >> 16).astype(np.uint16)
            if trans:
                tile[2 * (t % 4), t // 4], tile[2 * (t % 4) + 1, t // 4] = lo, hi
            else:
                tile[t // 4, 2 * (t % 4)], tile[t // 4, 2 * (t % 4) + 1] = lo, hi
            _shared(iss).write(ra, tile.view(np.uint8).reshape(8, 16), 0, w * 32 + 8 * mtx + np.arange(8))


# ---------------------------------------------------------------------- atomics
def _combine(opname: str, old: np.ndarray, val: np.ndarray, dtype: str, extra=None) -> np.ndarray:
    """The new value of an atomic, elementwise (old and val as uint64 bit patterns)."""
    bits = 64 if dtype in ("64", "U64", "S64", "F64") else 32
    mask = np.uint64((1 << bits) - 1)
    if opname in ("ADD",) and dtype in ("F32", "F32.FTZ.RN", "F16x2", "BF16x2", "F64"):
        if dtype == "F64":
            return (old.view(np.float64) + val.view(np.float64)).view(np.uint64)
        if dtype in ("F16x2", "BF16x2"):
            o16 = (old & np.uint64(0xFFFFFFFF)).astype(U32).view(np.float16).reshape(-1)
            v16 = (val & np.uint64(0xFFFFFFFF)).astype(U32).view(np.float16).reshape(-1)
            return (o16 + v16).view(U32).astype(np.uint64)
        return (old.astype(U32).view(np.float32) + val.astype(U32).view(np.float32)).view(U32).astype(np.uint64)
    if opname == "ADD":
        return (old + val) & mask
    if opname in ("MIN", "MAX"):
        if dtype.startswith("S"):
            so = old.astype(np.int64) if bits == 64 else old.astype(U32).view(np.int32).astype(np.int64)
            sv = val.astype(np.int64) if bits == 64 else val.astype(U32).view(np.int32).astype(np.int64)
            r = np.minimum(so, sv) if opname == "MIN" else np.maximum(so, sv)
            return r.astype(np.uint64) & mask
        return np.minimum(old, val) if opname == "MIN" else np.maximum(old, val)
    if opname == "AND":
        return old & val
    if opname == "OR":
        return old | val
    if opname == "XOR":
        return old ^ val
    if opname == "EXCH":
        return val
    if opname == "INC":
        return np.where(old >= val, np.uint64(0), (old + np.uint64(1)) & mask)
    if opname == "DEC":
        return np.where((old == 0) | (old > val), val, (old - np.uint64(1)) & mask)
    raise EmulationError(f"atomic operation {opname} is not modelled")


_ATOMIC_OPS = ("ADD", "MIN", "MAX", "AND", "OR", "XOR", "EXCH", "INC", "DEC", "CAS", "CAST", "POPC")


def _atomic_parts(mods):
    opname = next((m for m in mods if m in _ATOMIC_OPS), None)
    if opname is None:
        raise EmulationError(f"atomic operation {'.'.join(mods)} is not modelled")
    if "F16x2" in mods:
        dtype = "F16x2"
    elif "BF16x2" in mods:
        dtype = "BF16x2"
    elif "F32" in mods:
        dtype = "F32"
    elif "F64" in mods:
        dtype = "F64"
    elif "64" in mods or "U64" in mods or "S64" in mods:
        dtype = "S64" if "S64" in mods else "64"
    elif "S32" in mods:
        dtype = "S32"
    else:
        dtype = "U32"
    return opname, dtype


def _rounds(keys: np.ndarray) -> np.ndarray:
    """For lanes in order, the occurrence number of each key (0 for the first lane on an address)."""
    order = np.argsort(keys, kind="stable")
    sk = keys[order]
    start = np.r_[0, np.flatnonzero(sk[1:] != sk[:-1]) + 1]
    counts = np.diff(np.r_[start, sk.size])
    occ = np.arange(sk.size) - np.repeat(start, counts)
    out = np.empty_like(occ)
    out[order] = occ
    return out


#: atomics whose result, once every lane of every warp has applied its own, is the same in any
#: order (integer add, min, max and the bitwise ops, each with its type; ``POPC``: the +1 of
#: ``ATOMS.POPC.INC``): the code each one's writes carry (:meth:`_SharedSpace.write`). Not float
#: adds (rounding), exchanges, compare-and-swaps, nor ``INC``/``DEC`` (they wrap at a bound).
ORDER_FREE_ATOMICS = {f"{o}.{d}": k + 1 for k, (o, d) in enumerate(
    (o, d) for o in ("ADD", "POPC", "MIN", "MAX", "AND", "OR", "XOR") for d in ("U32", "S32", "64", "S64"))}


def atomic(iss: Issue, space: _Space, addr: np.ndarray, idx: np.ndarray, width: int, opname: str, dtype: str,
           val_i: int | None, new_i: int | None, dst_i: int | None, pred_dst: bool = False,
           eligible: np.ndarray | None = None) -> None:
    """Apply an atomic lane by lane in thread order; write each lane's old value (or, for a
    compare-and-store, whether it stored) to the destination. ``eligible``: the lanes (of ``idx``)
    whose compare may succeed at all this pass."""
    a = addr[idx]
    iss.taint = 0
    val = _operand64(iss, val_i, width)[idx] if val_i is not None else np.ones(idx.size, np.uint64)
    new = _operand64(iss, new_i, width)[idx] if new_i is not None else None
    vt = iss.taint
    old_all = np.zeros(idx.size, np.uint64)
    ok_all = np.zeros(idx.size, bool)
    occ = _rounds(a)
    dt = np.uint64 if width == 8 else U32
    got_t = np.zeros(idx.size, U32)
    # lanes of several warps on one address in one issue: the order between the warps is timing's
    wk = iss.b.warp_of[idx]
    pairs = np.unique(np.stack([a, wk]), axis=1)
    shared_addr = np.unique(pairs[0][np.r_[False, pairs[0][1:] == pairs[0][:-1]]]) if pairs.shape[1] > 1 else a[:0]
    got_t[np.isin(a, shared_addr)] |= TIMING
    if isinstance(space, _SharedSpace) and _returns(iss, dst_i):
        got_t[_contended_results(iss, space, a, wk, (got_t & TIMING) == 0)] |= TIMING
    order_free = ORDER_FREE_ATOMICS.get(f"{opname}.{dtype}", 0)
    for r in range(int(occ.max(initial=-1)) + 1):
        sel = np.flatnonzero(occ == r)
        ar = a[sel]
        raw, rt = space.read(ar, width, idx[sel])
        got_t[sel] |= np.asarray(rt, U32)
        old = np.ascontiguousarray(raw).view(dt).reshape(-1).astype(np.uint64)
        old_all[sel] = old
        if opname in ("CAS", "CAST"):
            hit = old == val[sel]
            if eligible is not None:
                hit &= eligible[sel]
            ok_all[sel] = hit
            res = np.where(hit, new[sel], old)
        elif opname == "POPC":
            res = (old + np.uint64(1)) & np.uint64(0xFFFFFFFF)
        else:
            res = _combine(opname, old, val[sel], dtype)
        space.write(ar, np.ascontiguousarray(res.astype(dt)).view(np.uint8).reshape(sel.size, width),
                    np.asarray(vt)[idx][sel] if np.ndim(vt) else vt, idx[sel], atomic_op=order_free)
    if dst_i is None:
        return
    o = iss.ins.operands[dst_i]
    if isinstance(o, Pred) and pred_dst:  # sm_100: the compare-and-store's success in a predicate
        done = np.zeros(iss.b.lanes, bool)
        done[idx] = ok_all
        iss.setp(dst_i, done)
        return
    if not isinstance(o, Reg) or o.zero:
        return
    result = ok_all.astype(np.uint64) if pred_dst else old_all
    full = np.zeros(iss.b.lanes, np.uint64)
    full[idx] = result
    mask = np.zeros(iss.b.lanes, bool)
    mask[idx] = True
    taint = np.zeros(iss.b.lanes, U32)
    taint[idx] = got_t
    if width == 8:  # the old value, or the 64-bit CAS's success flag (a register pair: 1 or 0)
        iss.set64(dst_i, full, mask, taint)
    else:
        iss.write(o.index, o.uniform, full.astype(U32), mask, taint)


def _returns(iss: Issue, dst_i: int | None) -> bool:
    """Does this atomic hand its old value to a register (not ``RZ``, not a predicate)?"""
    if dst_i is None:
        return False
    o = iss.ins.operands[dst_i]
    return isinstance(o, Reg) and not o.zero


def _contended_results(iss: Issue, space: "_SharedSpace", a: np.ndarray, warp: np.ndarray,
                       fresh: np.ndarray) -> np.ndarray:
    """Lanes (of ``a``) whose returned old value depends on the order in which warps reach the word:
    several warps perform a returning atomic on it between two barriers. The GPU serves such warps'
    lanes interleaved (slots to lanes 32, 33, 0, 34, 1 ...: family ``xwarp_atomics``), the emulator
    one warp after another, so every result there, the first warp's too, is the GPU's timing.

    The first warp to arrive cannot know that others will follow: the run notes each (word, barrier
    epoch) with the warp that took an untainted result from it (``fresh``: lanes not already marked,
    as lanes of several warps in one issue are), and where another warp comes after it, the block is
    executed again knowing those words from the start (:attr:`Run.contended`, :func:`.run.execute`)."""
    run = iss.run
    key = a * (1 << 32) + run.sched.bars.epoch  # word and barrier epoch in one integer
    known = run.contended
    hit = np.isin(key, np.fromiter(known, np.int64, len(known))) if known else np.zeros(a.size, bool)
    seen = run.atomic_takers
    for k, w, f in zip(*np.unique(np.stack([key, warp, fresh & ~hit]), axis=1)):
        first = seen.setdefault(int(k), int(w)) if f else seen.get(int(k), int(w))
        if first != w and int(k) not in known:
            run.contended_late.add(int(k))
    return hit


def _operand64(iss: Issue, i: int, width: int) -> np.ndarray:
    if width == 8:
        v = iss.u64(i)
    else:
        v = np.asarray(iss.u(i), U32).astype(np.uint64)
    return np.broadcast_to(np.asarray(v, np.uint64), (iss.b.lanes,))


@op("ATOMS")
def atoms(iss: Issue) -> None:
    mods = iss.ins.mods
    opname, dtype = _atomic_parts(mods)
    width = 8 if dtype in ("64", "S64", "F64") else 4
    m = _mem_index(iss.ins)
    addr = iss.address(m)
    idx = np.flatnonzero(iss.on)
    _check(addr[idx], width, iss.b.shared.size, "shared", iss)
    engine_op = {"POPC": "popc_inc", "CAST": "cas", "CAS": "cas"}.get(opname, opname.lower())
    served = iss.on
    eligible = None
    if opname == "CAST":  # only one lane per bank slot can store this pass: only those reach the banks
        served = hwr.cas_spin_winners(addr.reshape(-1, 32), iss.on.reshape(-1, 32), width).reshape(-1)
        eligible = served[idx]
    iss.run.record.shared_access(iss, "atomic", width, addr, served, op=engine_op)
    nops = len(iss.ins.operands)
    if opname in ("CAS", "CAST"):
        atomic(iss, _shared(iss), addr, idx, width, opname, dtype, m + 1, m + 2, 0, pred_dst=opname == "CAST",
               eligible=eligible)
    elif opname == "POPC":
        atomic(iss, _shared(iss), addr, idx, width, opname, dtype, None, None, 0)
    else:
        atomic(iss, _shared(iss), addr, idx, width, opname, dtype, m + 1 if m + 1 < nops else None, None, 0)


# ---------------------------------------------------------------------- global and generic
class _GlobalView(_Space):
    """Global memory through the buffers: reads and writes by generic address. A value read is
    tainted by its buffer (bit k for pointer parameter k)."""

    def __init__(self, iss: Issue):
        self.mem = iss.b.memory
        self.iss = iss

    def _aligned(self, addr, width: int) -> None:
        """Global accesses are naturally aligned (a bulk copy to 16 bytes), or the GPU faults
        ("misaligned address"): never executed as if they were."""
        align = min(width & -width, 16)
        if align > 1 and addr.size and (np.asarray(addr, np.uint64) % np.uint64(align)).any():
            a = int(addr[np.flatnonzero(np.asarray(addr, np.uint64) % np.uint64(align))[0]])
            raise MemoryFault(f"{self.iss.ins.text!r}: global address {a:#x} is not aligned to {align} bytes "
                              f"(on the GPU: misaligned address)")

    def read(self, addr, width, lanes=None):
        self._aligned(addr, width)
        bi, off = self.mem.locate(addr, width)
        raw = np.zeros((addr.size, width), np.uint8)
        t = np.zeros(addr.size, U32)
        for k in np.unique(bi):
            sel = bi == k
            buf = self.mem.buffers[k]
            raw[sel] = buf.data[off[sel][:, None] + np.arange(width)]
            t[sel] = U32(1 << int(k)) if k < 31 and not buf.static else U32(0)
        return raw, t

    def write(self, addr, raw, taint, lanes=None, atomic_op=0):
        # lanes of one warp's store on the same bytes: the lowest lane's value lands (measured on the
        # H100 for STG.64, extra18's transpose_int2_1024_threads; taken for every width). Warps that
        # issue together store in warp order, the later one last. A numpy assignment keeps the last
        # of repeated indices: order the rows by warp, then by lane from the highest down
        self._aligned(addr, raw.shape[1])
        lanes = np.arange(addr.size) if lanes is None else np.asarray(lanes)
        order = np.lexsort((-lanes, lanes // 32))
        addr, raw = addr[order], raw[order]
        if np.ndim(taint):
            taint = np.asarray(taint)[order]
        bi, off = self.mem.locate(addr, raw.shape[1])
        timed = (np.broadcast_to(np.asarray(taint, U32), addr.shape) & TIMING) != 0
        for k in np.unique(bi):
            sel = bi == k
            buf = self.mem.buffers[k]
            cols = off[sel][:, None] + np.arange(raw.shape[1])
            buf.data[cols] = raw[sel]
            if timed[sel].any() or buf.timing is not None:
                if buf.timing is None:
                    buf.timing = np.zeros(buf.data.size, bool)
                buf.timing[cols] = timed[sel][:, None]


class _LocalView(_Space):
    """Each thread's local memory, addressed from 0 (generic: from the local window)."""

    def __init__(self, iss: Issue, lanes: np.ndarray, base: int = 0):
        self.iss, self.lanes, self.base = iss, lanes, base

    def _idx(self, addr, width):
        off = addr - self.base
        _check(off, width, self.iss.b.local.shape[1], "local", self.iss)
        return self.lanes[:, None], off[:, None] + np.arange(width)

    def read(self, addr, width, lanes=None):
        r, c = self._idx(addr, width)
        return self.iss.b.local[r, c], 0

    def write(self, addr, raw, taint, lanes=None, atomic_op=0):
        r, c = self._idx(addr, raw.shape[1])
        self.iss.b.local[r, c] = raw


def _load(iss: Issue, space: _Space, addr: np.ndarray, idx: np.ndarray, width: int, dst: int = 0) -> None:
    at = iss.taint
    raw, t = space.read(_of(addr, idx), width, idx)
    if type(at) is np.ndarray and at.ndim:
        t = np.asarray(t, U32) | at[idx]
    elif at:
        t = np.asarray(t, U32) | U32(at)
    if idx.size == iss.b.lanes or np.ndim(t) == 0:  # every lane, in order (idx: ascending): t is theirs already (or one for all)
        full_t = t
    else:
        full_t = np.zeros(iss.b.lanes, U32)
        full_t[idx] = t
    _write_regs(iss, dst, _to_regs(raw, width, _signed(iss.ins.mods)), idx, full_t)


def _store(iss: Issue, space: _Space, addr: np.ndarray, idx: np.ndarray, width: int, src: int) -> None:
    # where a store lands, when the warps' order decided it, decides what those bytes hold: the
    # address's timing taint goes with the value (``xwarp_atomics`` family: slots taken with a
    # contended atomicAdd hold other threads' indices on the GPU)
    at = iss.taint
    at = at & TIMING if type(at) is np.ndarray else U32(at) & TIMING
    iss.taint = 0
    raw = _from_regs(iss, src, width, idx)
    t = iss.taint
    t = (t | at if np.ndim(at) or at else t) if type(t) is np.ndarray else np.asarray(t, U32) | at
    space.write(_of(addr, idx), raw, _of(t, idx) if np.ndim(t) else t, idx)


@op("LDG")
def ldg(iss: Issue) -> None:
    width = width_of(iss.ins.mods)
    m = _mem_index(iss.ins)
    addr = iss.address(m)
    _load(iss, _GlobalView(iss), addr, np.flatnonzero(iss.on), width)


@op("STG")
def stg(iss: Issue) -> None:
    width = width_of(iss.ins.mods)
    m = _mem_index(iss.ins)
    addr = iss.address(m)
    _store(iss, _GlobalView(iss), addr, np.flatnonzero(iss.on), width, m + 1)


@op("LDL")
def ldl(iss: Issue) -> None:
    width = width_of(iss.ins.mods)
    m = _mem_index(iss.ins)
    addr = iss.address(m)
    idx = np.flatnonzero(iss.on)
    _load(iss, _LocalView(iss, idx), addr, idx, width)


@op("STL")
def stl(iss: Issue) -> None:
    width = width_of(iss.ins.mods)
    m = _mem_index(iss.ins)
    addr = iss.address(m)
    idx = np.flatnonzero(iss.on)
    _store(iss, _LocalView(iss, idx), addr, idx, width, m + 1)


def _generic(iss: Issue, addr: np.ndarray, width: int, kind: str, fn, op: str = "add") -> None:
    """Route each lane of a generic access to shared, local or global memory."""
    idx = np.flatnonzero(iss.on)
    sh, lo, gl = _split_generic(iss, addr, idx)
    if sh.any():
        shaddr = addr - SHARED_WINDOW
        _check(shaddr[idx[sh]], width, iss.b.shared.size, "shared", iss)
        mask = np.zeros(iss.b.lanes, bool)
        mask[idx[sh]] = True
        iss.run.record.shared_access(iss, kind, width, shaddr, mask, op=op, space="generic")
        fn(_shared(iss), shaddr, idx[sh])
    if lo.any():
        fn(_LocalView(iss, idx[lo], LOCAL_WINDOW), addr, idx[lo])
    if gl.any():
        fn(_GlobalView(iss), addr, idx[gl])


@op("LD")
def ld(iss: Issue) -> None:
    width = width_of(iss.ins.mods)
    addr = iss.address(_mem_index(iss.ins))
    _generic(iss, addr, width, "load", lambda sp, a, ix: _load(iss, sp, a, ix, width))


@op("ST")
def st(iss: Issue) -> None:
    width = width_of(iss.ins.mods)
    m = _mem_index(iss.ins)
    addr = iss.address(m)
    _generic(iss, addr, width, "store", lambda sp, a, ix: _store(iss, sp, a, ix, width, m + 1))


@op("ATOM", "ATOMG", "RED", "REDG")
def atom(iss: Issue) -> None:
    mods = iss.ins.mods
    opname, dtype = _atomic_parts(mods)
    width = 8 if dtype in ("64", "S64", "F64") else 4
    m = _mem_index(iss.ins)
    addr = iss.address(m)
    red = iss.ins.base.startswith("RED")
    # ATOM P0, Rd, [a], Rb (a predicate first on sm_90) / ATOMG Rd, [a], Rb / RED [a], Rb
    dst = None if red else next(i for i, o in enumerate(iss.ins.operands[:m]) if isinstance(o, Reg))
    nxt = m + 1

    def run(space, a, ix):
        if opname in ("CAS", "CAST"):
            atomic(iss, space, a, ix, width, opname, dtype, nxt, nxt + 1, dst)
        else:
            atomic(iss, space, a, ix, width, opname, dtype, nxt if nxt < len(iss.ins.operands) else None, None, dst)

    if iss.ins.base == "ATOMG" or iss.ins.base == "REDG":
        run(_GlobalView(iss), addr, np.flatnonzero(iss.on))
    elif isinstance(iss.ins.operands[0], Pred) and not iss.ins.operands[0].true:
        # ATOM P0, ...: an operation shared memory has no instruction for; only lanes whose address
        # is global do it (P0 true), the others fall through to the compiler's QSPC/CAS fallback
        idx = np.flatnonzero(iss.on)
        _sh, _lo, gl = _split_generic(iss, addr, idx)
        if gl.any():
            run(_GlobalView(iss), addr, idx[gl])
        done = np.zeros(iss.b.lanes, bool)
        done[idx[gl]] = True
        iss.setp(0, done)
    else:  # RED, ATOM Rd (or ATOM PT, Rd: one every space does, as -G code calls atomicAdd's body)
        _generic(iss, addr, width, "atomic", run, _engine_op(opname, dtype))


def _engine_op(opname: str, dtype: str) -> str:
    """The model's name of an atomic operation (what decides its cost: native or not, CAS)."""
    if opname in ("CAS", "CAST"):
        return "cas"
    if opname == "POPC":
        return "popc_inc"
    if opname == "ADD" and dtype.startswith(("F", "BF")):
        return "fadd"
    return opname.lower()


@op("QSPC")
def qspc(iss: Issue) -> None:
    """Is a generic address in shared (``.S``), local (``.L``) or global (``.G``) memory?"""
    addr = iss.address(_mem_index(iss.ins))
    idx = np.flatnonzero(iss.on)
    sh, lo, gl = _split_generic(iss, addr, idx)
    want = sh if "S" in iss.ins.mods else lo if "L" in iss.ins.mods else gl
    full = np.zeros(iss.b.lanes, bool)
    full[idx[want]] = True
    iss.setp(0, full)


@op("LDGSTS")
def ldgsts(iss: Issue) -> None:
    """``cp.async``: global bytes copied into shared memory (not a shared-memory *instruction* in
    the profiler's counts: measured 0 wavefronts). A trailing predicate operand says which lanes
    read their source; the others write zeros (``cp.async`` with a source size of 0, as
    ``__pipeline_memcpy_async``'s zero-fill compiles: ``LDGSTS.E [R15], desc[UR8][R6.64], !PT``)."""
    width = width_of(iss.ins.mods)
    mems = [i for i, o in enumerate(iss.ins.operands) if isinstance(o, Mem)]
    sh_i = next(i for i in mems if iss.ins.operands[i].desc is None)
    gl_i = next(i for i in mems if i != sh_i)
    sa, ga = iss.address(sh_i), iss.address(gl_i)
    idx = np.flatnonzero(iss.on)
    _check(sa[idx], width, iss.b.shared.size, "shared", iss)
    src = next((o for o in iss.ins.operands if isinstance(o, Pred)), None)
    reads = np.broadcast_to(iss.pred(src), iss.on.shape)[idx] if src is not None else np.ones(idx.size, bool)
    raw = np.zeros((idx.size, width), np.uint8)
    t = np.zeros(idx.size, np.uint32)
    if reads.any():
        raw[reads], t_read = _GlobalView(iss).read(ga[idx[reads]], width)
        t[reads] = t_read
    _shared(iss).write(sa[idx], raw, t, idx)

