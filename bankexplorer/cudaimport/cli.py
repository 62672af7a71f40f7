"""``bankexplorer import-cuda FILE.cu [--block 32,8] [--out pattern.json]``.

Registered in :data:`bankexplorer.cli.COMMANDS` when the CLI loads its plugins. Without ``--out``
it prints what was imported and its analysis; problems in the text go to stderr with their line
and column. Syntax errors (and a text with no shared-memory access) exit with status 2.
"""

from __future__ import annotations

import argparse
import sys

from ..cli import COMMANDS, EXIT_BAD_INPUT, UsageError, _fmt_table
from .report import instruction_stats, worst
from .translate import ImportOptions, import_cuda
from .translate import parse_block as _parse_block


def parse_block(text: str) -> tuple[int, int, int]:
    try:
        return _parse_block(text)
    except ValueError as e:
        raise UsageError(f"--{e}") from None


def parse_define(text: str) -> tuple[str, int]:
    from ..sass.limits import parse_number

    name, _, value = text.partition("=")
    if not name.isidentifier() or not value:
        raise UsageError(f"-D {text[:80]!r}: write NAME=INTEGER, e.g. -D TILE=32")
    try:
        v = parse_number(value)
    except ValueError as e:
        raise UsageError(f"-D {name}: {e}") from None
    if not isinstance(v, int):
        raise UsageError(f"-D {name}: {value!r} is not an integer")
    return name, v


def _add(sp: argparse.ArgumentParser) -> None:
    sp.add_argument("file", help="CUDA source (.cu, or - for standard input): a kernel is compiled with NVRTC and "
                                  "one block executed on the CPU (nothing runs on a GPU); a snippet (no __global__ "
                                  "function) cannot be compiled and is read symbolically, as written. Or a binary: "
                                  "a .cubin, a fatbin, an executable or a shared library (its sm_90 code is executed; "
                                  "parameters by position, --arg 0=A.npy -D 1=64, or by name where it names them). Or a Triton "
                                  "kernel: a .py file with --kernel FUNCTION (compiled by the installed Triton: its "
                                  "Python runs), or a cache entry's NAME.cubin with NAME.json beside it; arrays "
                                  "--arg NAME=F.npy, scalars, constexprs and launch options -D NAME=VALUE "
                                  "(-D BLOCK=64 -D num_warps=4)")
    sp.add_argument("--block", metavar="X[,Y[,Z]]",
                    help="threads per block (default: a <<<grid, block>>> launch or a '// block: X, Y' comment "
                         "in the text, else 32)")
    sp.add_argument("--extern-size", type=int, metavar="BYTES",
                    help="bytes of dynamic shared memory for 'extern __shared__' arrays (default: the launch's "
                         "third argument or a '// extern-size: BYTES' comment, else 48 KiB)")
    sp.add_argument("-D", dest="defines", action="append", default=[], metavar="NAME=VALUE",
                    help="give a name (a macro, a kernel or template parameter) a value, like nvcc -D (a "
                         "snippet takes integers)")
    sp.add_argument("-I", dest="include_dirs", action="append", default=[], metavar="DIR",
                    help="a folder for #include \"x.h\" (the file's own folder is searched too)")
    sp.add_argument("--name", help="pattern name (default: the file name)")
    sp.add_argument("--out", "-o", help="write the pattern file (.json) here instead of printing the analysis")
    sp.add_argument("--detail", action="store_true", help="also print every warp instruction (as 'analyze' does)")
    sp.add_argument("--as-written", action="store_true",
                    help="the source as written, one instruction per source access: execute the kernel's "
                         "unoptimised build (-G) instead of the optimised one (which fuses vector accesses, changes "
                         "atomic forms, removes loads; the default report compares the two per line)")
    sp.add_argument("--arch", default=None, metavar="SM",
                    help="architecture to compile for (sm_80, sm_86, sm_89, sm_90, sm_100, sm_120; default sm_90, "
                         "the one the bank rules were measured on)")
    sp.add_argument("--sass", action="store_true", help="also print each line's shared-memory SASS instructions")
    from ..sass.cli import add_arguments

    add_arguments(sp)


def _read(path: str) -> tuple[str, str]:
    """The kernel's text, read up to the import's size limit (``/dev/zero`` ends at once)."""
    from .includes import IncludeError, decode, read_source
    from .syntax import MAX_SOURCE_BYTES

    try:
        if path == "-":
            raw = getattr(sys.stdin, "buffer", None)  # a text stream in place of stdin (tests) has none
            data = raw.read(MAX_SOURCE_BYTES + 1) if raw is not None else \
                sys.stdin.read(MAX_SOURCE_BYTES + 1).encode("utf-8", "replace")
            if len(data) > MAX_SOURCE_BYTES:
                raise UsageError(f"stdin: larger than {MAX_SOURCE_BYTES // 1024:,} KiB: paste the part of the kernel "
                                 f"that uses shared memory")
            return decode(data, "stdin"), "stdin"
        return read_source(path), path
    except IncludeError as e:
        raise UsageError(e.message) from None


def _is_binary(path: str) -> bool:
    """A binary (ELF or fatbin), by its first bytes; a file that cannot be read is left to the text reader's message."""
    from ..kernels import is_binary

    try:
        with open(path, "rb") as f:
            return is_binary(f.read(4))
    except OSError:
        return False


def _run(args: argparse.Namespace) -> int:
    from pathlib import Path

    from ..io import patternfile
    from ..model.analysis import analyze

    if args.extern_size is not None and not 1 <= args.extern_size <= 1 << 30:
        raise UsageError("--extern-size must be from 1 to 2**30 bytes")
    from ..kernels.triton_cli import is_triton_file

    if args.file != "-" and is_triton_file(args.file):  # a Triton kernel: a .py, or a cache entry's .cubin
        from ..kernels.triton_cli import run_triton
        from ..sass.cli import check_outputs

        check_outputs(args, "")  # before any work: no output lands on the kernel or an --arg array
        return run_triton(args, args.file)
    if args.file != "-" and _is_binary(args.file):  # a cubin, fatbin, executable or shared library
        from ..kernels.binary import read_file
        from ..sass.cli import check_outputs, run_binary

        check_outputs(args, "")  # before any work: no output lands on the binary or an --arg array
        return run_binary(args, read_file(args.file), args.file)
    text, where = _read(args.file)
    from ..sass.cli import check_outputs

    check_outputs(args, text)  # before any work: no output lands on a file the run reads
    if "__global__" in text:  # a kernel: compiled and executed (as written: its unoptimised build)
        from ..sass.cli import run_import

        code = run_import(args, text, where)
        if code is not None:
            return code
    opts = ImportOptions(block=parse_block(args.block) if args.block else None,
                         defines=dict(parse_define(d) for d in args.defines))
    if args.extern_size is not None:
        opts.extern_bytes = args.extern_size
    for flag, given in (("--sass-json", args.sass_json), ("--arg", args.arrays), ("--kernel", args.kernel)):
        if given:
            raise UsageError(f"{flag} needs a whole kernel (a __global__ function): a snippet is only read as written")
    opts.name = args.name or (Path(args.file).stem if args.file != "-" else "Imported CUDA")
    opts.include_dirs = list(args.include_dirs)
    opts.path = None if args.file == "-" else args.file
    res = import_cuda(text, opts)
    for d in res.diagnostics:
        print(f"{where}:{d}", file=sys.stderr)
    errors = [d for d in res.diagnostics if d.severity == "error"]
    if errors:
        print(f"bankexplorer: {where}: {len(errors)} error(s); first at line {errors[0].line}, column "
              f"{errors[0].column}: {errors[0].message}", file=sys.stderr)
        return EXIT_BAD_INPUT
    if not res.pattern.instructions:
        print(f"bankexplorer: {where}: no shared-memory access found (declare a __shared__ array and index it)",
              file=sys.stderr)
        return EXIT_BAD_INPUT
    if args.out:
        patternfile.save(res.pattern, args.out)
        print(f"wrote {args.out}: {len(res.pattern.arrays)} array(s), {len(res.pattern.instructions)} "
              f"instruction(s), block {'x'.join(map(str, res.pattern.block))} ({res.block_origin})")
        return 0
    an = analyze(res.pattern, detail=False)
    stats = instruction_stats(res, an)
    print(f"a snippet (no __global__ function, so nothing to compile), read as written; block "
          f"{'x'.join(map(str, res.pattern.block))} ({res.block_origin}); arrays: "
          + ", ".join(f"{a.dtype} {a.name}" + "".join(f"[{d}]" for d in a.dims) + (f" +{a.padding} padding"
                                                                                  if a.padding else "")
                      for a in res.pattern.arrays))
    print(f"{'line':>5} {'instruction':<52} {'wavefronts':>10} {'ideal':>5} {'N-way':>5}")
    for s in stats:
        title = s.title.removeprefix(f"L{s.line} ")
        title = title if len(title) <= 52 else title[:51] + "…"
        if s.error:
            print(f"{s.line:>5} {title:<52} error: {s.error}")
        else:
            print(f"{s.line:>5} {title:<52} {s.wavefronts:>10} {s.ideal:>5} {s.degree:>4}x")
    w = worst(stats)
    bad = [s for s in stats if s.error]
    print(f"worst conflict: line {w.line} ({w.degree}-way, {w.excess:,} excess wavefronts per block)" if w else
          ("no bank conflict among the valid accesses" if bad else "no bank conflict"))
    t = an.totals()
    print(f"total per block: {t.wavefronts:,} wavefronts for {t.executed:,} warp instructions executed (ideal {t.ideal:,}, "
          f"efficiency {t.efficiency:.0%}); shared memory {t.shared_bytes:,} bytes")
    if bad:
        print(f"{len(bad)} instruction(s) have invalid accesses (first: line {bad[0].line}), not counted")
    if args.detail:
        print()
        print(_fmt_table(an))
    return 1 if bad else 0  # as `analyze`: 1 = some access is invalid


COMMANDS["import-cuda"] = (_add, _run, "compile a CUDA kernel and execute one block on the CPU: every shared-memory "
                                       "SASS instruction's wavefronts, as compiled and as written (a snippet, with "
                                       "no kernel to compile, is read symbolically)")
