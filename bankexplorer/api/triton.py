"""``bx.from_triton``: a Triton kernel's pattern, read like Triton's own launch.

    pat = bx.from_triton(colsum, args={"X": x, "Y": y, "M": 128}, N=64, BLOCK_M=128, num_warps=8)

``kernel`` is a ``@triton.jit`` function (its file is compiled, in a child process: see
docs/security.md), a ``.py`` file (``function=`` names the kernel) or a cache entry's ``NAME.cubin``.
"""

from __future__ import annotations

import inspect
import os
import warnings
from pathlib import Path
from typing import Any

import numpy as np

from .patterns import Pattern


def from_triton(kernel: Any, args: dict[str, Any] | None = None, *, function: str | None = None,
                block_index: tuple[int, ...] = (0, 0, 0), **values: int | float | bool) -> Pattern:
    """The pattern of one program (one block) of a Triton kernel, executed on the CPU as compiled
    for sm_90 (Triton's launcher's specialization for these arguments: the arrays' dtypes, integers
    divisible by 16, integers equal to 1).

    ``args``: the kernel's arguments by name, numpy arrays for its pointers (each fills the start of
    a zero-filled 16 MiB buffer) and numbers for its scalars; ``values``: its constexprs and scalars,
    and Triton's launch options (``num_warps=4``, ``num_stages=3``). ``block_index`` is the program
    id. Per-line notes come as ``UserWarning``; a ``ValueError`` names what is wrong."""
    from ..kernels import triton_launch as T
    from ..sass.cubin import CubinError
    from ..sass.decode import DecodeError
    from ..sass.issue import EmulationError
    from ..sass.launch import LaunchError
    from ..sass.run import execute
    from ..sass.state import MemoryFault
    from ..sass.to_pattern import kernel_pattern
    from .patterns import _dims3

    arrays, scalars = {}, {}
    for k, v in (args or {}).items():
        if isinstance(v, (bool, int, float, np.integer, np.floating)):
            scalars[k] = v.item() if isinstance(v, np.generic) else v
        else:
            try:
                arrays[k] = np.ascontiguousarray(np.asarray(v))
            except (TypeError, ValueError) as e:
                raise ValueError(f"args: {k} is neither an array nor a number ({e})") from None
            if arrays[k].dtype == object:
                raise ValueError(f"args: {k} is not a numeric array")
    for k, v in values.items():
        if not isinstance(v, (bool, int, float, np.integer, np.floating)):
            raise ValueError(f"{k}: expected a number, got {v!r}")
    vals = {**scalars, **{k: (v.item() if isinstance(v, np.generic) else v) for k, v in values.items()}}
    index = _dims3(block_index, "block_index", 0)
    path, name = _where(kernel, function)
    try:
        if path.endswith(".cubin"):
            launch = T.from_entry(path, arrays, vals, index)
        else:
            launch = T.from_source(path, name, arrays, vals, index)
        run = execute(launch.kernel, launch.cfg)
    except T.TritonUnavailable as e:
        raise ValueError(str(e)) from None
    except T.TritonCompileError as e:
        raise ValueError(f"kernel: does not compile: {e.log.strip()}") from None
    except (LaunchError, EmulationError, MemoryFault, DecodeError, CubinError) as e:
        raise ValueError(f"kernel: {e}") from None
    for line, msg in run.notes:
        warnings.warn(f"line {line}: {msg}" if line else msg, UserWarning, stacklevel=2)
    text = launch.kernel.source_text or ""
    return Pattern.of(kernel_pattern(run, text, launch.kernel.name, launch.origin, launch.cfg,
                                     path=launch.kernel.path))


def _where(kernel: Any, function: str | None) -> tuple[str, str | None]:
    """(file, function name) of a JIT function, a .py path or a cache entry's .cubin."""
    if isinstance(kernel, (str, os.PathLike)):
        path = str(kernel)
        if not os.path.isfile(path):
            raise ValueError(f"kernel: {path}: no such file")
        if path.endswith(".cubin"):
            return path, function
        if not path.endswith(".py"):
            raise ValueError(f"kernel: {path}: expected a .py file or a Triton cache entry's .cubin")
        if not function:
            raise ValueError("function: name the @triton.jit function of the file (function='my_kernel')")
        return path, function
    fn = getattr(kernel, "fn", None)
    if fn is None or not callable(fn):
        raise ValueError(f"kernel: expected a @triton.jit function, a .py file or a .cubin, got {type(kernel).__name__}")
    try:
        src = inspect.getsourcefile(fn)
    except TypeError:
        src = None
    if not src or not os.path.isfile(src):
        raise ValueError(f"kernel: the file of {fn.__name__} cannot be found (define it in a .py file)")
    return str(Path(src)), function or fn.__name__
