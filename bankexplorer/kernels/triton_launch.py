"""One launch of a Triton kernel, as ``kernel[grid](*args, num_warps=..., BLOCK=...)`` would make it,
for the command line, the Python API and the window alike.

The values a launch names (``-D NAME=VALUE``, or ``bx.from_triton``'s keywords) are sorted as
Triton sorts them: Triton's launch options (``num_warps``, ``num_stages``, ...), the function's
``tl.constexpr`` parameters and its other (runtime) parameters. From a ``.py`` file all of them go
to the compile (:mod:`.triton_source`: the arrays' dtypes and the integers' divisibility by 16
specialize it as the launcher would); from a cache entry, the code is already compiled: a launch
option must be the one it was compiled with, an integer the entry took as divisible by 16 must be,
and constexprs cannot be checked (the entry does not record them), so they are taken as given.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

import numpy as np

from ..sass.kernel import Kernel
from ..sass.launch import LaunchConfig, LaunchError
from .triton_cache import CacheEntryError, from_cache_entry, is_cache_entry, read_meta, ttir_signature
from .triton_source import LAUNCH_OPTIONS, TritonCompileError, TritonUnavailable, compile_file

__all__ = ["TritonLaunch", "from_entry", "from_source", "is_cache_entry", "TritonCompileError", "TritonUnavailable",
           "CacheEntryError"]


@dataclass
class TritonLaunch:
    """A Triton kernel and the launch of one of its programs (one block)."""

    kernel: Kernel
    cfg: LaunchConfig
    origin: str  # where the block came from ("num_warps=4")
    notes: list[str] = field(default_factory=list)
    compile_seconds: float = 0.0


def _config(kernel: Kernel, arrays: dict[str, np.ndarray], scalars: dict, block_index=(0, 0, 0),
            grid=None) -> LaunchConfig:
    block = tuple(kernel.launch.block.value)
    extern = int(kernel.launch.extern_bytes.value)
    grid = tuple(grid) if grid else tuple(i + 1 for i in block_index)
    return LaunchConfig(block, tuple(block_index), grid, dict(scalars),
                        {n: np.ascontiguousarray(a).tobytes() for n, a in arrays.items()}, extern)


def from_source(path: str, function: str, arrays: dict[str, np.ndarray], values: dict[str, int | float | bool],
                block_index=(0, 0, 0), grid=None, python_lines: bool = True) -> TritonLaunch:
    """Compile ``function`` of the ``.py`` file for these arguments (in a child process: the file's
    Python runs there) and lay out the launch of one program."""
    dtypes = {n: np.asarray(a).dtype.name for n, a in arrays.items()}
    c = compile_file(path, function, dtypes, values)
    kernel = from_cache_entry(os.path.join(c.entry, f"{c.name}.cubin"), python_lines)
    kernel.path = os.path.abspath(path)
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            kernel.source_text = f.read(4 << 20)
    except OSError:
        pass
    kernel.line_file = os.path.basename(path)
    scalars = {n: v for n, v in values.items() if kernel.param(n) is not None and not kernel.param(n).pointer}
    launch = TritonLaunch(kernel, _config(kernel, arrays, scalars, block_index, grid), kernel.launch.block.origin,
                          compile_seconds=c.seconds)
    return launch


def from_entry(cubin_path: str, arrays: dict[str, np.ndarray], values: dict[str, int | float | bool],
               block_index=(0, 0, 0), grid=None, python_lines: bool = True) -> TritonLaunch:
    """A cache entry's kernel and the launch of one program, the given values checked against what
    the entry was compiled for (see the module's docstring)."""
    kernel = from_cache_entry(cubin_path, python_lines)
    stem = cubin_path[:-len(".cubin")]
    meta = read_meta(stem + ".json")
    notes = []
    for opt in LAUNCH_OPTIONS:
        if opt in values and opt in ("num_warps", "num_ctas") and int(values[opt]) != getattr(meta, opt):
            raise LaunchError(f"-D {opt}={values[opt]}: the cache entry was compiled with {opt}={getattr(meta, opt)} "
                              f"(Triton compiles another entry for another value)")
    divisible = _divisible(stem, meta.name)
    scalars = {}
    for name, value in values.items():
        if name in LAUNCH_OPTIONS:
            continue
        p = kernel.param(name)
        if p is None:  # a constexpr (or an integer equal to 1): compiled into the code
            continue
        if p.pointer:
            raise LaunchError(f"-D {name}: {name} is a pointer ({p.type}); give it data with --arg {name}=FILE.npy")
        if name in divisible and isinstance(value, int) and value % 16:
            raise LaunchError(f"-D {name}={value}: the cache entry was compiled for {name} divisible by 16 (Triton's "
                              f"launcher compiles another entry for {value})")
        scalars[name] = value
    for name in arrays:
        p = kernel.param(name)
        if p is not None and not p.pointer:
            raise LaunchError(f"--arg {name}: {name} is not a pointer ({p.type}); give it a value with -D {name}=VALUE")
    return TritonLaunch(kernel, _config(kernel, arrays, scalars, block_index, grid), kernel.launch.block.origin, notes)


def _divisible(stem: str, name: str) -> set[str]:
    """The integer parameters the entry's TTIR marks ``tt.divisibility = 16``."""
    for ext in (".ttir", ".source"):
        if os.path.isfile(stem + ext):
            with open(stem + ext, encoding="utf-8", errors="replace") as f:
                sig = ttir_signature(f.read(16 << 20), name, attributes=True)
            if sig is not None:
                return {n for n, t, attrs in sig if not t.startswith("!tt.ptr") and "tt.divisibility = 16" in attrs}
    return set()
