"""Compile and execute a kernel off the window's thread: Import CUDA's runs as the text changes,
and "Re-run as compiled".

:class:`Launch` is everything one run needs (text, block, block index, grid, scalar values, the
bytes of the attached arrays, architecture); :func:`execute` runs it (NVRTC in its child process,
then the emulator: ``sass.run.emulate`` and ``sass.to_pattern.kernel_pattern``) and never raises:
a problem is the :class:`Outcome`'s message. :class:`KernelRunner` runs one launch at a time on a
worker thread; a launch submitted while one runs stops that one (its result would be stale: a
kernel stuck in an endless loop must not hold up the next text for minutes) and waits, replacing
any other waiting one, and each result comes back with its generation, so a caller drops results
for a text that has changed since.
"""

from __future__ import annotations

import re
import threading
import time
import weakref
from dataclasses import dataclass, field

from PySide6.QtCore import QCoreApplication, QElapsedTimer, QEventLoop, QObject, Signal

#: a compile log line: "kernel.cu(7): error: identifier "nope" is undefined"
_LOG_LINE = re.compile(r"^[^\n(]*\((\d+)\):\s*(error|warning|catastrophic error)\s*:?\s*(.*)$", re.M)


@dataclass(frozen=True)
class Launch:
    text: str
    name: str = "kernel"
    block: tuple[int, int, int] = (32, 1, 1)
    block_index: tuple[int, int, int] = (0, 0, 0)
    grid: tuple[int, int, int] | None = None  # None: one block more than the index, per dimension
    scalars: tuple[tuple[str, int | float], ...] = ()
    arrays: tuple[tuple[str, bytes], ...] = ()  # pointer parameter -> the bytes its buffer starts with
    inputs: tuple[tuple[str, str], ...] = ()  # pointer parameter -> the file the bytes came from (its name)
    arch: str = "sm_90"
    path: str | None = None  # the kernel's file (its folder is where local #includes are found)
    extern_bytes: int | None = None
    origin: str = ""  # where the block size came from (shown with it)
    binary: bytes | None = None  # a cubin, fatbin, executable or library: its kernel runs, ``text`` is its source

    def config(self):
        from ..sass.launch import EXTERN_BYTES, LaunchConfig

        grid = self.grid or tuple(i + 1 for i in self.block_index)
        return LaunchConfig(tuple(self.block), tuple(self.block_index), tuple(grid), dict(self.scalars),
                            dict(self.arrays), EXTERN_BYTES if self.extern_bytes is None else self.extern_bytes)


@dataclass
class Outcome:
    launch: Launch
    run: object | None = None  # sass.run.KernelRun
    pattern: object | None = None  # model.pattern.Pattern (None when too large to keep: ``message`` says so)
    message: str = ""  # why there is no run, or why there is no pattern
    stopped: bool = False  # stopped on request (KernelRunner.stop or a newer launch) before it finished
    problems: list[tuple[int, str]] = field(default_factory=list)  # (line, message) to mark in the code
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        return self.run is not None


def compile_problems(log: str) -> list[tuple[int, str]]:
    """(line, message) of each error and warning in a compile log."""
    return [(int(m.group(1)), f"{m.group(2)}: {m.group(3).strip()}") for m in _LOG_LINE.finditer(log)]


def execute(launch: Launch, control=None) -> Outcome:
    """Compile and execute ``launch`` and make its pattern; every problem becomes the message.
    ``control`` (a ``sass.run.Control``) lets another thread stop the run and follow it."""
    from ..compiler.nvrtc import CompilerUnavailable
    from ..sass.issue import EmulationError
    from ..sass.launch import LaunchError
    from ..sass.run import MAX_SECONDS, Stopped, emulate
    from ..sass.state import MemoryFault
    from ..sass.to_pattern import PatternTooLarge, kernel_pattern

    t0 = time.perf_counter()
    out = Outcome(launch)
    cfg = launch.config()
    try:
        # a run that asks to go on (Control.ask_after) has no time budget of its own: the user decides
        seconds = None if control is not None and control.ask_after else MAX_SECONDS
        if launch.binary is not None:  # the binary front end: the code as the user built it
            from ..kernels.binary import from_binary
            from ..sass.run import execute as execute_block

            run = execute_block(from_binary(launch.binary, None, launch.path, launch.arch), cfg, control=control,
                                seconds=seconds)
        else:
            run = emulate(launch.text, cfg, launch.arch, path=launch.path, control=control, seconds=seconds)
    except CompilerUnavailable as e:
        out.message = str(e)
    except Stopped as e:
        out.message, out.stopped = str(e), True
        if e.line:  # where it was: an endless loop's line, marked in the code
            out.problems = [(e.line, f"warning: {e}")]
    except LaunchError as e:
        text = str(e)
        out.problems = compile_problems(text)
        # the header a user reads first says what is wrong, not "...does not compile:" and nothing more
        head = text.split("\n")[0].rstrip(": ")
        out.message = f"{head}: line {out.problems[0][0]}: {out.problems[0][1]}" if out.problems else text
    except (EmulationError, MemoryFault) as e:
        out.message = str(e)
        m = re.match(r"line (\d+):", str(e))
        if m:
            out.problems = [(int(m.group(1)), str(e)[m.end():].strip())]
    except Exception as e:  # noqa: BLE001 - an include refused, a compiler crash: said, never raised
        line = getattr(e, "line", None)
        msg = getattr(e, "message", None) or str(e) or type(e).__name__
        out.message = f"line {line}: {msg}" if line else msg
        if line:
            out.problems = [(int(line), msg)]
    else:
        out.run = run
        try:
            out.pattern = kernel_pattern(run, launch.text, launch.name, launch.origin, cfg, dict(launch.inputs),
                                         launch.path)
        except PatternTooLarge as e:
            out.message = str(e)
    out.seconds = time.perf_counter() - t0
    return out


#: seconds a kernel executes in the window before it waits for the user to let it go on (or stop
#: it): an endless loop costs seconds, and a long kernel loses nothing by being asked
ASK_AFTER = 10.0


class KernelRunner(QObject):
    """One run at a time on a worker thread. ``finished(generation, Outcome)`` comes on the
    window's thread; :meth:`submit` returns the generation of the launch it queued."""

    finished = Signal(int, object)
    _done = Signal(int, object)

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self.ask_after: float | None = ASK_AFTER  # seconds of executing before a run asks to go on
        self.generation = 0
        self._running = False
        self._control = None  # the running launch's sass.run.Control
        self._waiting: tuple[int, Launch] | None = None
        self._done.connect(self._on_done)

    @property
    def busy(self) -> bool:
        return self._running or self._waiting is not None

    @property
    def progress(self) -> tuple[str, int] | None:
        """(stage, warp instructions executed so far) of the running launch; None when none runs."""
        c = self._control
        return (c.stage, c.issued) if self._running and c is not None else None

    @property
    def seconds(self) -> float:
        """Seconds the running launch has spent executing its block (0 while it compiles)."""
        c = self._control
        return c.seconds if self._running and c is not None else 0.0

    @property
    def paused(self) -> int | None:
        """The source line the running launch waits on after :data:`ASK_AFTER` seconds of executing
        (0: unknown), until :meth:`go_on` or :meth:`stop`; None when it does not wait."""
        c = self._control
        return c.paused if self._running and c is not None else None

    def go_on(self) -> None:
        """Let the waiting launch execute for another :data:`ASK_AFTER` seconds."""
        if self._control is not None:
            self._control.go_on()

    def submit(self, launch: Launch) -> int:
        self.generation += 1
        if self._running:
            self._waiting = (self.generation, launch)  # replaces an older waiting one: it is stale
            self.stop()  # and so is the running one
        else:
            self._start(self.generation, launch)
        return self.generation

    def cancel(self) -> None:
        """Forget what waits and stop the running launch (its result is stale)."""
        self._waiting = None
        self.generation += 1
        self.stop()

    def stop(self) -> None:
        """Stop the running launch: it ends within a few milliseconds of emulation, or once the
        compiler returns, with an outcome that says it was stopped."""
        if self._control is not None:
            self._control.stop()

    def _start(self, gen: int, launch: Launch) -> None:
        from ..sass.run import Control

        self._running = True
        control = self._control = Control(ask_after=self.ask_after)
        ref = weakref.ref(self)

        def work() -> None:
            out = execute(launch, control)
            me = ref()
            if me is not None:
                try:
                    me._done.emit(gen, out)
                except RuntimeError:  # the runner was deleted meanwhile
                    pass

        threading.Thread(target=work, daemon=True, name="kernel-run").start()

    def _on_done(self, gen: int, out: Outcome) -> None:
        self._running = False
        self._control = None
        if self._waiting is not None:
            g, launch = self._waiting
            self._waiting = None
            self._start(g, launch)
        self.finished.emit(gen, out)

    def wait(self, timeout_ms: int = 60000) -> bool:
        """Process events until nothing runs or waits (tests, screenshots, the app's exit)."""
        t = QElapsedTimer()
        t.start()
        while self.busy and t.elapsed() < timeout_ms:
            QCoreApplication.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 50)
            time.sleep(0.01)  # the worker needs the interpreter: a spinning loop would take it
        return not self.busy


# ---- what an imported kernel was launched with (for "Re-run as compiled") -------------------------
@dataclass
class Session:
    """The launch an imported kernel's pattern came from, beyond what the pattern file keeps: the
    attached arrays' bytes and the kernel's file."""

    arrays: dict[str, bytes]
    path: str | None = None
    extern_bytes: int | None = None


_SESSIONS: dict[int, tuple[weakref.ref, Session]] = {}


def remember(kernel, session: Session) -> None:
    """Keep ``session`` for the pattern's ``KernelSource`` (as long as that lives)."""
    for k in [k for k, (r, _s) in _SESSIONS.items() if r() is None]:
        del _SESSIONS[k]
    _SESSIONS[id(kernel)] = (weakref.ref(kernel), session)


def session_of(kernel) -> Session | None:
    hit = _SESSIONS.get(id(kernel))
    return hit[1] if hit is not None and hit[0]() is kernel else None
