"""The machine state of one thread block: register files, predicates, convergence barriers and
the memories, all as numpy arrays with one column per thread (or per warp for uniform state).

Threads are numbered as CUDA linearizes them (x fastest); thread ``t`` is lane ``t % 32`` of warp
``t // 32``. The last warp of a block that is not a multiple of 32 has lanes that never run.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .operands import PT

WARP = 32
GLOBAL_BASE = 0x7F00_0000_0000  #: generic address of the first pointer parameter's buffer
GLOBAL_STRIDE = 1 << 32  #: one buffer every 4 GiB of the address space
CONSTANTS_BASE = GLOBAL_BASE + 257 * GLOBAL_STRIDE  #: generic address of ``__constant__`` data (bank 3)
SHARED_WINDOW_HI = 0x7E00  #: high 32 bits of the generic address of shared memory (SR_SWINHI)
LOCAL_WINDOW_HI = 0x7D00  #: high 32 bits of the generic address of local memory
SHARED_WINDOW = SHARED_WINDOW_HI << 32
LOCAL_WINDOW = LOCAL_WINDOW_HI << 32
WRITERS = 1 << 16  #: more than the warps of any block, plus one (:attr:`Block.shared_stamp`)


class MemoryFault(ValueError):
    """An access outside every buffer, misaligned, or past an array's end (message names it)."""


@dataclass
class Buffer:
    """A pointer parameter's global memory (zero-filled unless data was given)."""

    name: str
    base: int
    data: np.ndarray  # uint8
    #: how many bytes at the start came from the user's data (the rest is the zero fill)
    given: int = 0
    #: bytes whose last store held a value that depends on the order between warps (None: none)
    timing: np.ndarray | None = None
    #: the kernel's own global variables (not a parameter: what it holds taints nothing)
    static: bool = False


class GlobalMemory:
    """All global buffers, found by address with one ``searchsorted`` per access."""

    def __init__(self, buffers: list[Buffer]):
        self.buffers = buffers
        self.bases = np.array([b.base for b in buffers], np.uint64)

    def locate(self, addr: np.ndarray, size: int) -> tuple[np.ndarray, np.ndarray]:
        """(buffer index, offset) of each address; a MemoryFault names the first bad one."""
        addr = np.asarray(addr, np.uint64)
        if not self.buffers:
            raise MemoryFault(f"global address {int(addr[0]):#x}: the kernel has no pointer parameter")
        idx = np.searchsorted(self.bases, addr, side="right").astype(np.int64) - 1
        ok = idx >= 0
        off = np.zeros(addr.shape, np.int64)
        off[ok] = (addr[ok] - self.bases[idx[ok]]).astype(np.int64)
        sizes = np.array([b.data.size for b in self.buffers], np.int64)
        ok &= off + size <= sizes[np.maximum(idx, 0)]
        if not ok.all():
            bad = int(addr[np.flatnonzero(~ok)[0]])
            raise MemoryFault(f"global address {bad:#x} is outside every buffer (each pointer parameter has "
                              f"{self.buffers[0].data.size >> 20} MiB)")
        return idx, off


@dataclass
class Block:
    """Registers, predicates and memories of one thread block (``n`` threads, ``warps`` warps)."""

    dim: tuple[int, int, int]
    index: tuple[int, int, int]
    grid: tuple[int, int, int]
    shared_bytes: int
    local_bytes: int
    const: dict[int, np.ndarray]  # bank -> uint8 bytes
    memory: GlobalMemory
    R: np.ndarray = field(init=False)  # (256, lanes) uint32
    UR: np.ndarray = field(init=False)  # (64, warps) uint32
    P: np.ndarray = field(init=False)  # (8, lanes) bool
    UP: np.ndarray = field(init=False)  # (8, warps) bool
    B: np.ndarray = field(init=False)  # (16, lanes) bool: convergence barrier membership
    #: data taint, beside each register, predicate and shared byte: bit ``i`` set when the value was
    #: computed from what pointer parameter ``i``'s buffer held
    RT: np.ndarray = field(init=False)
    URT: np.ndarray = field(init=False)
    PTT: np.ndarray = field(init=False)
    UPT: np.ndarray = field(init=False)
    shared_taint: np.ndarray = field(init=False)
    shared: np.ndarray = field(init=False)  # uint8
    local: np.ndarray = field(init=False)  # (lanes, local_bytes) uint8
    #: Hopper's transaction barriers, by shared address (:mod:`.ops.mbarrier`)
    mbarriers: dict = field(init=False, default_factory=dict)

    def __post_init__(self) -> None:
        self.n = int(np.prod(self.dim))
        self.warps = -(-self.n // WARP)
        lanes = self.warps * WARP
        self.lanes = lanes
        self.R = np.zeros((256, lanes), np.uint32)
        self.UR = np.zeros((64, self.warps), np.uint32)
        self.P = np.zeros((8, lanes), bool)
        self.P[PT] = True
        self.UP = np.zeros((8, self.warps), bool)
        self.UP[PT] = True
        self.B = np.zeros((16, lanes), bool)
        self.RT = np.zeros((256, lanes), np.uint32)
        self.URT = np.zeros((64, self.warps), np.uint32)
        self.PTT = np.zeros((8, lanes), np.uint32)
        self.UPT = np.zeros((8, self.warps), np.uint32)
        #: per register (predicate...): False while its taint row is all zero, which is nearly always
        #: (data-dependent values are rare); :class:`.issue.Issue` then skips reading and writing it
        self.tainted = {"R": [False] * 256, "UR": [False] * 64, "P": [False] * 8, "UP": [False] * 8}
        #: per register and predicate: the taint every lane's value has, where one for all (a Python
        #: int; None: the row in ``RT`` / ``PTT`` holds each lane's). Data taint is mostly the same for
        #: every lane (every key a sort loaded came from one buffer), and a number ORs and stores in a
        #: fraction of a row's time; the row is filled from it when a write covers only some lanes
        self.taint_one = {"R": [None] * 256, "P": [None] * 8}
        self.taint_flags = (self.tainted["R"], self.tainted["UR"], self.tainted["P"], self.tainted["UP"],
                            self.taint_one["R"], self.taint_one["P"])
        self.shared = np.zeros(self.shared_bytes, np.uint8)
        self.shared_taint = np.zeros(self.shared_bytes, np.uint32)
        #: the OR of each 4-byte word's taint (a load of whole words reads one number a word), kept
        #: beside the bytes' by every write; None where the size is not a multiple of 4
        self.shared_taint_words = np.zeros(self.shared_bytes // 4, np.uint32) if self.shared_bytes % 4 == 0 else None
        #: who last wrote each byte and when, in one number (one gather per access, not two): the
        #: block barriers completed by then x :data:`WRITERS`, plus the writing warp + 1; 0: never written
        self.shared_stamp = np.zeros(self.shared_bytes, np.int64)
        #: the barriers completed at the last write to shared memory (-1: none yet), and whether any
        #: byte's taint may be other than 0: where neither says otherwise, a shared load skips reading them
        self.shared_written = -1
        self.shared_tainted = False
        #: the barriers completed at the last write to shared memory narrower than a word (-1: none
        #: yet): until then the race checks keep stamps by word (:class:`.ops.memory._SharedSpace`)
        self.shared_subword = -1
        #: whether an order-free atomic ever wrote shared memory (else every code in ``shared_atomic`` is 0)
        self.shared_atomics = False
        #: every lane's index (``Issue.lanes_on``), made once; the stamps the last lanes to write
        #: shared memory leave, by epoch (``ops.memory._SharedSpace._mine``)
        self.every_lane: np.ndarray | None = None
        self.last_mine: tuple | None = None
        self.shared_space = None  # shared memory's view for the race checks, for the current epoch (ops.memory._shared)
        #: each uniform register spread to its warps' lanes, where read since its last write (:meth:`uniform_lanes`)
        self.ur_lanes: list[np.ndarray | None] = [None] * 64
        self._every_mask: np.ndarray | None = None  # the last mask :meth:`every` answered for, and its answer
        self._every = False
        #: constant words read so far, by (bank, offset) (``Issue._const_word``)
        self.const_words: dict[tuple[int, int], np.uint32] = {}
        #: the order-free atomic (ops.memory.ORDER_FREE_ATOMICS, its code) that last wrote each byte; 0: any other write
        self.shared_atomic = np.zeros(self.shared_bytes, np.int16)
        self.local = np.zeros((lanes, max(self.local_bytes, 0)), np.uint8)
        t = np.arange(lanes)
        self.exists = t < self.n  # lanes of a partial last warp never run
        self.warp_of = t // WARP
        self.lane_id = (t % WARP).astype(np.uint32)
        x, y, z = self.dim
        self.tid = ((t % x).astype(np.uint32), ((t // x) % y).astype(np.uint32), (t // (x * y)).astype(np.uint32))

    def predicate_taint(self, i: int) -> np.ndarray | int:
        """Predicate ``i``'s taint: one for all lanes (an int) or each lane's (its row)."""
        one = self.taint_one["P"][i]
        return self.PTT[i] if one is None else one

    def uniform_lanes(self, i: int) -> np.ndarray:
        """Uniform register ``i`` spread to its warps' lanes (kept until it is written: uniform
        registers change rarely and are read by addresses on every issue). Read only."""
        v = self.ur_lanes[i]
        if v is None:
            v = self.ur_lanes[i] = self.UR[i][self.warp_of]
        return v

    def every(self, mask: np.ndarray) -> bool:
        """Whether ``mask`` holds for every lane (then a masked write is a plain one, several times
        cheaper). The last mask asked about is kept with its answer: the threads of a stretch of
        code come as one array, issue after issue (:meth:`.simt.Scheduler.next`)."""
        if mask is not self._every_mask:
            self._every_mask, self._every = mask, np.count_nonzero(mask) == mask.size
        return self._every

    def first_lanes(self, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(warps, lane index of each warp's first thread in ``mask``): where a uniform result is read."""
        m = mask.reshape(self.warps, WARP)
        warps = np.flatnonzero(m.any(axis=1))
        return warps, warps * WARP + m[warps].argmax(axis=1)
