"""Control flow, in one place: which threads issue next, branches, reconvergence and barriers.

The model (Volta and later, "independent thread scheduling"): the threads of a warp form *groups*
that issue together. A branch whose guard differs between a group's threads splits it; groups
meet again where the code says so, and when a warp switches between its groups (below), never
because a running group reaches the pc of a waiting one:

* ``BSSY Bn`` records the issuing threads as the members of convergence barrier ``n``; ``BREAK Bn``
  takes threads out of it. A group reaching ``BSYNC Bn`` issues it and waits until every living
  member has arrived; then all of them go on as one group.
* ``WARPSYNC mask`` likewise: a group issues it and waits for every living thread of its mask.
* ``BAR.SYNC`` is issued by each group as it arrives; the threads wait until the block's barrier
  completes (every living thread, or the count the instruction names).
* ``YIELD`` (the compiler puts one in loops that may wait on other threads: CAS loops, volatile
  polls): a BSYNC no longer waits for the threads that issued one and have not passed a BSYNC
  since, nor for threads held at a WARPSYNC that waits for the arriving ones; and the group lets
  its warp switch at its next branch: its parts go behind the warp's other ready groups (on a tie
  the loop's next pass first). Measured with 40 one-warp probes (extra20's ``yield/``): the groups
  leaving such a loop pass its BSYNC one by one, and they meet again only where the warp switches
  with two of them at one pc; the rule gives every executed and thread count of 28 of the 40
  (2 before), 20 of them exact in every count (in 8 the GPU served two groups' later loads as one
  shared-memory request, which this does not model).
* ``EXIT`` ends threads; barriers stop waiting for them.
* ``CALL`` / ``RET``: a call jumps (the return address is in a register the code set); each thread
  also keeps the user's line it called from, so that a header function's accesses (code built
  without inlining, -G, calls ``atomicAdd``'s body) count on the line that called it (:attr:`CallSites.site`).

Within a warp the running group goes on until it waits or ends. Where a branch splits it, the part
with fewer threads runs first (on a tie the fall-through part) and the other waits. When the running
group waits or ends, the warp switches to the part that was set aside last, and that group takes
along every other waiting group of the warp at its pc that got there the same way (all by a taken
branch, or all by falling through): the GPU then issues their instructions, a BSYNC included, once.
One exception: the other half of the split the blocked group came from runs alone when the blocked
group issued no memory instruction after that split (:meth:`.policy.Reconvergence.merge`). Groups that a
WARPSYNC.EXCLUSIVE or a collective's fallback released one per mask never merge. Across
warps, the lowest pc, for every warp whose running group is there, so warps run in lockstep where
their code agrees and warp 0's effects come first within a step. A warp kept waiting
:data:`WARP_STARVATION` steps (others spin on a flag or a lock it would release) runs first until it
waits; a group that has run :data:`STARVATION` issues in a row lets the other groups of its warp
run. What a spinning thread then reads was written by another warp since the last barrier, which
the data taint marks: the run says that the GPU's timing decided those counts.

The choices above that the GPU makes and the code does not (which part of a split runs first,
merging on a switch, what ``YIELD`` changes, the starvation thresholds) are named policies
(:mod:`.policy`), each with its probe family and held-out score, chosen together by name (a
:class:`.policy.Schedule`; the measured ``"h100"`` by default). Where one that does not fit all its
probes decides for a warp, what the warp issues until it is one group again is recorded
(:attr:`Scheduler.decided`) and reported as schedule-dependent.
"""

from __future__ import annotations

import numpy as np

from .issue import EmulationError, Issue
from .policy import DEFAULT, STARVATION_THRESHOLDS, Schedule
from .opcode import MEMORY_PREFIXES, WRITE_OPCODES
from .state import WARP

#: issues a group runs in a row before the other groups of its warp get a turn (the default schedule's;
#: the policies, with their probe families and scores, are in :mod:`.policy`)
STARVATION = STARVATION_THRESHOLDS.group_issues
#: steps a warp waits before it runs out of pc order (until it waits or this long)
WARP_STARVATION = STARVATION_THRESHOLDS.warp_steps
MAX_CALL_DEPTH = 64  #: calls a thread may nest (the hardware's stack is small too)
# Measured (H100): a running group never takes in waiting groups whose pc it reaches, and BSYNC and
# WARPSYNC are issued once per group that arrives; but the groups waiting when the warp switches do
# merge, under the rule of the module docstring. How it was found (probes, one warp-specific copy of
# a loop per warp so that each copy's BSYNC counts one warp's arrivals):
# * which side runs first: loops whose lanes leave after 1, 2, 3... iterations (28 patterns, the same
#   with lanes shuffled): the BSYNC counts fit "fewer threads first" (ties: fall-through first) with
#   merging on a switch, e.g. exits of 18, 8, 4 then 2 lanes: 2 BSYNCs (18+8+4 waited, merged), exits
#   of 2, 4, 8, 18: 4 (each smaller exit ran at once), 26, 3, 3: 3 (the tie ran the exit first).
#   Lane positions do not matter (shuffled lanes: the same counts).
# * the way a group got to its pc: a loop's skip (a taken branch to the BSYNC) and its exits (falling
#   through the back-edge) never merged (three CUB merge sorts), exits by the same kind of edge did.
# * the exception: every one of the 172 while-loop runs of sliding_window_max_deque replayed as its
#   own copy (all 172 exact): the 31 switches where a merge the rule allows did not happen are all
#   the group that had just left a loop by falling straight into its BSYNC, handing over to its own
#   sibling (the lanes that left at the same check by the taken exit); with 0 to 16 ALU instructions
#   (dependent or not) on that path still no merge (so not a latency), with a shared store on it
#   (heap_topk) or an atomic (sparse_hist_match_any) the sibling merged. Why a memory instruction
#   matters is not known (perhaps the warp is re-arbitrated there); it is the smallest rule that fits.
# The previous rule (never merge, taken part first) missed the BSYNC counts of 8 of the 363 measured
# kernels that NVRTC compiles to the measuring nvcc's code; this one fits all 363 (the other 73 are
# compared by their shared-memory totals, or are contended). Not the compiler: NVRTC 13.5 gives
# those 8 the measuring nvcc's instructions and branch layout (the tests compare branch targets).
# Then checked on a batch measured before the rule was written (extra19, 29 kernels of the same
# code): it gives the BSYNC counts of all four where the old rule was off (interpolation search 358,
# KMP 716, a decision tree 169, a bucket sort 166: every count exact) and changes no other.


FULL = 0xFFFFFFFF


class Group:
    """Threads of one warp that issue together (``bits``: lane mask). ``split``: the branch issue
    that made it (the halves of one split share it), ``taken``: whether it left that branch by the
    taken edge (None: released by a barrier), ``memory``: it issued a memory instruction since, and
    ``solo``: it never merges (one mask of a WARPSYNC.EXCLUSIVE)."""

    __slots__ = ("warp", "bits", "pc", "age", "split", "taken", "memory", "solo", "yielding")

    def __init__(self, warp: int, bits: int, pc: int, split: tuple | None = None, taken: bool | None = None,
                 solo: bool = False):
        self.warp, self.bits, self.pc, self.age = warp, bits, pc, 0
        self.split, self.taken, self.memory, self.solo = split, taken, False, solo
        self.yielding = False


def _lane_bits(mask: np.ndarray) -> np.ndarray:
    """(warps,) uint32 lane masks of a (lanes,) bool array."""
    return np.packbits(mask.reshape(-1, WARP), axis=1, bitorder="little").view("<u4").reshape(-1)


_LANE = np.arange(WARP, dtype=np.int64)  #: lane numbers, for lane masks as bits


def _lanes(bits: np.ndarray) -> np.ndarray:
    return np.unpackbits(np.ascontiguousarray(bits, "<u4").view(np.uint8), bitorder="little").astype(bool)


class BlockBarriers:
    """The block barriers' state (``BAR``, and the epoch Hopper's transaction barriers also end):
    per barrier id the thread count it waits for and the threads that arrived without waiting, a
    reduction being gathered (``BAR.RED``) and its result (``B2R`` reads it), and how many barriers
    have completed: what one warp wrote before one is ordered before what another reads after it
    (the race checks compare epochs, :mod:`.ops.memory`). Which threads wait where is the
    scheduler's (:attr:`Scheduler.waiting`)."""

    def __init__(self, lanes: int):
        self.count: dict[int, int] = {}
        self.arrived: dict[int, int] = {}
        self.reduce: dict[int, tuple[str, np.ndarray]] = {}
        self.result = np.zeros(lanes, np.uint32)
        self.epoch = 0


class CallSites:
    """Per thread, the user's line of the innermost call made from the user's code (0: none) and the
    lines of the calls it is nested in: an access in a header function (``atomicAdd``'s body under
    -G, a function not inlined) counts on the user's line that called it (:mod:`.record`)."""

    def __init__(self, lanes: int):
        self.site = np.zeros(lanes, np.int64)
        self.depth = np.zeros(lanes, np.int64)
        self.sites = np.zeros((0, lanes), np.int64)

    def enter(self, lanes: np.ndarray, line: int | None, text: str) -> None:
        """Threads ``lanes`` call a function from ``line`` (None or 0: a call inside a header's code,
        whose site stays the caller's)."""
        d = self.depth[lanes]
        if lanes.size and int(d.max()) >= MAX_CALL_DEPTH:
            raise EmulationError(f"{text!r}: calls nest deeper than {MAX_CALL_DEPTH} (endless recursion?)")
        if lanes.size and int(d.max()) >= self.sites.shape[0]:
            self.sites = np.vstack([self.sites, np.zeros((1, self.sites.shape[1]), np.int64)])
        self.sites[d, lanes] = self.site[lanes]
        self.depth[lanes] = d + 1
        if line:
            self.site[lanes] = line

    def leave(self, on: np.ndarray) -> None:
        """The threads ``on`` (a lane mask) return: those inside a call get their caller's site back."""
        lanes = np.flatnonzero(on & (self.depth > 0))
        self.depth[lanes] -= 1
        self.site[lanes] = self.sites[self.depth[lanes], lanes]


class Scheduler:
    """Each warp's groups (the first one runs, the others wait their turn), waiting groups, and
    the rules that release them."""

    def __init__(self, run, entry: int, schedule: Schedule = DEFAULT):
        b = run.block
        self.run = run
        #: the GPU's choices (:mod:`.policy`): which part runs first, merging, YIELD, starvation
        self.policy = schedule
        #: per warp: the inexact policy whose decision its groups follow until the warp is one group
        #: again (None: settled); per pc: the policies that decided some of its issues
        self.unsettled: list[str | None] = [None] * b.warps
        self.unsettled_any = False
        self.decided: dict[int, set[str]] = {}
        self.W = b.warps
        self.alive = _lane_bits(b.exists).astype(np.int64)  # (warps,) living lanes
        self.groups: list[list[Group]] = [[Group(w, int(self.alive[w]), entry)] if self.alive[w] else []
                                          for w in range(self.W)]
        self.idle = [0] * self.W  # steps since each warp last issued
        self.priority: int | None = None  # a warp that waited too long: it runs first for a while
        self.priority_left = 0
        # waiting groups: (kind, pc) -> {warp: bits}; kind "BSYNC", "WARPSYNC" or ("BAR", id)
        self.waiting: dict[tuple, dict[int, int]] = {}
        self.wait_masks: dict[tuple, np.ndarray] = {}  # WARPSYNC: each held lane's mask (warps x 32)
        self.bars = BlockBarriers(b.lanes)
        self.chosen: list[Group] = []
        self.alone = False
        # per warp: its first group goes on from the group that issued last (else the warp switches);
        # its issues so far (names a split); the split and memory flag of the group that last waited
        self.cont = [True] * self.W
        self.issues = [0] * self.W
        self.blocked: list[tuple | None] = [None] * self.W
        self.yielded = np.zeros(b.lanes, bool)  # threads that issued YIELD since they last passed a BSYNC
        # per warp: a group set aside after STARVATION issues (its lanes, where it was), until it runs again
        self.spinning: list[tuple | None] = [None] * self.W
        self.memory_pcs = {ins.pc for ins in run.program.instructions if ins.base.startswith(MEMORY_PREFIXES)}
        # stores and atomics a spinning thread of the same warp could be waiting for (shared or generic)
        self.write_pcs = {ins.pc for ins in run.program.instructions if ins.base in WRITE_OPCODES}
        self.calls = CallSites(b.lanes)
        self._threads: tuple[bytes, np.ndarray | None] = (b"", None)  # the last threads :meth:`next` gave

    def _check_pc(self, pc: int) -> None:
        if pc not in self.run.program.index_of:
            raise EmulationError(f"a branch goes to {pc:#x}, where the kernel has no instruction")

    def _add(self, g: Group, first: bool = False) -> None:
        """A group becomes ready: it runs next (``first``) or queues behind its warp's others. One
        that has run :data:`STARVATION` issues in a row while others of its warp wait (a spin loop
        waiting for them) queues behind them."""
        self._check_pc(g.pc)
        gs = self.groups[g.warp]
        if first and gs and g.age > self.policy.starvation.group_issues:
            # a spin wait only if the others then write shared memory before it runs again (:meth:`_spun`);
            # a long loop whose siblings just wait at a barrier counts the same in any order
            self.spinning[g.warp] = (g.bits, self.run.program.at(g.pc))
            g.age, first = 0, False
            self._decides(g.warp, self.policy.starvation)
        if first:
            gs.insert(0, g)
            self.cont[g.warp] = True
        else:
            gs.append(g)

    # ------------------------------------------------------------------ choosing
    def next(self) -> tuple[int, np.ndarray] | None:
        """The pc to issue and its threads (the running group of every warp there), or None."""
        for w, gs in enumerate(self.groups):
            if gs and not self.cont[w]:  # the warp switches to the group set aside last
                self.policy.reconverge.merge(gs, self.blocked[w])
                self.cont[w] = True
                if not self.policy.reconverge.exact:
                    self._decides(w, self.policy.reconverge)
        heads = [(gs[0].pc, w) for w, gs in enumerate(self.groups) if gs]
        if not heads:
            if any(ws for ws in self.waiting.values()):
                raise EmulationError(self._deadlock())
            return None
        # a warp kept waiting (others spin at lower pcs, polling what it would write) runs first until it
        # waits or ends; whatever a poll then reads depends on timing, which the data taint says
        if self.priority is not None and self.groups[self.priority] and self.priority_left > 0:
            self.priority_left -= 1
            pc = self.groups[self.priority][0].pc
        else:
            self.priority = None
            starved = max(heads, key=lambda h: self.idle[h[1]])
            if self.idle[starved[1]] > self.policy.starvation.warp_steps:
                self.priority, self.priority_left = starved[1], self.policy.starvation.warp_steps
                pc = starved[0]
            else:
                pc = min(heads)[0]
        chosen = []
        for w, gs in enumerate(self.groups):
            if gs and gs[0].pc == pc:
                chosen.append(gs.pop(0))
                self.idle[w] = 0
                self.cont[w] = False
                self.issues[w] += 1
            elif gs:
                self.idle[w] += 1
        if pc in self.memory_pcs:
            for g in chosen:
                g.memory = True
        for g in chosen:
            if self.spinning[g.warp] is not None:
                self._spun(g, pc)
        self.chosen = chosen
        self.alone = not any(self.groups)  # every group of the block issues now
        if self.unsettled_any:
            self._note_decided(pc, chosen)
        bits = np.zeros(self.W, "<u4")
        for g in chosen:
            bits[g.warp] = g.bits
        key = bits.tobytes()
        if key != self._threads[0]:  # the same threads as the last issue: the same array (what the
            self._threads = (key, _lanes(bits))  # run and the recorder work out for them is kept by it)
        return pc, self._threads[1]

    def _spun(self, g: Group, pc: int) -> None:
        """A group of a warp whose long-running or yielding group was set aside (:meth:`_add`,
        :meth:`_yield_at_branch`) issues: that group itself again (nothing happened meanwhile), or
        another one's store or atomic to shared memory, which what the set-aside loop reads may
        depend on: then its passes depend on the scheduling."""
        bits, ins = self.spinning[g.warp]
        if g.bits & bits:
            self.spinning[g.warp] = None
        elif pc in self.write_pcs:
            self.run.note_timing(ins, "waits in a loop for another thread of its warp: how many passes it makes "
                                      "depends on the GPU's scheduling")
            self.spinning[g.warp] = None

    # ------------------------------------------------------------------ what the policies decided
    def _decides(self, warp: int, policy) -> None:
        """An inexact policy (:mod:`.policy`) chose for ``warp``: what its groups issue until the
        warp is one group again is schedule-dependent."""
        if not policy.exact:
            self.unsettled[warp] = policy.name
            self.unsettled_any = True

    def _note_decided(self, pc: int, chosen: list[Group]) -> None:
        """Record the issue at ``pc`` for every chosen group whose warp an inexact policy decided;
        a warp whose living threads are one group again, none waiting, is settled."""
        for g in chosen:
            name = self.unsettled[g.warp]
            if name is None:
                continue
            w = g.warp
            if not self.groups[w] and g.bits == int(self.alive[w]) and \
                    not any(ws.get(w) for ws in self.waiting.values()):
                self.unsettled[w] = None
                continue
            self.decided.setdefault(pc, set()).add(name)
        self.unsettled_any = any(x is not None for x in self.unsettled)

    def _deadlock(self) -> str:
        where = [key[-1] if key[0] == "BAR" else key[1] for key, ws in self.waiting.items() if ws]
        ins = self.run.program.at(min(where)) if where else None
        what = f" at {ins.text!r} (line {ins.line})" if ins is not None else ""
        return f"the block never finishes: its threads wait for each other forever{what}"

    # ------------------------------------------------------------------ moving on
    def advance(self, pc: int, iss: Issue, hold: tuple | None = None, only: set[int] | None = None) -> None:
        """Move the issuing groups on: branch targets, exits, waits (``hold``), else pc + 16. A
        group that splits runs its part with fewer threads first (the split policy, :mod:`.policy`); the rest waits its
        turn. ``only``: the warps that ``hold`` applies to (the others go on)."""
        S = iss.S
        gone = None
        if iss.exited is not None and iss.exited.any():
            gone = _lane_bits(iss.exited & S).astype(np.int64)
            self.alive &= ~gone
        if hold is None and iss.ins.base == "BRA" and any(g.yielding for g in self.chosen):
            self._yield_at_branch(pc, iss, [g for g in self.chosen if g.yielding])
            self.chosen = [g for g in self.chosen if not g.yielding]  # other warps issuing with them go on as usual
        if not iss.jumps and hold is None:  # the common case: every group steps to the next instruction
            for g in self.chosen:
                bits = g.bits & ~int(gone[g.warp]) if gone is not None else g.bits
                if bits:
                    g.pc, g.bits, g.age = pc + 16, bits, g.age + 1
                    self._add(g, first=True)
        else:
            if hold is not None and not iss.jumps and (only is None or all(g.warp in only for g in self.chosen)):
                per = live = lo = hi = None  # every issuing group waits (a barrier): no next pc to work out
            else:
                nxt = np.full(S.shape, pc + 16, np.int64)
                for mask, target in iss.jumps:
                    nxt[mask & S] = target
                per = nxt.reshape(-1, WARP)
                live = S.reshape(-1, WARP) if gone is None else (S & ~iss.exited).reshape(-1, WARP)
                lo = np.where(live, per, np.iinfo(np.int64).max).min(axis=1)
                hi = np.where(live, per, np.iinfo(np.int64).min).max(axis=1)
            for g in self.chosen:
                bits = g.bits & ~int(gone[g.warp]) if gone is not None else g.bits
                if not bits:
                    continue
                if hold is not None and (only is None or g.warp in only):
                    self.blocked[g.warp] = (g.split, g.memory)
                    self._hold(hold, g.warp, bits, pc)
                    continue
                w = g.warp
                if lo[w] == hi[w]:
                    g.pc, g.bits, g.age = int(lo[w]), bits, g.age + 1
                    self._add(g, first=True)
                    continue
                lanes = np.flatnonzero(live[w])
                targets = per[w][lanes]
                parts = [(int(t), int(np.bitwise_or.reduce(np.left_shift(1, lanes[targets == t]))))
                         for t in np.unique(targets)]
                split = (w, self.issues[w])
                order = self.policy.split
                if not order.exact:
                    self._decides(w, order)
                for t, b in reversed(sorted(parts, key=lambda p: order.key(p[0], pc, p[1]))):
                    self._add(Group(w, b, t, split, t != pc + 16, g.solo), first=True)
        if gone is not None:
            self._release_all()

    def _yield_at_branch(self, pc: int, iss: Issue, yielding: list[Group]) -> None:
        """Groups that issued YIELD reach a branch: their parts go to the back of their warp's queue
        when other groups of the warp are ready (the warp switches), else on as usual (on a tie the
        loop's next pass first)."""
        S = iss.S
        nxt = np.full(S.shape, pc + 16, np.int64)
        for mask, target in iss.jumps:
            nxt[mask & S] = target
        per = nxt.reshape(-1, WARP)
        for g in yielding:
            w = g.warp
            others = bool(self.groups[w])
            inside = (g.bits >> _LANE) & 1 == 1
            parts = [(int(t), int((1 << _LANE[inside & (per[w] == t)]).sum())) for t in np.unique(per[w][inside])]
            split = (w, self.issues[w])
            if not others:
                for t, b in reversed(sorted(parts, key=lambda p: self.policy.split.key_after_yield(p[0], pc, p[1]))):
                    ng = Group(w, b, t, split if len(parts) > 1 else g.split,
                               (t != pc + 16) if len(parts) > 1 else g.taken, g.solo)
                    ng.age = g.age + 1
                    self._add(ng, first=True)
                continue
            for t, b in sorted(parts, key=lambda p: self.policy.split.key(p[0], pc, p[1])):
                self._add(Group(w, b, t, split, None, g.solo), first=False)
            self.spinning[w] = (g.bits, self.run.program.at(pc))  # a spin wait if the others write meanwhile
            self._decides(w, self.policy.yield_rule)

    def _held_for(self, warp: int, bits: int) -> int:
        """Lanes of ``warp`` held at a WARPSYNC whose mask names some of ``bits``: they wait for these
        very threads, so a BSYNC does not wait for them (measured: a spin lock's other lanes went on
        to the __syncwarp's BSSY and WARPSYNC; the lock holder then passed its BSYNC alone)."""
        held = 0
        for key, ws in self.waiting.items():
            if key[0] == "WARPSYNC" and ws.get(warp):
                here = ((ws[warp] >> _LANE) & 1 == 1) & (self.wait_masks[key][warp] & bits != 0)
                held |= int((1 << _LANE[here]).sum())
        return held

    def yield_(self, iss: Issue) -> None:
        """YIELD: its threads no longer hold up a BSYNC they have not reached, and the group lets
        the warp switch at its next branch (the YIELD policy, :mod:`.policy`; off: a no-op)."""
        if not self.policy.yield_rule.switches:
            self.advance(iss.ins.pc, iss)
            return
        self.yielded |= iss.on
        for g in self.chosen:
            g.yielding = True
        self.advance(iss.ins.pc, iss)
        for key in list(self.waiting):
            if key[0] == "BSYNC":
                self._release(key)

    def straight_on(self, pc: int, iss: Issue) -> bool:
        """Straight-line code in lockstep, the common case (and nearly all of a -G build): when the
        issuing groups are every group of the block and none of them branches, exits or waits, they
        all go on to ``pc + 16`` and the next issue is theirs again with no decision to make. Then
        this moves them on as :meth:`advance` would and says so; the caller issues ``pc + 16`` with
        the same threads."""
        if not self.straight(pc, iss):
            return False
        self.moved_on(pc, 1)
        return True

    def straight(self, pc: int, iss: Issue) -> bool:
        """Whether :meth:`straight_on` moves the issuing groups on, without moving them."""
        return self.alone and not iss.jumps and iss.exited is None and pc + 16 in self.run.program.index_of

    def moved_on(self, pc: int, n: int) -> None:
        """What ``n`` calls of :meth:`straight_on` from ``pc`` do, at once (the run defers them over
        a stretch of straight-line code: nothing reads the issuing groups meanwhile)."""
        memory = any(pc + 16 * j in self.memory_pcs for j in range(1, n + 1))
        for g in self.chosen:
            g.pc, g.age = pc + 16 * n, g.age + n
            self.issues[g.warp] += n
            g.memory |= memory
        if self.unsettled_any:  # an inexact policy decided these groups: so are the counts they issue
            for j in range(1, n + 1):
                self._note_decided(pc + 16 * j, self.chosen)

    def _hold(self, key: tuple, warp: int, bits: int, pc: int) -> None:
        ws = self.waiting.setdefault(key, {})
        ws[warp] = ws.get(warp, 0) | bits

    # ------------------------------------------------------------------ convergence points
    def bsync(self, iss: Issue) -> None:
        x = iss.ins.operands[0].index
        key = ("BSYNC", iss.ins.pc, x)
        self.advance(iss.ins.pc, iss, hold=key)
        self._release(key)

    def warpsync(self, iss: Issue, want: np.ndarray, exclusive: bool = False) -> None:
        """Hold each thread until every living thread its mask names is here; ``exclusive``
        (WARPSYNC.EXCLUSIVE, a tiled partition's sync): the threads go on as one group per mask."""
        key = ("WARPSYNC", iss.ins.pc, exclusive)
        masks = self.wait_masks.setdefault(key, np.zeros((self.W, WARP), np.int64))
        np.copyto(masks, want.reshape(-1, WARP), where=iss.S.reshape(-1, WARP))
        self.advance(iss.ins.pc, iss, hold=key)
        self._release(key)

    def _release(self, key: tuple) -> None:
        ws = self.waiting.get(key)
        if not ws:
            return
        pc = key[1]
        if key[0] == "MBAR":  # a transaction barrier's phase: everyone waiting on it goes on
            if self.run.block.mbarriers[key[2]].phase > key[3]:
                for warp, bits in ws.items():
                    if bits & int(self.alive[warp]):
                        self._add(Group(warp, bits & int(self.alive[warp]), pc + 16), first=True)
                ws.clear()
            return
        if key[0] == "BSYNC":
            # each warp's members and yielded lanes, as bits (a warp released below changes only its own)
            B = self.run.block.B[key[2]]
            member_bits, yielded_bits = _lane_bits(B).tolist(), _lane_bits(self.yielded).tolist()
        for warp, bits in list(ws.items()):
            alive = int(self.alive[warp])
            if key[0] == "BSYNC":
                yielded = yielded_bits[warp] | self._held_for(warp, bits)
                members = member_bits[warp] & alive & ~yielded
                if members & ~bits == 0:
                    if yielded and member_bits[warp] & alive & ~bits:  # YIELD let it go early
                        self._decides(warp, self.policy.yield_rule)
                    del ws[warp]
                    gone = _lanes(np.array([bits], "<u4"))
                    lanes = slice(warp * WARP, warp * WARP + WARP)
                    B[lanes] &= ~gone
                    self.yielded[lanes] &= ~gone
                    self._add(Group(warp, bits & alive, pc + 16), first=True)
                continue
            # WARPSYNC: a held lane goes on once every living lane of its mask is held here
            masks = self.wait_masks[key][warp]
            lanes = [ln for ln in range(WARP) if bits >> ln & 1]
            ready = [ln for ln in lanes if int(masks[ln]) & alive & ~bits == 0]
            if not ready:
                continue
            groups: dict[int, int] = {}
            for ln in ready:
                m = int(masks[ln]) if key[2] else 0  # exclusive: one group per mask
                groups[m] = groups.get(m, 0) | (1 << ln)
            left = bits & ~sum(groups.values())
            if left:
                ws[warp] = left
            else:
                del ws[warp]
            for g in reversed(list(groups.values())):
                if g & alive:
                    self._add(Group(warp, g & alive, pc + 16, solo=bool(key[2])), first=True)

    def mbarrier_completed(self, addr: int) -> None:
        """A transaction barrier's phase completed: release the threads waiting on it. What was
        written before it (the bulk copy's bytes, the arrivals' stores) is ordered before what they
        read after it, as after a block barrier."""
        self.bars.epoch += 1
        for key in [k for k in self.waiting if k[0] == "MBAR" and k[2] == addr]:
            self._release(key)

    def mbarrier_wait(self, iss: Issue) -> None:
        """``SYNCS.PHASECHK.TRANS64.TRYWAIT P, [bar], token``: the predicate is set (true); threads
        whose phase has not completed wait here until it does, as the GPU's try-wait suspends
        them (measured: no retry), and go on with it true."""
        from .ops.mbarrier import wait_done

        addr, bar, done = wait_done(iss)
        iss.setp(0, np.ones(iss.S.shape, bool))
        waiting = iss.on & ~done
        if not waiting.any():
            self.advance(iss.ins.pc, iss)
            return
        key = ("MBAR", iss.ins.pc, addr, bar.phase)
        only = {int(w) for w in np.flatnonzero(waiting.reshape(-1, WARP).any(axis=1))}
        self.advance(iss.ins.pc, iss, hold=key, only=only)

    def _release_all(self) -> None:
        for key in list(self.waiting):
            if key[0] == "BAR":
                self._check_bar(key[1])
            else:
                self._release(key)

    def break_(self) -> None:
        for key in list(self.waiting):
            if key[0] == "BSYNC":
                self._release(key)

    # ------------------------------------------------------------------ block barriers
    def arrive(self, iss: Issue, bar: int, count: int, wait: bool, red: tuple[str, np.ndarray] | None = None) -> None:
        b = self.run.block
        if count and (count % WARP or count > b.lanes):
            raise EmulationError(f"{iss.ins.text!r}: a barrier's thread count must be a multiple of 32 and at most "
                                 f"the block's threads (got {count})")
        bars = self.bars
        bars.count[bar] = count
        # a warp arrives when some thread of it has the guard true (unguarded: every issuing warp)
        if iss.on is iss.S:
            arriving = {g.warp for g in self.chosen}
        else:
            arriving = {int(w) for w in np.flatnonzero(iss.on.reshape(-1, WARP).any(axis=1))}
        if not wait:
            bars.arrived[bar] = bars.arrived.get(bar, 0) + WARP * len(arriving)
            self.advance(iss.ins.pc, iss)
        elif red is None and not count and iss.on is iss.S and self._everyone_here(bar):
            self._pass(iss.ins.pc, bar)
            return
        else:
            if red is not None:
                op, vals = red
                prev = bars.reduce.get(bar)
                bars.reduce[bar] = (op, vals.copy() if prev is None else prev[1] | vals)
            self.advance(iss.ins.pc, iss, hold=("BAR", bar, iss.ins.pc), only=arriving)
        self._check_bar(bar)

    def _everyone_here(self, bar: int) -> bool:
        """Every living thread of the block issues this barrier now, and none waits at the barrier
        already (the usual ``__syncthreads()``): it completes as it is reached."""
        here = [0] * self.W
        for g in self.chosen:
            here[g.warp] |= g.bits
        if any(a & ~h for a, h in zip(self.alive.tolist(), here)) or bar in self.bars.reduce:
            return False
        return not any(k[0] == "BAR" and k[1] == bar and ws for k, ws in self.waiting.items())

    def _pass(self, pc: int, bar: int) -> None:
        """What holding the issuing groups at barrier ``bar`` (:meth:`advance`) and releasing them
        (:meth:`_check_bar`) come to when every thread is here (:meth:`_everyone_here`): the barrier
        completes and each group goes on past it, as the group a release makes."""
        for g in self.chosen:
            self.blocked[g.warp] = (g.split, g.memory)
        self._complete(bar, [(g.warp, g.bits, pc) for g in self.chosen], self.alive.tolist())

    def _complete(self, bar: int, held: list[tuple[int, int, int]], alive: list[int]) -> None:
        """Barrier ``bar`` completes: ``held`` (warp, lanes, the barrier's pc) go on past it, each
        living part as a group a release makes."""
        self.bars.arrived[bar] = 0
        self.bars.epoch += 1
        for w, bits, pc in held:
            if bits & alive[w]:
                self._add(Group(w, bits & alive[w], pc + 16), first=True)

    def _check_bar(self, bar) -> None:
        keys = [k for k in self.waiting if k[0] == "BAR" and k[1] == bar and self.waiting[k]]
        if not keys:
            return
        held = [0] * self.W  # each warp's lanes waiting here (a few Python ints: cheaper than arrays)
        for k in keys:
            for w, bits in self.waiting[k].items():
                held[w] |= bits
        bars = self.bars
        count = bars.count.get(bar, 0)
        alive = self.alive.tolist()
        if count:
            done = sum(1 for h in held if h) * WARP + bars.arrived.get(bar, 0) >= count
        else:
            done = not any(a & ~h for a, h in zip(alive, held))
        if not done:
            return
        if bar in bars.reduce:
            op, vals = bars.reduce.pop(bar)
            lanes = _lanes(np.array(held, "<u4"))
            v = vals[lanes]
            res = {"POPC": int(v.sum()), "AND": int(v.all()), "OR": int(v.any())}[op]
            bars.result[lanes] = res
        self._complete(bar, [(w, bits, k[2]) for k in keys for w, bits in self.waiting.pop(k).items()], alive)
