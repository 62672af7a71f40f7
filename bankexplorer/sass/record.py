"""Record: what every SASS instruction did, and every shared-memory warp instruction's lanes,
costed by the model's wavefront engine at the end of the run (one vectorized batch).

Per instruction the counts of Nsight Compute's source page: executed warp instructions (one per
warp that issues it, guard or not), threads that issued it and threads whose guard held.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..model import hardware as hwr
from ..model.engine import WarpBatch, count_wavefronts, source_page_wavefronts
from .decode import Program
from .issue import Issue
from .state import WARP

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
        self.executed = np.zeros(n, np.int64)
        self.threads = np.zeros(n, np.int64)
        self.pred_on = np.zeros(n, np.int64)
        self._rows = _RowStore()

    def issue(self, k: int, warps: int, threads: int, S: np.ndarray, on: np.ndarray) -> None:
        """Instruction ``k`` issued by ``warps`` warps, ``threads`` threads (``S``), ``on`` of them
        predicated on."""
        self.executed[k] += warps
        self.threads[k] += threads
        self.pred_on[k] += int(on.sum()) if on is not S else threads

    def shared_access(self, iss: Issue, kind: str, width: int, addr: np.ndarray, mask: np.ndarray,
                      matrices: int = 0, op: str = "add", space: str = "shared") -> None:
        m = mask.reshape(-1, WARP)
        warps = np.flatnonzero(m.any(axis=1))
        if warps.size == 0:
            return
        if space == "generic" and self.as_written:
            space = "shared"
        code = hwr.kind_code(kind, width, space, op)
        a = addr.reshape(-1, WARP)[warps]
        act = m[warps]
        if kind in hwr.MATRIX_KINDS:  # every lane gives a row address; the hardware reads them all
            act = np.broadcast_to(iss.S.reshape(-1, WARP)[warps], act.shape)
        t = np.broadcast_to(np.asarray(iss.taint, np.uint32), (self.lanes,)).reshape(-1, WARP)[warps]
        taint = np.bitwise_or.reduce(np.where(act, t, 0), axis=1)
        idx = self.program.index_of[iss.ins.pc]
        line = np.full(warps.size, iss.ins.line, np.int64)
        if not iss.ins.own_line:  # a header function's code: the line of the user's call, where there is one
            site = np.where(act, iss.run.sched.site.reshape(-1, WARP)[warps], 0).max(axis=1)
            line = np.where(site > 0, site, line)
        self._rows.append(idx, warps, code, width, matrices, a, act, taint, line)

    def accesses(self) -> Accesses:
        acc = self._rows.accesses()
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


class _RowStore:
    """The recorded shared-memory rows in arrays that grow by doubling. A list of the small arrays
    of each issue cost about 1.3 KB a row, so a kernel looping on shared memory until its budget
    filled gigabytes; these take 320 bytes a row (the lanes' addresses are most of it)."""

    #: (field, dtype, shape of one row); :meth:`accesses` hands them out as the types it always had
    FIELDS = (("index", np.int32, ()), ("warp", np.int32, ()), ("kind", np.int16, ()), ("width", np.int32, ()),
              ("matrices", np.int8, ()), ("addr", np.int64, (WARP,)), ("active", np.bool_, (WARP,)),
              ("taint", np.uint32, ()), ("line", np.int64, ()))

    def __init__(self, capacity: int = 256):
        self.n = 0
        self.cols = {f: np.zeros((capacity, *shape), dt) for f, dt, shape in self.FIELDS}

    def append(self, index: int, warps: np.ndarray, kind: int, width: int, matrices: int, addr: np.ndarray,
               active: np.ndarray, taint: np.ndarray, line: np.ndarray) -> None:
        k = warps.size
        end = self.n + k
        cap = len(self.cols["index"])
        if end > cap:
            cap = max(end, 2 * cap)
            for f, col in self.cols.items():
                grown = np.zeros((cap, *col.shape[1:]), col.dtype)
                grown[:self.n] = col[:self.n]
                self.cols[f] = grown
        c, sl = self.cols, slice(self.n, end)
        c["index"][sl], c["warp"][sl], c["kind"][sl] = index, warps, kind
        c["width"][sl], c["matrices"][sl] = width, matrices
        c["addr"][sl], c["active"][sl], c["taint"][sl], c["line"][sl] = addr, active, taint, line
        self.n = end

    def accesses(self) -> Accesses:
        c, n = self.cols, self.n
        i64 = lambda f: c[f][:n].astype(np.int64)  # noqa: E731
        return Accesses(i64("index"), i64("warp"), i64("kind"), i64("width"), i64("matrices"), c["addr"][:n].copy(),
                        c["active"][:n].copy(), c["taint"][:n].copy(), c["line"][:n].copy())

