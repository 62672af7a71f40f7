"""Execute one thread block and record what every SASS instruction did.

:func:`execute` runs one block of a :class:`~.kernel.Kernel` (any front end's: CUDA source, a
binary, Triton): lay out the launch (:func:`prepare`), execute the block (:class:`Run`), and cost
every recorded shared-memory access with the model's wavefront engine (:func:`summarize`).
:func:`emulate` is the CUDA source front end followed by :func:`execute`. The result
(:class:`KernelRun`) has, per SASS instruction, what Nsight Compute's source page shows: executed warp instructions, active
threads, predicated-on threads, and for shared-memory instructions wavefronts and ideal.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field

import numpy as np

from . import alu_forms, compiled
from .decode import Program, decode
from .opcode import BRANCH_OPCODES, CONTROL_OPCODES, SELF_ADVANCING, SHARED_OPCODES, opcode_of
from .issue import EmulationError, Issue
from .kernel import Kernel
from .launch import (GLOBALS_BUFFER, LaunchConfig, LaunchError, SharedArray, constant_bank0, shared_arrays,
                     struct_params)
from .operands import Label
from .ops import table_for
from .record import TIMING, Accesses, Recorder
from .policy import DEFAULT as DEFAULT_SCHEDULE
from .policy import Schedule, schedule_named
from .simt import Scheduler
from .state import CONSTANTS_BASE, WARP, Block, Buffer, GlobalMemory

#: warp instructions one run may execute before it stops (a hostile or endless kernel)
MAX_WARP_INSTRUCTIONS = 20_000_000
#: seconds of execution one run may take before it stops: an endless loop ends in well under a
#: minute whatever rate the emulator reaches (the instruction budget alone took ~25 minutes at
#: 13,000 warp instructions a second)
MAX_SECONDS = 20.0
#: bytes of local memory (each thread's stack and spilled arrays, all threads together) a run may
#: hold: 8 MB a thread in a 1,024-thread block would take 8 GiB
MAX_LOCAL_BYTES = 512 << 20



class BudgetExceeded(EmulationError):
    pass


class Stopped(EmulationError):
    """Another thread asked the run to stop (:class:`Control`): its text changed, or the user said so.
    ``line``: the source line it was on (None: stopped before the block ran)."""

    def __init__(self, message: str, line: int | None = None):
        super().__init__(message)
        self.line = line


#: how often (in warp instructions) a run looks at its :class:`Control`: a few milliseconds of work
CHECK_EVERY = 2048


@dataclass
class Control:
    """Another thread's hold on a run (the window's worker runs kernels while the user types):
    :meth:`stop` makes it end with :class:`Stopped` within :data:`CHECK_EVERY` warp instructions
    (an endless loop would otherwise run on for minutes to its budget), and ``issued`` tells how
    far it got. ``ask_after``: seconds of executing after which the run waits, where it is, until
    :meth:`go_on` (for as long again) or :meth:`stop`: the window's budget in time, which asks
    instead of ending a long run (``paused`` says where it waits)."""

    stage: str = "compiling"  # compiling | executing
    issued: int = 0  # warp instructions executed so far (updated every CHECK_EVERY)
    ask_after: float | None = None
    #: while the run waits for :meth:`go_on`: the source line it is on (0: unknown), else None
    paused: int | None = None
    _stop: threading.Event = field(default_factory=threading.Event, repr=False)
    _go: threading.Event = field(default_factory=threading.Event, repr=False)
    _spent: float = field(default=0.0, repr=False)  # seconds executed before the last start or resume
    _since: float | None = field(default=None, repr=False)  # when executing last started or resumed
    _ask_at: float = field(default=0.0, repr=False)

    def stop(self) -> None:
        self._stop.set()

    @property
    def stopped(self) -> bool:
        return self._stop.is_set()

    @property
    def seconds(self) -> float:
        """Seconds spent executing so far (waits for :meth:`go_on` not counted)."""
        return self._spent + (time.perf_counter() - self._since if self._since is not None else 0.0)

    def begin(self) -> None:
        """The block starts executing."""
        self.stage, self._since, self._ask_at = "executing", time.perf_counter(), self.ask_after or 0.0

    def go_on(self) -> None:
        """Let a run that waits (``paused``) execute for another ``ask_after`` seconds."""
        self._go.set()

    def checkpoint(self, line: int) -> float:
        """Where the run looks at its control: past ``ask_after``, wait here for go on or stop.
        Returns the seconds it waited (the run's time budget does not count them)."""
        if self.ask_after is None or self._since is None or self.seconds < self._ask_at:
            return 0.0
        t = time.perf_counter()
        self._spent, self._since, self.paused = self.seconds, None, line
        while not self._go.wait(0.05) and not self.stopped:
            pass
        self._go.clear()
        self._ask_at = self._spent + self.ask_after
        self._since, self.paused = time.perf_counter(), None
        return self._since - t


class CompileFailed(LaunchError):
    """The text does not compile: ``log`` holds the compiler's messages."""

    def __init__(self, log: str):
        super().__init__(f"the kernel does not compile:\n{log.strip()}")
        self.log = log


@dataclass
class SassRow:
    """One SASS instruction's counts over the block's run (the columns of Nsight's source page).

    ``wavefronts`` is what the hardware serves (the model's engine, as everywhere in the app);
    ``source_page`` is set where Nsight's source page counts otherwise (a merged 8/16-byte load
    with a bank conflict), and the JSON export, which reproduces that page, reports it."""

    pc: int
    sass: str
    line: int
    executed: int = 0
    threads: int = 0
    pred_on_threads: int = 0
    wavefronts: int | None = None
    ideal: int | None = None
    data: tuple[str, ...] = ()  # pointer parameters its addresses depend on
    timing: bool = False  # its addresses depend on the order between warps
    source_page: int | None = None  # Nsight's source-page wavefronts, where they differ
    target: int | None = None  # where a branch, BSSY or call goes (byte offset in the code)
    #: the inexact scheduling policies (:mod:`.policy`) that decided some of its issues
    schedule: tuple[str, ...] = ()

    @property
    def certainty(self) -> str:
        """How far its counts are facts of the code: ``"exact"``; ``"data"`` (its addresses depend on
        the data in the buffers :attr:`data` names: the counts hold for this data); ``"schedule"``
        (the GPU's scheduling decided them: a policy that does not fit every probe, :attr:`schedule`,
        or the order in which warps reach shared memory, :attr:`timing`)."""
        if self.timing or self.schedule:
            return "schedule"
        return "data" if self.data else "exact"

    @property
    def decided_by(self) -> list[str]:
        """What decided a schedule-dependent count: the policies' names, and ``"warp order"`` for
        addresses from contended atomics or races between warps."""
        return list(self.schedule) + (["warp order"] if self.timing else [])

    @property
    def guarded_off(self) -> bool:
        """Issued, but no thread's guard held (nvcc's ``@!PT LDS RZ, [RZ]`` padding after a cp.async):
        it made no access, so per-line views leave it out; the per-SASS counts keep it, as Nsight does."""
        return bool(self.executed) and not self.pred_on_threads

    @property
    def nsight_wavefronts(self) -> int | None:
        """The wavefronts Nsight Compute's source page shows for this instruction."""
        return self.source_page if self.source_page is not None else self.wavefronts

    @property
    def opcode(self) -> str:
        return opcode_of(self.sass)

    def to_json(self) -> dict:
        d = {"pc": self.pc, "sass": self.sass, "line": self.line, "executed": self.executed,
             "threads": self.threads, "pred_on_threads": self.pred_on_threads}
        if self.wavefronts is not None:
            d["wavefronts"] = self.nsight_wavefronts
            d["ideal"] = self.ideal
            if self.source_page is not None:
                d["hardware_wavefronts"] = self.wavefronts
        if self.data:
            d["data"] = list(self.data)
        if self.timing:
            d["timing_dependent"] = True
        d["certainty"] = self.certainty
        if self.certainty == "schedule":
            d["schedule"] = self.decided_by
        if self.target is not None:
            d["target"] = self.target
        return d


#: how a run's note on a line whose counts a scheduling policy decided begins (the per-line views
#: of a saved kernel find those lines by it)
SCHEDULE_NOTE = "counts here follow a scheduling policy that does not fit all of its probes"


@dataclass
class KernelRun:
    arch: str
    kernel: str  # the source name
    symbol: str
    block: tuple[int, int, int]
    block_index: tuple[int, int, int]
    rows: list[SassRow]
    accesses: Accesses
    arrays: list[SharedArray] | None
    buffers: dict[str, np.ndarray]  # pointer parameter -> its buffer after the run
    #: pointer parameter -> bytes whose final value depends on the order between warps
    timing_bytes: dict[str, np.ndarray] = field(default_factory=dict)
    timing_dependent: bool = False
    notes: list[tuple[int, str]] = field(default_factory=list)  # (line, message)
    seconds: float = 0.0
    warp_instructions: int = 0
    optimized: bool = True  # False: the unoptimised build (-G), the source as written
    #: what the kernel's printf calls printed, (line, text) per line in the order the threads called
    #: (a warp's lanes in order), at most ``calls.MAX_LINES``; ``printed_dropped`` lines past that
    printed: list[tuple[int, str]] = field(default_factory=list)
    printed_dropped: int = 0
    #: the scheduling policies it ran under (:data:`.policy.SCHEDULES`)
    schedule: str = "h100"
    kernel_object: Kernel | None = field(default=None, repr=False)  # what was executed (any front end)

    @property
    def schedule_dependent(self) -> bool:
        """Some count was decided by the GPU's scheduling (an inexact policy, or the warps' order)."""
        return any(r.certainty == "schedule" for r in self.rows)

    def to_json(self, arrays_by_pc: dict[int, str] | None = None) -> dict:
        rows = [r.to_json() for r in self.rows]
        for d in rows:
            if arrays_by_pc and d["pc"] in arrays_by_pc:
                d["array"] = arrays_by_pc[d["pc"]]
        build = {} if self.optimized else {"build": "as written (-G)"}
        return {"arch": self.arch, **build, "block": list(self.block), "block_index": list(self.block_index),
                "kernel": self.kernel, "timing_dependent": self.timing_dependent,
                "schedule": self.schedule, "schedule_dependent": self.schedule_dependent,
                "notes": [{"line": ln, "message": m} for ln, m in self.notes],
                **({"printf": [{"line": ln, "text": t} for ln, t in self.printed]} if self.printed else {}),
                "warp_instructions": self.warp_instructions, "sass": rows}


class Run:
    """The execution loop: pick the next issue (:class:`Scheduler`), run its semantics, count."""

    def __init__(self, program: Program, block: Block, arch: str, buffers: list[str],
                 budget: int = MAX_WARP_INSTRUCTIONS, as_written: bool = False, control: Control | None = None,
                 seconds: float | None = MAX_SECONDS, contended: frozenset[int] = frozenset(),
                 schedule: Schedule = DEFAULT_SCHEDULE):
        self.program = program
        self.block = block
        self.table = table_for(arch)
        self.buffers = buffers
        self.record = Recorder(program, block.lanes, as_written)
        self.budget = budget
        self.control = control
        self.issued = 0
        self.printed: list[tuple[int, str]] = []  # printf's lines (sass/calls.py)
        self.printed_dropped = 0
        self.printf_bytes = 0  # printf work so far (sass/calls.MAX_PRINTF_BYTES bounds it)
        self.seconds = seconds
        self._deadline = None if seconds is None else time.monotonic() + seconds
        self._check_at = min(budget, CHECK_EVERY)  # the next look past the count
        self.timing_notes: dict[int, str] = {}
        self.data_branches: dict[int, int] = {}  # instruction index -> taint of a deciding predicate
        self._clock = 0
        #: shared words (and barrier epochs) that several warps take returning atomics' results from,
        #: known before the run (``ops.memory._contended_results``); the first warp's taking is noted
        #: in ``atomic_takers``, a later warp's in ``contended_late`` (then the block runs again)
        self.contended = contended
        self.atomic_takers: dict[int, int] = {}
        self.contended_late: set[int] = set()
        self.sched = Scheduler(self, program.instructions[0].pc, schedule)

    # ------------------------------------------------------------------ hooks the opcodes call
    def clock(self) -> np.ndarray:
        self._clock += 1
        return np.full(self.block.lanes, self.issued * 4 + self._clock, np.uint32)

    def note_timing(self, ins, message: str) -> None:
        self.timing_notes.setdefault(ins.line, message)

    def _checkpoint(self, ins) -> None:
        """Past the budget, or time to look at the clock and the control: every :data:`CHECK_EVERY`
        warp instructions (one int compare per issue otherwise)."""
        if self.issued > self.budget:
            raise BudgetExceeded(f"stopped after {self.budget:,} warp instructions (line {ins.line}, "
                                 f"{ins.text!r}): the kernel does not finish within the budget (an "
                                 f"endless or very long loop?); raise it with --max-instructions")
        if self._deadline is not None and time.monotonic() > self._deadline:
            raise BudgetExceeded(f"stopped after {self.seconds:g} s ({self.issued:,} warp instructions; line "
                                 f"{ins.line}, {ins.text!r}): the kernel does not finish within the time budget (an "
                                 f"endless or very long loop?); raise it with --max-seconds")
        c = self.control
        if c is not None:
            c.issued = self.issued
            waited = c.checkpoint(ins.line)
            if waited and self._deadline is not None:
                self._deadline += waited
            if c.stopped:
                raise Stopped(f"stopped on request after {self.issued:,} warp instructions, at line {ins.line}",
                              ins.line)
        self._check_at = min(self.budget, self.issued + CHECK_EVERY)

    # ------------------------------------------------------------------ the loop
    def _steps(self) -> list[tuple]:
        """Per instruction, what its issues need, looked up once (not on every issue): the
        instruction, its semantics (None: not modelled), whether it is control flow (its semantics
        are :mod:`.simt`'s, which reads where the issuing groups are), whether its threads move on
        themselves (:data:`.opcode.SELF_ADVANCING`), and whether it is a guarded branch whose
        predicate's data taint is noted (:attr:`data_branches`)."""
        steps = []
        for ins in self.program.instructions:
            base = ins.base
            steps.append((ins, self.table.get(base), base in CONTROL_OPCODES or base in SELF_ADVANCING,
                          base in SELF_ADVANCING,
                          base in ("BRA", "BREAK") and ins.guard is not None and not ins.guard.true))
        return steps

    def execute(self) -> None:
        """Issue until every thread has exited. Where the same threads run straight-line code in
        lockstep (:meth:`.Scheduler.straight_on`), the groups are moved on once per stretch
        (:meth:`.Scheduler.moved_on`), before the next control-flow instruction, not per issue."""
        sched, record = self.sched, self.record
        index_of = self.program.index_of
        steps = self._steps()
        if self.control is not None:
            self.control.begin()
        memos: list[dict] = [{} for _ in steps]  # per instruction: what its semantics worked out once (Issue.memo)
        issues: list[Issue | None] = [None] * len(steps)  # per instruction: its Issue, started afresh each time
        # per instruction: its form as the compiled module runs it, and the trace of forms from it on
        # (alu_forms; None: the table's function runs it), looked at on its first issue
        forms: list = [alu_forms.UNPLANNED] * len(steps)
        traces: list = [alu_forms.UNPLANNED if compiled.alu is not None else None] * len(steps)
        block = self.block
        executed, issued_threads, pred_on = record.executed, record.threads, record.pred_on
        last, warps, threads = None, 0, 0  # the last issuing threads, their warps and their count
        with np.errstate(all="ignore"):
            while True:
                nxt = sched.next()
                if nxt is None:
                    return
                pc, S = nxt
                if S is not last:  # (the same threads come as the same array, stretch after stretch)
                    last, warps, threads = S, int(S.reshape(-1, WARP).any(axis=1).sum()), int(np.count_nonzero(S))
                start, pending = pc, 0  # straight-line issues since start that the groups have not been moved by
                while True:  # the same threads issue on, instruction after instruction, while straight_on says so
                    k = index_of[pc]
                    ins, fn, control, self_advancing, guarded_branch = steps[k]
                    if fn is None:
                        raise EmulationError(f"the SASS instruction {ins.text!r} ({ins.base}) is not modelled, so "
                                             f"this kernel cannot be executed", ins.line)
                    if control and pending:
                        sched.moved_on(start, pending)
                        pending = 0
                    tr = traces[k]
                    if tr is not None:
                        if tr is alu_forms.UNPLANNED:
                            tr = traces[k] = alu_forms.trace_from(self, k, forms)
                        # the block's threads issue the forms from here on together, in one call, where no
                        # look at the budget or the control falls among them
                        if tr is not None and sched.alone and tr.straight and \
                                self.issued + warps * tr.m <= self._check_at:
                            counts = alu_forms.run(tr, block, S)
                            if counts is not None:
                                for j, on in enumerate(counts, k):
                                    executed[j] += warps
                                    issued_threads[j] += threads
                                    pred_on[j] += on
                                self.issued += warps * tr.m
                                if not pending:
                                    start = pc
                                pending += tr.m
                                pc += 16 * tr.m
                                continue
                    iss = issues[k]
                    iss = issues[k] = Issue(self, ins, S, memos[k]) if iss is None else iss.again(S)
                    # the counts of Nsight's source page (:class:`.record.Recorder`), in line: every issue adds them
                    executed[k] += warps
                    issued_threads[k] += threads
                    pred_on[k] += threads if iss.on is S else int(np.count_nonzero(iss.on))
                    self.issued += warps
                    if self.issued > self._check_at:
                        self._checkpoint(ins)
                    try:
                        if tr is None or alu_forms.run(tr.first, block, S) is None:
                            fn(iss)
                    except EmulationError:
                        raise
                    except (LookupError, ValueError, TypeError, AttributeError) as e:
                        raise EmulationError(f"cannot execute {ins.text!r}: {e}", ins.line) from None
                    if guarded_branch:
                        t = np.bitwise_or.reduce(np.where(S, self.block.predicate_taint(ins.guard.index)
                                                          if not ins.guard.uniform
                                                          else self.block.UPT[ins.guard.index][self.block.warp_of], 0))
                        if t:
                            self.data_branches[k] = self.data_branches.get(k, 0) | int(t)
                    if self_advancing:
                        break
                    if sched.alone and not iss.jumps and iss.exited is None and pc + 16 in index_of:  # sched.straight
                        if not pending:
                            start = pc
                        pending += 1
                        pc += 16
                        continue
                    if pending:
                        sched.moved_on(start, pending)
                    sched.advance(pc, iss)
                    break


def _branch_target(ins) -> int | None:
    """The code offset a branch-like instruction names (:data:`.opcode.BRANCH_OPCODES`); None for
    every other instruction."""
    if ins.base not in BRANCH_OPCODES:
        return None
    return next((o.target for o in ins.operands if isinstance(o, Label)), None)


@dataclass
class Prepared:
    """A kernel laid out for one block's launch: its decoded code, the block's state (registers,
    shared memory, constant banks, global buffers) and the pointer parameters' buffers."""

    kernel: Kernel
    program: Program
    block: Block
    buffers: list[Buffer]
    arrays: list[SharedArray] | None


def prepare(kernel: Kernel, cfg: LaunchConfig, program: Program | None = None) -> Prepared:
    """Lay out one block's launch of ``kernel`` as the driver would (constant bank 0, buffers,
    shared memory: the static arrays plus the dynamic size where the kernel has dynamic shared
    memory or cannot tell). ``program``: the kernel's code as an earlier prepare of the same launch
    decoded it (the same bytes at the same addresses), else it is decoded here."""
    image = kernel.image
    bank0, buffers = constant_bank0(image, cfg, kernel.params, kernel.arch)
    gbase = next((buf.base for buf in buffers if buf.name == GLOBALS_BUFFER), None)
    if program is None:
        program = decode(kernel.sass, kernel.symbol, kernel.line_file,  # -G code loads a variable's address as 32@lo(name)
                         {k: gbase + v for k, v in image.globals_at.items()} if gbase is not None else None)
    dynamic = kernel.dynamic_shared if kernel.dynamic_shared is not None else True
    extern = cfg.extern_bytes if dynamic else 0
    arrays = shared_arrays(image.ptx, image.static_shared, extern) if image.ptx else None
    shared_bytes = -(-image.static_shared // 16) * 16 + extern
    banks = {0: bank0, **{k: np.frombuffer(v, np.uint8).copy() for k, v in image.banks.items()}}
    for bank_no, off, address in image.patches:
        if bank_no in banks and off + 8 <= banks[bank_no].size:
            banks[bank_no][off:off + 8] = np.frombuffer(int(address).to_bytes(8, "little"), np.uint8)
    memory = list(buffers)
    if 3 in image.banks:  # __constant__ data, read through a generic pointer (code built with -G)
        memory.append(Buffer("(constant data)", CONSTANTS_BASE, np.frombuffer(image.banks[3], np.uint8).copy(),
                             static=True))
    lanes = -(-int(np.prod(cfg.block)) // WARP) * WARP
    if lanes * image.local_bytes > MAX_LOCAL_BYTES:
        raise LaunchError(f"the kernel needs {image.local_bytes:,} bytes of local memory per thread (its stack and "
                          f"local arrays): {lanes * image.local_bytes / (1 << 20):,.0f} MiB for {lanes:,} threads, "
                          f"more than the {MAX_LOCAL_BYTES >> 20:,} MiB a run may hold (smaller per-thread arrays or "
                          f"a smaller block)")
    block = Block(cfg.block, cfg.block_index, cfg.grid, shared_bytes, image.local_bytes, banks,
                  GlobalMemory(memory))
    return Prepared(kernel, program, block, buffers, arrays)


def execute(kernel: Kernel, cfg: LaunchConfig, budget: int = MAX_WARP_INSTRUCTIONS, control: Control | None = None,
            timings: dict[str, float] | None = None, seconds: float | None = MAX_SECONDS,
            schedule: str | None = None) -> KernelRun:
    """Execute one block of ``kernel`` (any front end's) as ``cfg`` launches it and count every SASS
    instruction: :func:`prepare`, :class:`Run`, :func:`summarize`. ``budget`` and ``seconds`` bound
    the execution (warp instructions, seconds; None: no time limit); ``schedule`` names the
    scheduling policies (:data:`.policy.SCHEDULES`; default the measured ``"h100"``)."""
    policies = schedule_named(schedule)
    t0 = time.perf_counter()
    p = prepare(kernel, cfg)
    if control is not None:
        if control.stopped:
            raise Stopped("stopped on request before the block was executed")
        control.stage = "executing"
    t1 = time.perf_counter()
    contended: frozenset[int] = frozenset()
    while True:
        run = Run(p.program, p.block, kernel.arch, [buf.name for buf in p.buffers], budget,
                  as_written=not kernel.optimized, control=control, seconds=seconds, contended=contended,
                  schedule=policies)
        if not kernel.optimized:
            from .written import aggregate_runs

            run.record.aggregate_runs = aggregate_runs(kernel.image.ptx, p.program)
        run.execute()
        if not run.contended_late:
            break
        # a warp took a returning atomic's result from a word another warp had taken one from
        # before: that earlier result was the GPU's timing too. Again, knowing those words (the
        # same code and data reach them again; a word found only now is added, a few rounds at most),
        # from the launch as it was
        contended = contended | frozenset(run.contended_late)
        p = prepare(kernel, cfg, p.program)  # (the code as decoded: only the block starts again)
    t2 = time.perf_counter()
    out = summarize(p, run, cfg, policies)
    if timings is not None:
        timings.update(decode=t1 - t0, execute=t2 - t1, cost=time.perf_counter() - t2)
    out.seconds = time.perf_counter() - t0
    return out


def summarize(p: Prepared, run: Run, cfg: LaunchConfig, policies: Schedule) -> KernelRun:
    """The counts of an executed :class:`Run` per SASS instruction, shared-memory instructions
    costed with the model's wavefront engine, and the notes on data and timing dependence."""
    program, buffers, kernel = p.program, p.buffers, p.kernel
    acc = run.record.accesses()
    rec = run.record
    rows = [SassRow(ins.pc, ins.text, ins.line, int(rec.executed[i]), int(rec.threads[i]), int(rec.pred_on[i]),
                    target=_branch_target(ins)) for i, ins in enumerate(program.instructions)]
    if acc.index.size:  # a header function's shared access: on the user's line that called it most
        static = np.array([ins.line for ins in program.instructions], np.int64)[acc.index]
        for i in np.unique(acc.index[acc.line != static]):
            lines, counts = np.unique(acc.line[acc.index == i], return_counts=True)
            rows[i].line = int(lines[counts.argmax()])
    for i, ins in enumerate(program.instructions):
        if ins.pc in run.sched.decided:
            rows[i].schedule = tuple(sorted(run.sched.decided[ins.pc]))
    shared_idx = {i for i, ins in enumerate(program.instructions) if ins.base in SHARED_OPCODES}
    for i in shared_idx:
        rows[i].wavefronts, rows[i].ideal = 0, 0
    if acc.index.size:
        wf = np.zeros(len(rows), np.int64)
        idl = np.zeros(len(rows), np.int64)
        np.add.at(wf, acc.index, acc.wavefronts)
        np.add.at(idl, acc.index, acc.ideal)
        sp = np.zeros(len(rows), np.int64)
        np.add.at(sp, acc.index, acc.source_page)
        taint = np.zeros(len(rows), np.uint64)
        np.bitwise_or.at(taint, acc.index, acc.taint.astype(np.uint64))
        for i in np.unique(acc.index):
            r = rows[i]
            r.wavefronts, r.ideal = int(wf[i]), int(idl[i])
            r.source_page = int(sp[i]) if sp[i] != wf[i] else None
            t = int(taint[i])
            r.data = tuple(n for k, n in enumerate(run.buffers) if t >> k & 1)
            r.timing = bool(t & int(TIMING))
    notes: list[tuple[int, str]] = []
    for r in rows:
        if r.data:
            names = ", ".join(f"`{n}`" for n in r.data)
            given = [n for n in r.data if cfg.arrays.get(n)]
            fill = "" if len(given) == len(r.data) else " (zero-filled: no data was given)"
            op = r.opcode
            notes.append((r.line, f"{op}: its addresses depend on the data in {names}{fill}"))
        if r.source_page is not None:
            notes.append((r.line, f"{r.opcode}: {r.wavefronts:,} wavefronts served; Nsight Compute's source page "
                                  f"shows {r.source_page:,} (it counts a merged 8/16-byte phase that has a bank "
                                  f"conflict as its halves)"))
    for r in rows:
        if r.schedule:
            said = "; ".join(f"{p.name} ({p.score})" for p in policies.policies if p.name in r.schedule)
            notes.append((r.line, f"{SCHEDULE_NOTE}, {said}: the GPU's scheduling decides them"))
    for k, t in run.data_branches.items():
        names = [n for j, n in enumerate(run.buffers) if t >> j & 1]
        if names:
            notes.append((program.instructions[k].line, "a branch here depends on the data in "
                          + ", ".join(f"`{n}`" for n in names) + ": the counts hold for this data"))
    timing = bool(run.timing_notes) or any(r.timing for r in rows) or \
        any(t & int(TIMING) for t in run.data_branches.values())
    for line, m in run.timing_notes.items():
        notes.append((line, m))
    for k, t in run.data_branches.items():
        if t & int(TIMING):
            notes.append((program.instructions[k].line, "a branch here depends on the order in which warps reach "
                                                        "shared memory: its counts depend on the GPU's timing"))
    for sp in struct_params(kernel.params, cfg):
        notes.append((0, f"{sp.label} ({sp.type or 'a structure'}, {sp.size} bytes) is "
                         f"zero-filled: give its bytes with --arg {sp.keys[0]}=FILE.npy"))
    final = {buf.name: buf.data for buf in buffers}
    timed = {buf.name: buf.timing for buf in buffers if buf.timing is not None and buf.timing.any()}
    for n, tb in timed.items():
        notes.append((0, f"`{n}`: {int(tb.sum()):,} bytes hold values that depend on the order in which warps "
                         f"reached shared memory (a race or contended atomics): another GPU run may differ"))
    return KernelRun(kernel.arch, kernel.name, kernel.symbol, cfg.block, cfg.block_index, rows, acc, p.arrays, final,
                     timed, timing, sorted(set(notes)), 0.0, run.issued, kernel.optimized, run.printed,
                     run.printed_dropped, policies.name, kernel)
