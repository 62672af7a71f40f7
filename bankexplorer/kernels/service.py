"""Run a kernel: the one way the command line, the Python API and the window start a run.

A :class:`KernelSource` says what to run (CUDA text or a binary's bytes, which kernel, the build);
:func:`load` hands it to its front end (:mod:`.cuda_source` compiles the text, :mod:`.binary`
reads the sm_90 code) and gets a :class:`~bankexplorer.sass.kernel.Kernel`; :func:`execute` runs
one block of it (:func:`bankexplorer.sass.run.execute`: prepare the launch, execute the block,
summarize the counts per SASS instruction); :func:`run` does both. Every way a run can fail comes
out as one :class:`RunFailed`, whose ``kind`` says which stage failed and whose ``line`` and
``diagnostics`` say where in the user's text, as fields: the callers word the message their own
way (a terminal's ``file:line:``, the API's argument name, the window's marks in the code) and
none of them reads a line number back out of a message.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from ..compiler.diagnostics import Diagnostic, compiler_diagnostics
from ..sass.kernel import Kernel
from ..sass.launch import LaunchConfig
from ..sass.run import MAX_SECONDS, MAX_WARP_INSTRUCTIONS, Control, KernelRun


@dataclass(frozen=True)
class KernelSource:
    """What to run: CUDA source ``text`` (compiled here), or a ``binary``'s bytes (a cubin, fatbin,
    executable or shared library, whose sm_90 code runs; ``text`` is then unused). ``path`` is the
    file it came from (a source's folder is where its local ``#include`` files are found).
    ``kernel`` names the kernel (None: the first); ``defines`` are macros (``-D`` values that name no
    kernel parameter); ``optimize=False`` is the source as written (the unoptimised build, -G)."""

    text: str = ""
    binary: bytes | None = None
    path: str | None = None
    arch: str = "sm_90"
    kernel: str | None = None
    defines: dict[str, int | float] = field(default_factory=dict)
    include_dirs: tuple[str, ...] = ()
    optimize: bool = True


class RunFailed(Exception):
    """Why a kernel did not run, once for every caller.

    ``kind`` is the stage: ``compiler`` (no compiler here), ``compile`` (the text does not compile:
    ``diagnostics`` holds the compiler's messages, each with its line and column), ``include`` (an
    ``#include`` refused or unreadable), ``kernel`` (the front end cannot make the kernel: no such
    kernel, a binary without sm_90 code, parameters it cannot match), ``launch`` (the launch does
    not fit the kernel: an argument, a size), ``execute`` (the block cannot be executed: an
    instruction not modelled, a memory fault, an endless loop, the budget) or ``stopped`` (another
    thread stopped it). ``line`` is the source line it names (None: none); ``reason`` the message
    without it; ``cause`` the front end's or the emulator's own exception."""

    def __init__(self, kind: str, message: str, line: int | None = None, reason: str | None = None,
                 diagnostics: list[Diagnostic] | None = None, cause: BaseException | None = None):
        super().__init__(message)
        self.kind = kind
        self.line = line
        self.reason = reason if reason is not None else message
        self.diagnostics = list(diagnostics or [])
        self.cause = cause


def load(src: KernelSource, scalars: dict[str, int | float] | None = None) -> Kernel:
    """The kernel object of ``src`` from its front end. ``scalars``: the launch's values of kernel
    parameters (a template parameter among them picks the instantiation a source compiles)."""
    from ..compiler.nvrtc import CompilerUnavailable
    from ..cudaimport.includes import IncludeError
    from ..sass.cubin import CubinError
    from ..sass.decode import DecodeError
    from ..sass.launch import LaunchError
    from ..sass.run import CompileFailed
    from .fatbin import BinaryError

    try:
        if src.binary is not None:
            from .binary import from_binary

            return from_binary(src.binary, src.kernel, src.path, src.arch)
        from .cuda_source import from_source

        return from_source(src.text, src.arch, {**src.defines, **(scalars or {})}, src.path, list(src.include_dirs),
                           src.kernel, src.optimize)
    except CompilerUnavailable as e:
        raise RunFailed("compiler", str(e), cause=e) from None
    except CompileFailed as e:
        diags = compiler_diagnostics(e.log, "error")
        raise RunFailed("compile", str(e), diags[0].line if diags else None, diagnostics=diags, cause=e) from None
    except IncludeError as e:
        raise RunFailed("include", f"line {e.line}: {e.message}", e.line, e.message, cause=e) from None
    except (LaunchError, BinaryError, CubinError, DecodeError) as e:
        raise RunFailed("kernel", str(e), cause=e) from None


def execute(kernel: Kernel, cfg: LaunchConfig, budget: int = MAX_WARP_INSTRUCTIONS, control: Control | None = None,
            timings: dict[str, float] | None = None, seconds: float | None = MAX_SECONDS) -> KernelRun:
    """One block of ``kernel`` as ``cfg`` launches it, counted per SASS instruction
    (:func:`bankexplorer.sass.run.execute`; ``budget`` and ``seconds`` bound it: warp
    instructions, seconds, None for no time limit); a compiled source's template parameters are
    left out of the launch values (they chose the instantiation)."""
    from ..sass.cubin import CubinError
    from ..sass.decode import DecodeError
    from ..sass.issue import EmulationError
    from ..sass.launch import LaunchError
    from ..sass.run import Stopped, execute as execute_block
    from ..sass.state import MemoryFault
    from .cuda_source import launch_values

    try:
        if kernel.origin == "CUDA source":
            cfg = launch_values(kernel, cfg)
        return execute_block(kernel, cfg, budget, control, timings, seconds)
    except Stopped as e:
        raise RunFailed("stopped", str(e), e.line, cause=e) from None
    except LaunchError as e:
        raise RunFailed("launch", str(e), cause=e) from None
    except EmulationError as e:
        raise RunFailed("execute", str(e), e.line, e.reason, cause=e) from None
    except (MemoryFault, DecodeError, CubinError) as e:
        raise RunFailed("execute", str(e), cause=e) from None


def run(src: KernelSource, cfg: LaunchConfig, budget: int = MAX_WARP_INSTRUCTIONS, control: Control | None = None,
        timings: dict[str, float] | None = None, seconds: float | None = MAX_SECONDS) -> KernelRun:
    """:func:`load` then :func:`execute`; ``timings`` (when given) gets each stage's seconds
    (``prepare``: the front end, compiling included), the run's ``seconds`` the whole."""
    t0 = time.perf_counter()
    k = load(src, cfg.scalars)
    t1 = time.perf_counter()
    r = execute(k, cfg, budget, control, timings, seconds)
    if timings is not None:
        timings["prepare"] = t1 - t0
    r.seconds = time.perf_counter() - t0
    return r
