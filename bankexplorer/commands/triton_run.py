"""``bankexplorer import-cuda`` for Triton: a cache entry's ``NAME.cubin`` (``NAME.json`` beside it)
or a ``.py`` file with ``--kernel FUNCTION``; arrays ``--arg NAME=F.npy``, scalars, constexprs and
launch options ``-D NAME=VALUE`` (``-D BLOCK=64 -D num_warps=4``), as the call's keywords name them.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

from ..terminal import EXIT_BAD_INPUT, UsageError


def _values(defines: list[str]) -> dict[str, int | float | bool]:
    from .kernel_run import scalar_defines

    out: dict[str, int | float | bool] = {}
    for d in defines:
        name, _, value = d.partition("=")
        if value in ("True", "False", "true", "false"):
            out[name] = value.lower() == "true"
        else:
            out.update(scalar_defines([d]))
    return out


def _refuse(args: argparse.Namespace, where: str) -> None:
    """Options a Triton kernel does not take, each with what to give instead."""
    wrong = [("--block", args.block, "a Triton kernel's block is num_warps x 32 threads: give -D num_warps=N"),
             ("--extern-size", args.extern_size, "Triton sizes its shared memory itself (the entry's 'shared')"),
             ("--as-written", getattr(args, "as_written", False), "a Triton kernel has one build, as compiled"),
             ("-I", getattr(args, "include_dirs", None), "it applies to CUDA source"),
             ("--arch", args.arch not in (None, "sm_90") and args.arch, "Triton kernels are compiled for sm_90 here")]
    for flag, given, why in wrong:
        if given:
            raise UsageError(f"{flag}: {where} is a Triton kernel: {why}")


def run_triton(args: argparse.Namespace, where: str) -> int:
    """Compile (a ``.py``) or read (a cache entry) the kernel, execute one program and report."""
    from ..kernels import triton_launch as T
    from ..sass.cubin import CubinError
    from ..sass.decode import DecodeError
    from ..sass.issue import EmulationError
    from ..sass.launch import LaunchError
    from ..sass.run import execute
    from ..sass.state import MemoryFault
    from .kernel_run import finish, launch_dims, load_npy, progress_line

    t0 = time.perf_counter()
    _refuse(args, where)
    values = _values(args.defines)
    arrays = dict(load_npy(a) for a in args.arrays)
    index = launch_dims(args.block_index, "block-index") if args.block_index else (0, 0, 0)
    grid = launch_dims(args.grid, "grid") if args.grid else None
    if grid and any(i >= g for i, g in zip(index, grid)):
        raise UsageError(f"--block-index {index} is outside the grid {grid}")
    try:
        if where.endswith(".py"):
            if not args.kernel:
                raise UsageError(f"{where}: name the @triton.jit function with --kernel FUNCTION")
            if not os.path.isfile(where):
                raise UsageError(f"{where}: no such file")
            launch = T.from_source(where, args.kernel, arrays, values, index, grid)
        else:
            launch = T.from_entry(where, arrays, values, index, grid)
            if args.kernel and args.kernel != launch.kernel.name:
                raise UsageError(f"--kernel {args.kernel}: the cache entry holds {launch.kernel.name}")
        with progress_line(where, "one program") as control:
            r = execute(launch.kernel, launch.cfg, args.max_instructions, control, seconds=args.max_seconds)
    except T.TritonUnavailable as e:
        raise UsageError(f"{where}: {e}") from None
    except T.TritonCompileError as e:
        print(f"bankexplorer: {where}: the kernel does not compile:\n{e.log.strip()}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except (EmulationError, LaunchError, MemoryFault, DecodeError, CubinError) as e:
        msg = str(e)
        print(f"bankexplorer: {msg if msg.startswith(where + ':') else where + ': ' + msg}", file=sys.stderr)
        return EXIT_BAD_INPUT
    for n in launch.notes:
        r.notes.append((0, n))
    return finish(args, r, launch.kernel.source_text or "", where, launch.origin, launch.cfg,
                  launch.kernel.path if launch.kernel.path and launch.kernel.path.endswith(".py") else where, t0)
