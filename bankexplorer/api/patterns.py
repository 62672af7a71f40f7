"""Patterns from files and CUDA text, their analysis as numpy arrays, and saving them."""

from __future__ import annotations

import dataclasses
import math
import os
import warnings
from pathlib import Path
from typing import Any, Union

import numpy as np

from ..model import pattern as _pattern
from ..model.analysis import Analysis
from ..model.analysis import analyze as _analyze
from ..model.errors import BankExplorerError
from .counts import HardwareLike, resolve_hardware
from .drawing import default_figure


class Pattern(_pattern.Pattern):
    """A :class:`bankexplorer.model.Pattern` (the same immutable value: hardware, arrays, block,
    instructions) that shows as its composed figure in a notebook. ``bx.load`` and
    ``bx.from_cuda`` return one; every model function takes it."""

    @classmethod
    def of(cls, p: _pattern.Pattern) -> "Pattern":
        """The same pattern as a :class:`Pattern` (no copy of its contents)."""
        if isinstance(p, cls):
            return p
        return cls(**{f.name: getattr(p, f.name) for f in dataclasses.fields(p)})

    def __eq__(self, other: object) -> bool:
        """Equal to any pattern (this class or the model's) with the same contents."""
        if isinstance(other, _pattern.Pattern):
            return all(getattr(self, f.name) == getattr(other, f.name) for f in dataclasses.fields(self))
        return NotImplemented

    __hash__ = _pattern.Pattern.__hash__

    def _repr_png_(self) -> bytes | None:
        return default_figure(self)._repr_png_()


PatternLike = Union[_pattern.Pattern, str, os.PathLike, Any]


def load(path: str | os.PathLike) -> Pattern:
    """Read a pattern file (``.json``, the format of ``resources/examples``).

    Raises ``ValueError`` naming ``path`` with every problem's JSON path
    (``path: instructions[3].width: must be one of 1, 2, 4, 8, 16``)."""
    from ..io import patternfile

    if not isinstance(path, (str, os.PathLike)):
        raise ValueError(f"path: expected a file name, got {type(path).__name__}")
    try:
        return Pattern.of(patternfile.load(path))
    except BankExplorerError as e:
        raise ValueError(f"path: {e}") from e


def save(pattern: PatternLike, path: str | os.PathLike) -> None:
    """Write ``pattern`` (a pattern or an access from ``bx.layout``) as a pattern file, atomically:
    the file is complete or untouched. Raises ``ValueError`` naming the argument at fault."""
    from ..io import patternfile

    p = as_pattern(pattern, "pattern", allow_path=False)
    if not isinstance(path, (str, os.PathLike)):
        raise ValueError(f"path: expected a file name, got {type(path).__name__}")
    folder = Path(path).parent
    if str(folder) and not folder.is_dir():
        raise ValueError(f"path: folder {str(folder)!r} does not exist")
    try:
        patternfile.save(p, path)
    except OSError as e:
        raise ValueError(f"path: could not write {str(path)!r} ({e.strerror or e})") from e


#: ``from_cuda``'s block where neither the call nor the text gives one
DEFAULT_BLOCK = (32, 8)


def from_cuda(source: str | os.PathLike, block: tuple[int, ...] | int | None = None, *,
              block_index: tuple[int, ...] = (0, 0, 0), args: dict[str, Any] | None = None, arch: str = "sm_90",
              compiled: bool | None = None, kernel: str | None = None, **defines: int | float) -> Pattern:
    """A pattern from CUDA text, as ``bankexplorer import-cuda`` makes it.

    A whole kernel (a ``__global__`` function) is compiled with NVRTC and one block of it executed
    on the CPU: the pattern holds every shared-memory warp instruction the block executed, with its
    lanes' addresses, source line and SASS. ``compiled=False`` executes the kernel as written
    instead: its unoptimised build (``-G``), one instruction per source access. A snippet (no
    kernel) cannot be compiled: its lines that declare and index shared memory are read
    symbolically, parsed and never run.

    ``source`` is the CUDA text, or a :class:`pathlib.Path` to a ``.cu`` file or to a binary (a
    ``.cubin``, a fatbin, an executable or a shared library: its sm_90 code is executed; parameters
    by name where the binary names them, else by position: ``args={0: a, 2: 64}``, a number for a
    scalar). ``kernel`` picks a kernel by name, mangled or demangled (default: the first). ``block`` is
    ``blockDim`` (x, y, z; missing sizes are 1); left out, the text's own (a ``// block: 16, 16``
    comment, a ``<<<grid, block>>>`` launch or ``__launch_bounds__``, as the command line and the
    window read it; a binary's ``__launch_bounds__``), else (32, 8). ``block_index`` is the block to
    run. ``args`` fills
    pointer parameters' buffers: ``{"keys": np.array(...)}`` (the array's bytes from the start of a
    16 MiB zero-filled buffer). ``defines`` are like ``nvcc -D`` (``N=64``); a name that is a
    kernel parameter sets that parameter (scalars are 64 unless given). Notes (addresses that depend
    on data, counts that depend on timing, what cannot be modelled) come as ``UserWarning``; a
    ``ValueError`` names the argument when nothing could be imported."""
    from ..model.pattern import MAX_THREADS

    path = None
    if isinstance(source, os.PathLike):
        path = str(source)
        binary = _read_binary(path)
        if binary is not None:
            return _from_binary(binary, path, block, block_index, args or {}, arch, kernel, defines)
        from ..cudaimport.includes import IncludeError, read_source

        try:
            source = read_source(path)  # never more than the import's size limit
        except IncludeError as e:
            raise ValueError(f"source: cannot read {path!r} ({e.message.removeprefix(path + ': ')})") from None
        except OSError as e:
            raise ValueError(f"source: cannot read {path!r} ({e.strerror or e})") from e
    if not isinstance(source, str):
        raise ValueError(f"source: expected CUDA text or a pathlib.Path, got {type(source).__name__}")
    if block is None:
        from ..sass.launch import text_settings

        block = text_settings(source).get("block", (DEFAULT_BLOCK,))[0]
    dims, index = _launch_shape(block, block_index)
    if math.prod(dims) > MAX_THREADS:
        raise ValueError(f"block: {math.prod(dims):,} threads is more than a block can have ({MAX_THREADS})")
    for k, v in defines.items():
        if not isinstance(v, (int, float, np.integer, np.floating)) or isinstance(v, bool):
            raise ValueError(f"defines: {k} must be a number, got {v!r}")
    if "__global__" in source or compiled:
        return _from_cuda_executed(source, path, dims, index, args or {}, arch, defines,
                                   optimize=compiled is not False, kernel=kernel)
    if args:
        raise ValueError("args: data for a kernel's buffers: a snippet (no __global__ function) is not executed")
    return _from_cuda_as_written(source, path, dims, {k: int(v) for k, v in defines.items()})


def _dims3(value, name: str, low: int) -> tuple[int, int, int]:
    dims = (value,) if isinstance(value, (int, np.integer)) else tuple(value) if isinstance(value, (tuple, list)) \
        else None
    if not dims or len(dims) > 3 or not all(isinstance(d, (int, np.integer)) and not isinstance(d, bool) and d >= low
                                            for d in dims):
        raise ValueError(f"{name}: expected 1 to 3 sizes of at least {low} such as (32, 8), got {value!r}")
    return tuple(int(d) for d in dims) + (low if name == "block_index" else 1,) * (3 - len(dims))  # type: ignore



def _launch_shape(block, block_index) -> tuple[tuple[int, int, int], tuple[int, int, int]]:
    """The block and the block index as three dimensions each, within CUDA's limits (ValueError
    naming the argument otherwise)."""
    from ..sass.limits import check_block, check_index

    dims = _dims3(block, "block", 1)
    index = _dims3(block_index, "block_index", 0)
    for what, check, value in (("block", check_block, dims), ("block_index", check_index, index)):
        try:
            check(value)
        except ValueError as e:
            raise ValueError(f"{what}: {e}") from None
    return dims, index

def _read_binary(path: str) -> bytes | None:
    """A binary's bytes (by its first bytes: ELF or fatbin); None for a text."""
    from ..kernels import is_binary
    from ..kernels.binary import read_file
    from ..kernels.fatbin import BinaryError

    try:
        with open(path, "rb") as f:
            if not is_binary(f.read(4)):
                return None
        return read_file(path)
    except BinaryError as e:
        raise ValueError(f"source: {e}") from None
    except OSError as e:
        raise ValueError(f"source: cannot read {path!r} ({e.strerror or e})") from e


def _from_binary(data: bytes, path: str, block, block_index, args: dict, arch: str, kernel: str | None,
                 defines: dict) -> Pattern:
    """One block of a binary's kernel (the binary front end, :mod:`bankexplorer.kernels.binary`);
    ``block`` left out: the block the binary requires or its ``__launch_bounds__``, else (32, 8)."""
    from ..kernels.service import KernelSource, RunFailed, execute, load
    from ..sass.launch import EXTERN_BYTES, LaunchConfig
    from ..sass.limits import array_bytes

    try:
        k = load(KernelSource(binary=data, path=path, arch=arch, kernel=kernel))
    except RunFailed as e:
        raise ValueError(f"source: {e}") from None
    if block is None:
        block = k.launch.block.value if k.launch.block is not None else DEFAULT_BLOCK
    dims, index = _launch_shape(block, block_index)
    arrays, scalars = {}, {k2: v for k2, v in defines.items()}
    for key, v in args.items():
        name = str(key)
        if isinstance(v, (int, float, np.integer, np.floating)) and not isinstance(v, bool):
            scalars[name] = v.item() if hasattr(v, "item") else v
            continue
        try:
            arrays[name] = array_bytes(v)
        except (TypeError, ValueError) as e:
            raise ValueError(f"args: {key} {e}" if "dtype" in str(e) else f"args: {key} is not an array ({e})") from None
    extern = k.launch.extern_bytes.value if k.launch.extern_bytes is not None else EXTERN_BYTES
    cfg = LaunchConfig(dims, index, tuple(i + 1 for i in index), scalars, arrays, extern)
    run = _executed(lambda: execute(k, cfg), "args")
    return _run_pattern(run, k.source_text or "", Path(path).stem, cfg, k.path)


def _executed(start, launch_arg: str):
    """``start()``'s run (:mod:`bankexplorer.kernels.service`); its failure as a ``ValueError`` that
    names the argument at fault (``launch_arg`` for a launch the kernel refuses)."""
    from ..kernels.service import RunFailed

    try:
        return start()
    except RunFailed as e:
        if e.kind in ("execute", "stopped"):
            raise ValueError(f"source: the kernel cannot be executed: {e}") from None
        raise ValueError(f"{launch_arg if e.kind == 'launch' else 'source'}: {e}") from None


def _from_cuda_executed(source, path, dims, index, args, arch, defines, optimize: bool = True,
                        kernel: str | None = None) -> Pattern:
    from ..compiler import nvrtc
    from ..cudaimport.device_source import kernel_parameters
    from ..kernels.service import KernelSource, run
    from ..sass.launch import EXTERN_BYTES, LaunchConfig, text_settings

    if "__global__" not in source:
        raise ValueError("source: compiling needs a whole kernel (a __global__ function)")
    if not nvrtc.available():
        raise ValueError(f"compiled: {nvrtc.INSTALL_HINT}")
    if arch not in nvrtc.ARCHITECTURES:
        raise ValueError(f"arch: {arch!r} is not one of {', '.join(nvrtc.ARCHITECTURES)}")
    from ..sass.limits import array_bytes

    data = {}
    for k, v in args.items():
        try:
            data[k] = array_bytes(v)
        except (TypeError, ValueError) as e:
            raise ValueError(f"args: {k} {e}" if "dtype" in str(e) else f"args: {k} is not an array ({e})") from None
    params = kernel_parameters(source)
    extern = int(text_settings(source).get("extern-size", (EXTERN_BYTES,))[0])  # a '// extern-size: N' comment
    cfg = LaunchConfig(dims, index, tuple(i + 1 for i in index),
                       {k: v for k, v in defines.items() if k in params}, data, extern)
    src = KernelSource(source, None, path, arch, kernel, {k: v for k, v in defines.items() if k not in params},
                       (), optimize)
    r = _executed(lambda: run(src, cfg), "source")
    return _run_pattern(r, source, Path(path).stem if path else r.kernel, cfg, path)


def _run_pattern(run, text: str, name: str, cfg, path: str | None) -> Pattern:
    """An executed kernel's pattern; its notes (data- and timing-dependent counts...) as warnings
    at the caller's caller (the user's line)."""
    from ..sass.to_pattern import kernel_pattern

    for line, msg in run.notes:
        warnings.warn(f"line {line}: {msg}" if line else msg, UserWarning, stacklevel=4)
    return Pattern.of(kernel_pattern(run, text, name, cfg=cfg, path=path))


def _from_cuda_as_written(source, path, dims, defines) -> Pattern:
    from ..cudaimport import ImportOptions, import_cuda

    opts = ImportOptions(block=dims, defines=defines, path=path)
    res = import_cuda(source, opts)
    problems = [d for d in res.diagnostics if d.severity != "note"]
    if not res.pattern.instructions:
        msg = "; ".join(f"line {d.line}, column {d.column}: {d.message}" for d in problems[:3])
        hint = ""
        if "\n" not in source and source.strip().endswith((".cu", ".cuh", ".h")):
            hint = " (to read a file, pass a pathlib.Path)"
        raise ValueError("source: no shared-memory access could be imported" + (f" ({msg})" if msg else "") + hint)
    for d in problems:
        warnings.warn(f"line {d.line}, column {d.column}: {d.message}", UserWarning, stacklevel=3)
    return Pattern.of(res.pattern)


def as_pattern(obj: Any, name: str = "pattern", allow_path: bool = True) -> _pattern.Pattern:
    """A model pattern from a pattern, an access or a result (each has the pattern it stands for
    as ``.pattern``) or (``allow_path``) a file name."""
    if isinstance(obj, _pattern.Pattern):
        return obj
    if isinstance(getattr(obj, "pattern", None), _pattern.Pattern):  # bx.Access, bx.Result
        return obj.pattern
    if allow_path and isinstance(obj, (str, os.PathLike)):
        try:
            return load(obj)
        except ValueError as e:
            raise ValueError(f"{name}: {str(e).removeprefix('path: ')}") from None
    raise ValueError(f"{name}: expected a pattern (bx.load, bx.from_cuda), an access (bx.layout(...).ldmatrix()) "
                     f"or a result, got {type(obj).__name__}")


#: the per-instruction columns of :meth:`Result.to_pandas`, in order
COLUMNS = ("instruction", "iteration", "warp", "kind", "width", "wavefronts", "ideal", "excess", "n_way",
           "phases", "active_lanes", "bytes_requested", "bytes_moved", "repeat", "error")


class Result:
    """The analysis of a pattern: one row per warp instruction (the instructions in order, each
    one's loop iterations, then the warps, as ``bankexplorer analyze --json``), as numpy arrays,
    and :attr:`totals`. Invalid rows (an out-of-bounds or misaligned access) have
    ``wavefronts == -1`` and their message in :attr:`errors`. Shows as the figure of its worst
    instruction in a notebook; :attr:`analysis` is the model's full :class:`Analysis`."""

    def __init__(self, analysis: Analysis) -> None:
        self.analysis = analysis  #: the model's :class:`~bankexplorer.model.Analysis` (per-lane detail)
        res = analysis.result
        ok = analysis.ok
        self.pattern: Pattern = Pattern.of(analysis.pattern)  #: the analysed pattern
        self.instruction: np.ndarray = analysis.source.astype(np.int64)  #: pattern instruction of each row
        self.iteration: np.ndarray = analysis.iteration.astype(np.int64)  #: its loop iteration
        self.warp: np.ndarray = analysis.warp.astype(np.int64)  #: the warp
        self.wavefronts: np.ndarray = res.wavefronts.astype(np.int64)  #: wavefronts (-1: invalid)
        self.ideal: np.ndarray = np.where(ok, res.ideal, 0).astype(np.int64)  #: fewest possible
        self.excess: np.ndarray = np.where(ok, res.wavefronts - res.ideal, 0).astype(np.int64)  #: above ideal
        self.n_way: np.ndarray = np.where(ok, res.degree, 0).astype(np.int64)  #: N-way conflict degree
        self.phases: np.ndarray = res.phases.astype(np.int64)  #: phases with an active lane
        self.active_lanes: np.ndarray = res.served.sum(axis=1).astype(np.int64)  #: lanes served
        self.bytes_requested: np.ndarray = res.bytes_requested.astype(np.int64)  #: bytes the lanes ask for
        self.bytes_moved: np.ndarray = np.where(ok, res.bytes_moved, 0).astype(np.int64)  #: wavefronts x 128
        self.repeat: np.ndarray = analysis.repeat.astype(np.int64)  #: kernel executions per row
        c = analysis.counts()
        #: per row: the loads of a compare-and-swap loop (float add, 64-bit add), which the totals add
        #: to ``wavefronts``, and their ideal, which they add to ``ideal`` (0 for every other row)
        self.loop_load_wavefronts: np.ndarray = np.where(ok, c.loop_loads, 0).astype(np.int64)
        self.loop_load_ideal: np.ndarray = np.where(ok, c.loop_ideal, 0).astype(np.int64)  #: (see above)
        self.errors: list[str | None] = list(analysis.errors)  #: per row: why it is invalid, or None
        self.totals: dict[str, Any] = _totals(analysis)  #: one pass of the block, and the kernel

    def __len__(self) -> int:
        return int(self.wavefronts.shape[0])

    @property
    def kind(self) -> np.ndarray:
        """Per row: the instruction's kind (``load``, ``store``, ``atomic``, ``ldmatrix``, ``stmatrix``)."""
        kinds = np.array([i.kind for i in self.pattern.instructions] or ["load"], dtype=object)
        return kinds[self.instruction]

    @property
    def width(self) -> np.ndarray:
        """Per row: bytes per lane (16 for the matrix kinds)."""
        return np.asarray(self.analysis.batch.width, np.int64)

    def worst(self) -> int:
        """The pattern instruction with the most wavefronts above the ideal (the first if tied)."""
        if not len(self):
            return 0
        return int(self.instruction[int(np.argmax(self.excess))])

    def to_dict(self) -> dict[str, Any]:
        """Columns as numpy arrays (see :data:`COLUMNS`), for any dataframe library."""
        return {c: (np.array(self.errors, dtype=object) if c == "error" else getattr(self, c)) for c in COLUMNS}

    def to_pandas(self) -> Any:
        """A ``pandas.DataFrame`` with one row per warp instruction (columns :data:`COLUMNS`).
        pandas is not a dependency of BankExplorer: ``ImportError`` says how to get it."""
        try:
            import pandas as pd
        except ImportError:
            raise ImportError("Result.to_pandas() needs pandas, which BankExplorer does not install: "
                              "pip install pandas (or use Result.to_dict())") from None
        return pd.DataFrame(self.to_dict())

    def __repr__(self) -> str:
        t = self.totals
        return (f"<bx.Result {self.pattern.name!r}: {t['instructions']} warp instructions, {t['wavefronts']} "
                f"wavefronts (ideal {t['ideal']}, efficiency {t['efficiency']:.0%}), worst {t['worst_degree']}-way>")

    def _repr_png_(self) -> bytes | None:
        return default_figure(self.pattern, self.analysis)._repr_png_()


def _totals(an: Analysis) -> dict[str, Any]:
    t = an.totals()
    d = dict(t.__dict__)
    d.update(excess=t.excess, kernel_excess=t.kernel_excess, efficiency=t.efficiency)
    return d


def analyze(pattern: PatternLike, *, hardware: HardwareLike | None = None) -> Result:
    """Analyse a pattern (or an access from ``bx.layout``, or a pattern file's name): wavefronts,
    ideal, N-way degree and bytes for every warp instruction, and the totals. ``hardware``
    replaces the pattern's own. Raises ``ValueError`` naming ``pattern`` for an invalid pattern
    (every problem listed with its path)."""
    p = as_pattern(pattern)
    if hardware is not None:
        p = dataclasses.replace(p, hardware=resolve_hardware(hardware))
    problems = p.validate()
    if problems:
        raise ValueError("pattern: " + "; ".join(f"{w}: {m}" for w, m in problems[:5])
                         + (f" (and {len(problems) - 5} more)" if len(problems) > 5 else ""))
    try:
        an = _analyze(p)
    except BankExplorerError as e:
        raise ValueError(f"pattern: {e}") from e
    return Result(an)


__all__ = ["Pattern", "Result", "load", "save", "from_cuda", "analyze", "COLUMNS"]
