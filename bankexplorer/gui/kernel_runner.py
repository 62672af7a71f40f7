"""Compile and execute a kernel off the window's thread: Import CUDA's runs as the text changes,
and "Re-run as compiled".

:class:`Launch` is everything one run needs (text, block, block index, grid, scalar values, the
bytes of the attached arrays, architecture); :func:`execute` runs it (NVRTC in its child process,
then the emulator: :func:`bankexplorer.kernels.service.run` and ``sass.to_pattern.kernel_pattern``)
and never raises: a problem is the :class:`Outcome`'s message. :class:`KernelRunner` runs one launch at a time on a
worker thread; a launch submitted while one runs stops that one (its result would be stale: a
kernel stuck in an endless loop must not hold up the next text for minutes) and waits, replacing
any other waiting one, and each result comes back with its generation, so a caller drops results
for a text that has changed since.
"""

from __future__ import annotations

import threading
import time
import weakref
from dataclasses import dataclass, field, replace

from PySide6.QtCore import QCoreApplication, QElapsedTimer, QEventLoop, QObject, Signal

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
    problems: list = field(default_factory=list)  # compiler.diagnostics.Diagnostic: what to mark in the code
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        return self.run is not None


def execute(launch: Launch, control=None) -> Outcome:
    """Compile and execute ``launch`` (:func:`bankexplorer.kernels.service.run`) and make its
    pattern; every problem becomes the message, and those at a line of the text the marks in the
    code. ``control`` (a ``sass.run.Control``) lets another thread stop the run and follow it."""
    from ..compiler.diagnostics import Diagnostic
    from ..kernels.service import KernelSource, RunFailed, run
    from ..sass.run import MAX_SECONDS
    from ..sass.to_pattern import PatternTooLarge, kernel_pattern

    t0 = time.perf_counter()
    out = Outcome(launch)
    cfg = launch.config()
    try:
        # a run that asks to go on (Control.ask_after) has no time budget of its own: the user decides
        seconds = None if control is not None and control.ask_after else MAX_SECONDS
        # a binary: the code as the user built it (``text`` is its source, shown beside it)
        r = run(KernelSource(launch.text, launch.binary, launch.path, launch.arch), cfg, control=control,
                seconds=seconds)
    except RunFailed as e:
        out.message, out.stopped = str(e), e.kind == "stopped"
        if e.diagnostics:  # the compiler's messages, each at its line and column, as the editor words them
            out.problems = [replace(d, message=d.message.removeprefix("compiler ")) for d in e.diagnostics]
            # the header a user reads first says what is wrong, not "...does not compile:" and nothing more
            head = out.message.split("\n")[0].rstrip(": ")
            out.message = f"{head}: line {e.line}: {out.problems[0].message}"
        elif e.line:  # an endless loop's line, the instruction it could not execute, a refused include
            out.problems = [Diagnostic(e.line, 1, e.reason, "warning")]
    except Exception as e:  # noqa: BLE001 - a compiler crash: said, never raised
        out.message = str(e) or type(e).__name__
    else:
        out.run = r
        try:
            out.pattern = kernel_pattern(r, launch.text, launch.name, launch.origin, cfg, dict(launch.inputs),
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
