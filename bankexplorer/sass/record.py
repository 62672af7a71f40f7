"""Record: what every SASS instruction did, and every shared-memory warp instruction's lanes,
costed by the model's wavefront engine at the end of the run (one vectorized batch).

Per instruction the counts of Nsight Compute's source page: executed warp instructions (one per
warp that issues it, guard or not), threads that issued it and threads whose guard held.
"""

from __future__ import annotations

import array
import functools
from dataclasses import dataclass

import numpy as np

from ..model import hardware as hwr
from ..model.engine import WarpBatch, count_wavefronts, source_page_wavefronts
from . import compiled
from .decode import Program
from .issue import Issue
from .state import WARP

U32 = np.uint32

TIMING = np.uint32(1 << 31)  #: the taint bit of values whose order of arrival between warps decides them


@dataclass
class Accesses:
    """Every executed shared-memory warp instruction: one row per warp and issue."""

    index: np.ndarray  # (N,) instruction index in the program
    warp: np.ndarray  # (N,)
    kind: np.ndarray  # (N,) engine kind codes
    width: np.ndarray
    matrices: np.ndarray
    addr: np.ndarray  # (N, 32) byte addresses in shared memory
    active: np.ndarray  # (N, 32)
    taint: np.ndarray  # (N,) OR of the address taint over the active lanes
    #: (N,) the user's source line of each access: its instruction's, or for an instruction of a
    #: header function that code built without inlining calls, the line of the user's call
    line: np.ndarray | None = None
    wavefronts: np.ndarray | None = None
    ideal: np.ndarray | None = None
    #: (N,) what Nsight Compute's source page counts (``wavefronts`` is what the hardware serves;
    #: they differ on merged 8/16-byte loads with a bank conflict: ``hardware.source_page_cost``)
    source_page: np.ndarray | None = None


class Recorder:
    def __init__(self, program: Program, lanes: int, as_written: bool = False):
        n = len(program.instructions)
        self.program = program
        self.lanes = lanes
        #: the unoptimised build (-G) reaches shared memory through generic addresses only because it
        #: keeps no address spaces: cost each such access as the shared instruction the source wrote
        self.as_written = as_written
        #: the -G build's member-by-member copies of one value (:func:`.written.aggregate_runs`)
        self.aggregate_runs: list = []
        #: per instruction (Python ints: one addition per issue, where a numpy element costs more): the
        #: run's loop adds each issue's warps, threads and threads predicated on
        self.executed = [0] * n
        self.threads = [0] * n
        self.pred_on = [0] * n
        self.rows = _RowStore()
        self._warps: np.ndarray | None = None
        self._mask: np.ndarray | None = None  # the last mask _warps_of answered for, and its answer
        self._mask_warps: np.ndarray | None = None

    def shared_access(self, iss: Issue, kind: str, width: int, addr: np.ndarray, mask: np.ndarray,
                      matrices: int = 0, op: str = "add", space: str = "shared") -> None:
        warps = self._warps_of(mask)
        if warps is None:  # every warp (the usual case): their rows as they are, no gather
            act = mask.reshape(-1, WARP)
            warps = self._every_warp(act.shape[0])
        else:
            if warps.size == 0:
                return
            act = mask.reshape(-1, WARP)[warps]
        if space == "generic" and self.as_written:
            space = "shared"
        code = _kind_code(kind, width, space, op)
        active = mask
        if kind in hwr.MATRIX_KINDS:  # every lane gives a row address; the hardware reads them all
            active = iss.S
            act = active.reshape(-1, WARP)[warps]
        taint = iss.taint
        if type(taint) is np.ndarray and taint.ndim:
            if not np.count_nonzero(taint):  # a register flagged as tainted that holds no taint now: one for all
                taint = 0
            elif iss.b.every(mask):  # per lane, every lane active: each row's OR as it is
                taint = np.bitwise_or.reduce(taint.reshape(-1, WARP), axis=1)
            else:  # per lane: each row has the OR over its active lanes
                t = taint.reshape(-1, WARP)[warps]
                taint = np.bitwise_or.reduce(np.where(act, t, U32(0)), axis=1)
        ins = iss.ins
        line = ins.line
        if not ins.own_line:  # a header function's code: the line of the user's call, where there is one
            site = np.where(act, iss.run.sched.calls.site.reshape(-1, WARP)[warps], 0).max(axis=1)
            line = np.where(site > 0, site, line)
        self.rows.append(self.program.index_of[ins.pc], warps, code, width, matrices, addr, active, taint, line)

    def _warps_of(self, mask: np.ndarray) -> np.ndarray | None:
        """The warps with a lane in ``mask`` (None: every warp). The same mask object comes back issue
        after issue (the issuing threads of a stretch of straight-line code), so the last answer is kept."""
        if mask is not self._mask:
            some = mask.reshape(-1, WARP).any(axis=1)
            self._mask, self._mask_warps = mask, None if some.all() else np.flatnonzero(some)
        return self._mask_warps

    def _every_warp(self, n: int) -> np.ndarray:
        w = self._warps
        if w is None or w.size != n:
            w = self._warps = np.arange(n)
        return w

    def accesses(self) -> Accesses:
        acc = self.rows.accesses()
        if self.aggregate_runs:  # as written: a value the -G build copies member by member is one access
            from .written import merge_runs

            keep = merge_runs(acc.index, acc.warp, acc.width, acc.addr, acc.active, self.aggregate_runs)
            if keep is not None:
                for f in ("index", "warp", "kind", "width", "matrices", "addr", "active", "taint", "line"):
                    setattr(acc, f, getattr(acc, f)[keep])
        batch = WarpBatch(acc.kind, acc.width, acc.matrices, acc.addr, acc.active)
        res = count_wavefronts(batch, hwr.NVIDIA_SM70_SM90, executions=False)
        acc.wavefronts = np.maximum(res.wavefronts, 0)
        acc.ideal = np.maximum(res.ideal, 0)
        acc.source_page = np.maximum(source_page_wavefronts(batch, res), 0)
        return acc


def _rows_of(c: dict, n: int, issue: int, warps: np.ndarray, addr: np.ndarray, active: np.ndarray) -> bool:
    """Rows ``warps`` of the block's lanes (``addr``, ``active``) written by the compiled copy
    (``sass/_shared.c``); False where it is not built or cannot take these arrays: the caller writes them."""
    if compiled.shared is None or warps.dtype != np.int64 or addr.dtype != np.int64 or active.dtype != np.bool_:
        return False
    try:
        compiled.shared.rows(c["issue"], c["warp"], c["addr"], c["active"], n, issue, warps, addr, active)
    except (ValueError, BufferError):
        return False
    return True


@functools.lru_cache(maxsize=256)
def _kind_code(kind: str, width: int, space: str, op: str) -> int:
    return hwr.kind_code(kind, width, space, op)


class _RowStore:
    """The recorded shared-memory rows, in chunks of :data:`CHUNK` rows. A list of the small arrays
    of each issue cost about 1.3 KB a row, so a kernel looping on shared memory until its budget
    filled gigabytes; these take about 300 bytes a row (the lanes' addresses are most of it). Chunks,
    not one array grown by doubling: each doubling copied every row so far into memory the system
    had to map first, a tenth of a loop on shared memory's time.

    What is the same for every row of one issue (the instruction, its kind and width, the taint and
    line when one for all) is kept once per issue, in typed arrays (a few bytes each), and spread
    to the rows at the end: writing it into each row took more than the rest of the recording. The
    per-issue columns are interleaved in one typed array (:attr:`issues`), so that an issue adds them
    with one call (the compiled LDS and STS: :meth:`written`)."""

    #: (per-row column, dtype, shape of one row)
    FIELDS = (("issue", np.int32, ()), ("warp", np.int32, ()), ("addr", np.int64, (WARP,)),
              ("active", np.bool_, (WARP,)))
    #: per issue, in this order in :attr:`issues`: (name, numpy dtype)
    PER_ISSUE = (("index", np.int32), ("kind", np.int32), ("width", np.int32), ("matrices", np.int32),
                 ("taint", np.uint32), ("line", np.int64))
    #: rows a chunk holds (about 290 KB): the first is made small, for the many kernels with few rows
    CHUNK = 1024

    def __init__(self, capacity: int = 256):
        self.n = 0
        #: the chunks, each with the rows it holds (the last one fills; an issue's rows stay in one)
        self.chunks: list[list] = [[self._chunk(capacity), 0]]
        #: the per-issue columns (:data:`PER_ISSUE`), one issue after another, as int64
        self.issues = array.array("q")
        self.issued = 0  # issues recorded
        #: (first row, end row, taint, line) of the issues whose taint or line is per row (None: one for all)
        self.per_row: list[tuple[int, int, np.ndarray | None, np.ndarray | None]] = []

    def _chunk(self, rows: int) -> dict[str, np.ndarray]:
        return {f: np.empty((rows, *shape), dt) for f, dt, shape in self.FIELDS}

    def append(self, index: int, warps: np.ndarray, kind: int, width: int, matrices: int, addr: np.ndarray,
               active: np.ndarray, taint: np.ndarray | int, line: np.ndarray | int) -> None:
        """One row per warp of ``warps``, from ``addr`` and ``active`` (each lane's of the block);
        ``taint`` and ``line`` are per row or one for all."""
        m = warps.size
        chunk = self.chunks[-1]
        c, k = chunk
        if k + m > len(c["issue"]):
            c, k = self._chunk(max(self.CHUNK, m)), 0
            chunk = [c, 0]
            self.chunks.append(chunk)
        if not _rows_of(c, k, self.issued, warps, addr, active):
            c["issue"][k:k + m] = self.issued
            c["warp"][k:k + m] = warps
            c["addr"][k:k + m] = addr.reshape(-1, WARP)[warps]
            c["active"][k:k + m] = active.reshape(-1, WARP)[warps]
        chunk[1] = k + m
        many_t = type(taint) is np.ndarray and taint.ndim > 0
        many_l = type(line) is np.ndarray and line.ndim > 0
        self.issues.extend((index, kind, width, matrices, 0 if many_t else int(taint), 0 if many_l else int(line)))
        self.issued += 1
        n = self.n
        if many_t or many_l:
            self.per_row.append((n, n + m, taint if many_t else None, line if many_l else None))
        self.n = n + m

    def written(self, m: int, index: int, kind: int, width: int, taint: int | bytes, line: int) -> None:
        """One issue's ``m`` rows, which the compiled LDS or STS wrote into the last chunk
        (``sass/_shared.c``, ``View.load``: what :meth:`append` does): the chunk's count and the
        issue's columns; ``taint``: one for all, or each row's (m uint32)."""
        self.chunks[-1][1] += m
        n = self.n
        if type(taint) is bytes:
            self.per_row.append((n, n + m, np.frombuffer(taint, U32), None))
            taint = 0
        self.issues.extend((index, kind, width, 0, taint, line))
        self.issued += 1
        self.n = n + m

    def column(self, f: str) -> np.ndarray:
        """Column ``f`` of every row so far, in one new array."""
        parts = [c[f][:k] for c, k in self.chunks]
        return parts[0].copy() if len(parts) == 1 else np.concatenate(parts)

    def accesses(self) -> Accesses:
        rows = self.column("issue")
        n = len(self.PER_ISSUE)
        table = np.frombuffer(self.issues, np.int64).reshape(-1, n) if self.issued else np.zeros((0, n), np.int64)
        per = {f: table[rows, j].astype(dt) for j, (f, dt) in enumerate(self.PER_ISSUE)}
        for start, end, taint, line in self.per_row:
            if taint is not None:
                per["taint"][start:end] = taint
            if line is not None:
                per["line"][start:end] = line
        i64 = lambda f: per[f].astype(np.int64)  # noqa: E731
        return Accesses(i64("index"), self.column("warp").astype(np.int64), i64("kind"), i64("width"),
                        i64("matrices"), self.column("addr"), self.column("active"), per["taint"], per["line"])

