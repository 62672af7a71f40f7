"""``bankexplorer import-cuda K.cu``: compile the kernel, execute one block, and report per source
line what every shared-memory SASS instruction cost, and what the source as written (the
unoptimised build, -G, executed the same way) would; ``--as-written`` reports that build alone.
``--sass-json`` writes every SASS instruction's counts (the columns of Nsight Compute's source
page), ``--out`` a pattern file.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import threading
import time
from concurrent.futures import Future
from contextlib import contextmanager
from dataclasses import replace
from typing import Iterator

import numpy as np

from ..compiler.kernel import includes_cutlass
from ..kernels.service import KernelSource, RunFailed, execute as execute_kernel, load as load_kernel, run as run_kernel
from ..sass.launch import EXTERN_BYTES, LaunchConfig, text_settings
from ..sass.limits import array_bytes, check_block, parse_dims, parse_number
from ..sass.line_totals import by_line
from ..sass.run import Control, KernelRun, SassRow
from ..terminal import EXIT_BAD_INPUT, UsageError, printable


def launch_dims(text: str, what: str) -> tuple[int, int, int]:
    """``--block``/``--block-index``/``--grid`` as three dimensions within CUDA's limits (every front
    end's command takes them so); a UsageError naming the option otherwise."""
    try:
        return parse_dims(text, what.replace("-", " "))
    except ValueError as e:
        raise UsageError(f"--{what} {text!r}: {e}") from None


def array_path(spec: str) -> tuple[str, str]:
    """``NAME=FILE.npy`` -> (NAME, FILE.npy)."""
    name, _, path = spec.partition("=")
    if not (name.isidentifier() or name.isdigit()) or not path:
        raise UsageError(f"--arg {spec!r}: write NAME=FILE.npy (or POSITION=FILE.npy: 0 is the first parameter)")
    return name, path


def load_array(spec: str) -> tuple[str, bytes]:
    """``NAME=FILE.npy`` -> (NAME, the array's bytes in C order)."""
    name, arr = load_npy(spec)
    return name, arr.tobytes()


def load_npy(spec: str) -> tuple[str, np.ndarray]:
    """``NAME=FILE.npy`` -> (NAME, the array of numbers, C-contiguous; a Triton kernel compiles for its dtype)."""
    name, path = array_path(spec)
    if not os.path.isfile(path):
        raise UsageError(f"--arg {name}: {path}: no such file")
    if os.path.getsize(path) > (16 << 20) + 4096:
        raise UsageError(f"--arg {name}: {path} is larger than a parameter's 16 MiB buffer")
    try:
        arr = np.load(path, allow_pickle=False)
    except (ValueError, OSError, EOFError) as e:
        raise UsageError(f"--arg {name}: {path} is not a .npy array file ({e})") from None
    if not isinstance(arr, np.ndarray):  # np.load opens a .npz archive of several arrays too
        getattr(arr, "close", lambda: None)()
        raise UsageError(f"--arg {name}: {path} is a .npz archive, not one array: save the array with np.save "
                         f"(a .npy file)")
    try:
        array_bytes(arr)  # numbers only (raises on object or structured arrays)
        return name, np.ascontiguousarray(arr)
    except ValueError as e:
        raise UsageError(f"--arg {name}: {path} {e}") from None


def scalar_defines(defines: list[str]) -> dict[str, int | float]:
    out: dict[str, int | float] = {}
    for d in defines:
        name, _, value = d.partition("=")
        if not (name.isidentifier() or name.isdigit()) or not value:
            raise UsageError(f"-D {printable(d[:80])!r}: write NAME=VALUE, e.g. -D TILE=32 (a binary's parameter by "
                             f"position: -D 1=64)")
        try:
            out[name] = parse_number(value)
        except ValueError as e:
            raise UsageError(f"-D {name}: {e}") from None
    return out


def launch_shape(args: argparse.Namespace, block_default: tuple | None, extern_default: int):
    """(block, where it came from, block index, grid, dynamic shared bytes) from the arguments, else
    the kernel's own defaults (``block_default``: (dims, origin) or None), checked."""
    if args.block:
        block, origin = launch_dims(args.block, "block"), "given"
    elif block_default is not None:
        block, origin = block_default
    else:
        block, origin = (32, 1, 1), "default (32x1x1)"
    try:
        check_block(block)
    except ValueError as e:
        raise UsageError(f"block {block}: {e}") from None
    index = launch_dims(args.block_index, "block-index") if args.block_index else (0, 0, 0)
    grid = launch_dims(args.grid, "grid") if args.grid else tuple(i + 1 for i in index)
    if any(i >= g for i, g in zip(index, grid)):
        raise UsageError(f"--block-index {index} is outside the grid {grid}")
    extern = args.extern_size if args.extern_size is not None else extern_default
    if not 0 <= extern <= 227 << 10:
        raise UsageError(f"extern shared memory of {extern:,} bytes: at most 227 KiB on sm_90")
    return tuple(block), origin, index, grid, extern


def config(args: argparse.Namespace, text: str) -> tuple[LaunchConfig, str, dict[str, int | float]]:
    from ..cudaimport.device_source import kernel_parameters

    settings = text_settings(text)
    block, origin, index, grid, extern = launch_shape(args, settings.get("block"),
                                                      settings.get("extern-size", (EXTERN_BYTES,))[0])
    defines = scalar_defines(args.defines)
    params = kernel_parameters(text)
    scalars = {k: v for k, v in defines.items() if k in params}
    macros = {k: v for k, v in defines.items() if k not in params}
    return LaunchConfig(block, index, grid, scalars, arrays_of(args), extern), origin, macros


def arrays_of(args: argparse.Namespace) -> dict[str, bytes]:
    """The ``--arg`` arrays by parameter (name or position), each given once."""
    named = [array_path(a)[0] for a in args.arrays]
    twice = next((n for n in named if named.count(n) > 1), None)
    if twice:
        raise UsageError(f"--arg {twice} is given {named.count(twice)} times: give each parameter's data once")
    return dict(load_array(a) for a in args.arrays)


def check_outputs(args: argparse.Namespace, text: str) -> None:
    """Before any work: ``--out`` and ``--sass-json`` can be written, are not the same file, and
    are none of the files the run reads (the kernel, every header it includes, every ``--arg``
    array): also not through a link."""
    from ..cudaimport.device_source import included_files
    from ..cudaimport.includes import IncludeRules
    from ..io.atomic import check_writable, same_file

    outs = [(flag, p) for flag, p in (("--out", getattr(args, "out", None)),
                                      ("--sass-json", getattr(args, "sass_json", None))) if p]
    if not outs:
        return
    path = None if args.file == "-" else args.file
    inputs = ([path] if path else []) + [array_path(a)[1] for a in args.arrays]
    inputs += included_files(text, IncludeRules.of(path, list(args.include_dirs)))
    for flag, out in outs:
        try:
            check_writable(out, inputs, UsageError)
        except UsageError as e:
            raise UsageError(f"{flag} {e}") from None
    if len(outs) == 2 and (outs[0][1] == outs[1][1] or same_file(outs[0][1], outs[1][1])):
        raise UsageError(f"--sass-json {outs[1][1]}: is the --out file too; choose another name")


def report_rows(r: KernelRun) -> list[SassRow]:
    """The rows a report lists: as compiled, the executed shared-memory SASS instructions; as
    written (the unoptimised build), one per source access, named by the shared instruction it
    stands for (``LDS``, ``STS.64``, ``ATOMS``), on the user's line (a header function's accesses
    on the line that called it), with the SASS that made it."""
    if r.optimized:
        return [x for x in r.rows if x.wavefronts is not None and x.executed and not x.guarded_off]
    from ..sass.compare import written_groups
    from ..sass.run import TIMING

    names = list(r.buffers)
    rows = [SassRow(r.rows[i].pc, f"{name}  ({r.rows[i].sass})", line, executed=n, wavefronts=wf, ideal=ideal,
                    data=tuple(b for k, b in enumerate(names) if t >> k & 1), timing=bool(t & int(TIMING)))
            for line, i, name, n, wf, ideal, t in written_groups(r.accesses)]
    return sorted(rows, key=lambda x: (x.line, x.pc))


def print_report(r: KernelRun, origin: str, where: str, pattern=None, changes=(), show_sass: bool = False,
                 total: float | None = None) -> None:
    """``total``: the seconds the command took (compiling, this run and the as-written one), which
    the header gives beside the block's own execution."""
    from ..compiler import nvrtc

    unmeasured = "" if r.arch in nvrtc.MEASURED_ARCHITECTURES else " (not measured on a GPU: the bank rules are sm_90's)"
    build = f"as compiled for {r.arch}" if r.optimized else \
        f"as written (the unoptimised build, -G, one instruction per source access) for {r.arch}"
    print(f"kernel {r.kernel}: block {'x'.join(map(str, r.block))} ({origin}), block index "
          f"{','.join(map(str, r.block_index))}; {build}{unmeasured}, executed on the CPU "
          f"({r.warp_instructions:,} warp instructions, {r.seconds:.2f} s"
          + (f"; {total:.2f} s in all, with compiling{' and the as-written build' if changes else ''})"
             if total is not None else ")"))
    if pattern is not None and pattern.arrays:
        print("arrays: " + ", ".join(f"{a.dtype} {a.name}" + "".join(f"[{d}]" for d in a.dims) for a in pattern.arrays))
    shared = report_rows(r)
    lines = sorted(by_line(shared), key=lambda ls: ls.line)
    print(f"{'line':>5}  {'shared-memory SASS':<34} {'executed':>9} {'wavefronts':>10} {'ideal':>7} {'excess':>7}")
    for ls in lines:
        what = ls.summary()
        what = what if len(what) <= 34 else what[:33] + "…"
        flag = (" data" if ls.data else "") + (" timing" if ls.timing else "") + (" schedule" if ls.schedule else "")
        print(f"{ls.line:>5}  {what:<34} {ls.executed:>9,} {ls.wavefronts:>10,} {ls.ideal:>7,} "
              f"{ls.wavefronts - ls.ideal:>7,}{flag}")
        if show_sass:
            for x in ls.sass:
                print(f"{'':>7}{x.sass:<38} {x.executed:>7,} {x.wavefronts:>10,} {x.ideal:>7,}")
    if not shared:
        print("  (no shared-memory instruction executed)")
    worst = min(lines, key=lambda ls: (-(ls.wavefronts - ls.ideal), ls.line), default=None)
    if worst is not None and worst.wavefronts - worst.ideal > 0:
        top = max(worst.sass, key=lambda x: x.wavefronts - x.ideal)
        print(f"worst conflict: line {worst.line} ({worst.wavefronts - worst.ideal:,} excess wavefronts per "
              f"block; {top.sass}: {top.wavefronts:,} for an ideal of {top.ideal:,})")
    else:
        print("no bank conflict")
    differ = [c for c in changes if c.differs]
    if changes:
        print("as written vs as compiled: " + (f"{len(differ)} line(s) differ" if differ else
                                               "every line executes as written"))
    for c in changes:
        if c in differ:
            print(f"{c.line:>5}: {c.written} -> {c.compiled}: {c.wavefronts_compiled:,} wavefronts instead of "
                  f"{c.wavefronts_written:,}")
    wf = sum(x.wavefronts for x in shared)
    ideal = sum(x.ideal for x in shared)
    ex = sum(x.executed for x in shared)
    eff = f"{ideal / wf:.0%}" if wf else "-"
    scheduled = sum(x.wavefronts for x in shared if x.certainty == "schedule")
    print(f"total per block: {wf:,} wavefronts for {ex:,} shared-memory warp instructions executed (ideal {ideal:,}, "
          f"efficiency {eff})" + (f"; {scheduled:,} of the wavefronts depend on the GPU's scheduling" if scheduled else ""))
    print_printf(r)
    for line, msg in r.notes:
        print(f"{where}:{line}: note: {msg}" if line else f"{where}: note: {msg}", file=sys.stderr)
    if r.timing_dependent:
        print(f"{where}: note: some counts depend on the order in which warps run (timing_dependent)", file=sys.stderr)
    if any(x.schedule for x in r.rows):
        print(f"{where}: note: some counts follow scheduling policies that do not fit all their probes (schedule)",
              file=sys.stderr)


#: printf lines the report shows (``--sass-json`` keeps every line the run kept)
PRINTF_LINES = 50


def print_printf(r: KernelRun) -> None:
    """What the kernel's printf calls printed, in the order the threads called (a warp's lanes in
    order; on a GPU, warps may interleave otherwise)."""
    if not r.printed:
        return
    total = len(r.printed) + r.printed_dropped
    more = total - min(len(r.printed), PRINTF_LINES)
    print(f"printf ({total:,} line{'s' if total != 1 else ''}, in the order the threads called it):")
    for line, text in r.printed[:PRINTF_LINES]:
        print(f"{line:>5}: {text}")
    if more > 0:
        print(f"       … {more:,} more line{'s' if more != 1 else ''}" +
              (" (--sass-json keeps the first 1,000)" if len(r.printed) > PRINTF_LINES else ""))


#: seconds a run executes before a terminal is told how far it got (most runs end well before)
PROGRESS_AFTER = 1.0


@contextmanager
def progress_line(where: str, what: str, stream=None) -> Iterator[Control | None]:
    """On a terminal, one line on ``stream`` (stderr) that counts a long run's warp instructions
    and says how to stop it, erased when the run ends: an endless loop with shared-memory accesses
    runs for minutes before its budget stops it, and a silent terminal looks hung. Nothing for a
    pipe or a file (scripts read stderr)."""
    stream = stream or sys.stderr
    if not stream.isatty():
        yield None
        return
    stream = getattr(stream, "_stream", stream)  # past cli._Printable: the \r and erase are ours
    control, done = Control(), threading.Event()

    def show() -> None:
        shown = False
        while not done.wait(0.5 if shown else PROGRESS_AFTER):
            if control.stage == "executing":
                stream.write("\r" + printable(f"{where}: executing {what}: {control.issued:,} warp instructions so "
                                               f"far (Ctrl+C stops)") + "\033[K")
                stream.flush()
                shown = True
        if shown:
            stream.write("\r\033[K")
            stream.flush()

    t = threading.Thread(target=show, daemon=True, name="progress")
    t.start()
    try:
        yield control
    finally:
        done.set()
        t.join(1.0)


def run_import(args: argparse.Namespace, text: str, where: str) -> int | None:
    """Compile and execute a whole kernel (``--as-written``: its unoptimised build, -G); None for a
    snippet (the caller reads it symbolically, the only way a text with no kernel can be read)."""
    if "__global__" not in text:  # a snippet: nothing to compile
        return None
    t0 = time.perf_counter()
    from ..compiler import nvrtc

    as_written = bool(getattr(args, "as_written", False))
    arch = args.arch or nvrtc.DEFAULT_ARCH
    if arch not in nvrtc.ARCHITECTURES:
        raise UsageError(f"--arch {arch!r}: choose one of {', '.join(nvrtc.ARCHITECTURES)}")
    if not nvrtc.available():
        raise UsageError(f"{where}: {nvrtc.INSTALL_HINT}")
    cfg, origin, macros = config(args, text)
    path = None if args.file == "-" else args.file
    src = KernelSource(text, None, path, arch, args.kernel, macros, tuple(args.include_dirs), not as_written)
    cute = includes_cutlass(text)  # CuTe's -G build compiles for minutes (3 min for a 60-line tiled MMA)
    early = EarlyBuild(replace(src, optimize=False), cfg) if not as_written and not cute and reports(args) else None
    try:
        with progress_line(where, "the unoptimised build (-G)" if as_written else "one block") as control:
            r = run_kernel(src, cfg, args.max_instructions, control, seconds=args.max_seconds)
        if cute and not as_written:
            r.notes.append((0, "no as-written comparison for a CuTe/CUTLASS kernel: its unoptimised build (-G) takes "
                               "minutes to compile (--as-written runs it alone)"))
        written = None if early is None else \
            (lambda control: early.run(control, cfg, args.max_instructions, args.max_seconds))
        return finish(args, r, text, where, origin, cfg, path, t0, written)
    except RunFailed as e:  # the optimised build (finish says why the as-written one could not run)
        return _failed(e, where)
    finally:
        if early is not None:
            early.end()


def reports(args: argparse.Namespace) -> bool:
    """Whether the command prints the per-line report (not only ``--sass-json`` or ``--out``), and
    so compares the kernel with its source as written."""
    return not args.out and (not args.sass_json or bool(args.detail))


class EarlyBuild:
    """The unoptimised build (-G) of a kernel, compiled on another thread from its creation, beside
    the optimised build's own compile and execution: NVRTC and nvdisasm run as child processes, so a
    second core takes this build's compile and disassembly
    (:func:`bankexplorer.compiler.nvrtc.alongside`), 0.5 s of a 2.2 s report."""

    def __init__(self, src: KernelSource, cfg: LaunchConfig) -> None:
        self.kernel: Future = Future()  #: the kernel object, or the error its front end raised
        self.thread = threading.Thread(target=self._compile, args=(src, cfg), name="bankexplorer-as-written-build",
                                       daemon=True)
        self.thread.start()

    def _compile(self, src: KernelSource, cfg: LaunchConfig) -> None:
        from ..compiler import nvrtc

        try:
            with nvrtc.alongside():
                self.kernel.set_result(load_kernel(src, cfg.scalars))
        except BaseException as e:  # noqa: BLE001 - raised where the caller asks for the kernel
            self.kernel.set_exception(e)

    def run(self, control: Control, cfg: LaunchConfig, budget: int, seconds: float | None) -> KernelRun:
        """Execute it once compiled, as :func:`bankexplorer.kernels.service.run` would."""
        t0 = time.perf_counter()
        r = execute_kernel(self.kernel.result(), cfg, budget, control, seconds=seconds)
        r.seconds = time.perf_counter() - t0
        return r

    def end(self) -> None:
        """When the command ends first (an error, Ctrl-C): its compiler ends too, and is reaped."""
        if self.thread.is_alive():
            from ..compiler.child import end_child_of

            end_child_of(self.thread)


def _failed(e: RunFailed, where: str) -> int:
    """A run that failed, said on stderr as ``where:line:`` (a compile's every message)."""
    if e.kind == "compile":
        for d in e.diagnostics:
            print(f"{where}:{d}", file=sys.stderr)
        print(f"bankexplorer: {where}: the kernel does not compile", file=sys.stderr)
    elif e.kind == "include":
        print(f"bankexplorer: {where}:{e.line}: {e.reason}", file=sys.stderr)
    else:
        msg = str(e)
        print(f"bankexplorer: {msg if msg.startswith(where + ':') else where + ': ' + msg}", file=sys.stderr)
    return EXIT_BAD_INPUT


def finish(args: argparse.Namespace, r: KernelRun, text: str, where: str, origin: str, cfg: LaunchConfig,
           path: str | None, t0: float, written=None) -> int:
    """What every front end's run ends with: ``--sass-json``, ``--out`` or the report (with the
    as-written comparison when ``written`` runs the unoptimised build; ``t0``: when the command's
    work began, for the report's total)."""
    from ..io.atomic import atomic_write
    from ..sass.to_pattern import PatternTooLarge, kernel_pattern

    # the run as a pattern, made once: the arrays --sass-json names, the file --out writes, the report
    inputs = {n: os.path.basename(p) for n, p in map(array_path, args.arrays)}
    try:
        pat, too_large = kernel_pattern(r, text, args.name or "kernel", origin, cfg, inputs, path), None
    except PatternTooLarge as e:
        pat, too_large = None, e
    if args.sass_json:  # the array each shared-memory instruction touches, as the pattern attributes it
        named = {i.pc: i.array for i in pat.instructions if i.array} if pat is not None else {}
        atomic_write(args.sass_json, (json.dumps(r.to_json(named), indent=1) + "\n").encode())
    if args.sass_json and not args.detail and not args.out:
        return 0
    if too_large is not None:
        print(f"bankexplorer: {where}: {too_large}", file=sys.stderr)
        return EXIT_BAD_INPUT
    if args.out:
        from dataclasses import replace
        from pathlib import Path

        from ..io import patternfile

        if not args.name:
            pat = replace(pat, name=Path(args.file).stem if args.file != "-" else "Imported CUDA")
        patternfile.save(pat, args.out)
        rows = sum(len(i.recorded) for i in pat.instructions)
        print(f"wrote {args.out}: {len(pat.arrays)} array(s), {len(pat.instructions):,} shared-memory SASS "
              f"instruction(s) executed {rows:,} times, block {'x'.join(map(str, pat.block))} ({origin})")
        return 0
    from ..model.analysis import analyze
    from ..model.report import format_table
    from ..sass.compare import written_vs_compiled

    changes = []
    if written is not None:  # the same kernel as written: its unoptimised build, executed the same way
        try:
            with progress_line(where, "the source as written (-G)") as control:
                changes = written_vs_compiled(written(control), r)
        except RunFailed as e:
            print(f"{where}: note: no as-written comparison: the unoptimised build (-G) cannot be executed "
                  f"({str(e).splitlines()[0]})", file=sys.stderr)
    print_report(r, origin, where, pat, changes, args.sass, total=time.perf_counter() - t0)
    if args.detail:
        print()
        print(format_table(analyze(pat, detail=False)))
    return 0


def binary_config(args: argparse.Namespace, kernel) -> tuple[LaunchConfig, str]:
    """The launch of a binary's kernel: ``--block`` (else the block the binary requires or its
    ``__launch_bounds__``, else 32), ``--extern-size``, ``--arg``/``-D`` by name or position."""
    d = kernel.launch
    block, origin, index, grid, extern = launch_shape(
        args, (tuple(d.block.value), d.block.origin) if d.block is not None else None,
        d.extern_bytes.value if d.extern_bytes is not None else EXTERN_BYTES)
    return LaunchConfig(block, index, grid, scalar_defines(args.defines), arrays_of(args), extern), origin


def run_binary(args: argparse.Namespace, data: bytes, where: str) -> int:
    """Execute one block of a kernel in a binary (a cubin, a fatbin, an executable, a shared library)."""
    from ..kernels.service import execute, load

    for flag, given in (("--as-written", getattr(args, "as_written", False)),
                        ("-I", getattr(args, "include_dirs", None))):
        if given:
            raise UsageError(f"{flag}: {where} is a binary, already compiled (it applies to CUDA source)")
    t0 = time.perf_counter()
    arch = args.arch or "sm_90"
    try:
        kernel = load(KernelSource(binary=data, path=args.file, arch=arch, kernel=args.kernel))
        cfg, origin = binary_config(args, kernel)
        with progress_line(where, "one block") as control:
            r = execute(kernel, cfg, args.max_instructions, control, seconds=args.max_seconds)
    except RunFailed as e:
        return _failed(e, where)
    if kernel.launch.cluster and kernel.launch.cluster != (1, 1, 1):
        r.notes.append((0, f"the kernel runs in clusters of {'x'.join(map(str, kernel.launch.cluster))} blocks; one "
                           f"block is executed"))
    return finish(args, r, kernel.source_text or "", where, origin, cfg, kernel.path, t0)
