"""``bx.layout``: CuTe, Triton and TMA layouts as callables, and accesses built from them.

A :class:`Layout` wraps a :class:`~bankexplorer.model.SharedArray` whose transform is the parsed
library layout (the same parsers the window's layout editor uses,
:func:`bankexplorer.model.libraries.from_text`), so ``L(row, col)`` is exactly the byte offset the
engine, the window and the figures use.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Sequence

import numpy as np

from ..model.errors import BankExplorerError
from ..model.layout import DTYPES, SharedArray
from ..model.libraries import access as libaccess
from ..model.libraries import cute, from_text
from ..model.pattern import Instruction, Pattern
from .counts import DEFAULT_HARDWARE, HardwareLike, resolve_hardware
from .drawing import default_figure
from .patterns import Pattern as ApiPattern

#: numpy-style names accepted for ``dtype`` besides the CUDA names of :data:`DTYPES`
DTYPE_ALIASES = {"float16": "half", "float32": "float", "float64": "double", "bfloat16": "bf16",
                 "int8": "int8", "uint8": "uint8", "int16": "int16", "int32": "int32", "int64": "int64",
                 "uint32": "uint32", "uint64": "uint64"}


def _dtype_name(dtype: Any) -> str:
    if isinstance(dtype, str):
        name = DTYPE_ALIASES.get(dtype, dtype)
    else:
        try:
            name = DTYPE_ALIASES.get(np.dtype(dtype).name, "")
        except TypeError:
            name = ""
    if name not in DTYPES:
        raise ValueError(f"dtype: unknown element type {dtype!r} (e.g. half, bf16, float, int, double, float4, "
                         f"or numpy names float16, float32, ...)")
    return name


class Layout:
    """A shared-memory tile laid out by a library: call it for byte offsets.

    ``L(row, col)`` (``L(i)`` for a 1-D layout, ``L(i, j, k)`` for 3-D) gives the byte offset of
    that element from the tile's start, for ints or numpy arrays (broadcast together; an array
    in gives an ``int64`` array out, ints give an ``int``). Build accesses with
    :meth:`ldmatrix`, :meth:`stmatrix`, :meth:`rows` and :meth:`sweep`; pass those, or offsets
    from ``L`` directly, to ``bx.wavefronts`` / ``bx.analyze``.
    """

    def __init__(self, array: SharedArray, text: str) -> None:
        self.array = array  #: the :class:`~bankexplorer.model.SharedArray` (pattern-file form)
        self.text = text  #: the layout string as given

    @property
    def shape(self) -> tuple[int, ...]:
        """The tile's logical shape (rows, cols) in elements."""
        return tuple(self.array.dims)

    @property
    def dtype(self) -> str:
        """The element type (a CUDA name such as ``half``)."""
        return self.array.dtype

    @property
    def elem_size(self) -> int:
        """Bytes per element."""
        return self.array.elem_size

    def describe(self) -> str:
        """One line: what the layout is, as the window's layout editor says it."""
        return self.array.transform.describe()

    def __repr__(self) -> str:
        return f"bx.layout({self.text!r}, dtype={self.dtype!r}, shape={self.shape})"

    def __call__(self, *coords: int | np.ndarray) -> int | np.ndarray:
        """Byte offsets of the elements at ``coords`` (one index per dimension)."""
        if len(coords) != self.array.ndim:
            raise ValueError(f"coords: the layout has {self.array.ndim} dimension(s) {self.shape}, "
                             f"got {len(coords)} index argument(s)")
        names = ("row", "col") if self.array.ndim == 2 else tuple(f"i{k}" for k in range(self.array.ndim))
        arrays = []
        for name, c, d in zip(names, coords, self.shape):
            a = np.asarray(c)
            if a.dtype == bool or not np.issubdtype(a.dtype, np.integer):
                raise ValueError(f"{name}: expected integer indices, got {a.dtype}")
            if a.size and (a.min() < 0 or a.max() >= d):
                raise ValueError(f"{name}: indices must be from 0 to {d - 1}, got {int(a.min())}..{int(a.max())}")
            arrays.append(a.astype(np.int64))
        try:
            shape = np.broadcast_shapes(*(a.shape for a in arrays))
        except ValueError:
            raise ValueError(f"coords: index arrays of shapes {[a.shape for a in arrays]} do not broadcast together")
        idx = tuple(np.broadcast_to(a, shape).ravel() for a in arrays)
        off = np.asarray(self.array.byte_offsets(idx), np.int64).reshape(shape)
        return int(off) if off.ndim == 0 and all(np.ndim(c) == 0 and not isinstance(c, np.ndarray) for c in coords) else off

    # ---- accesses --------------------------------------------------------------------------------
    def ldmatrix(self, matrices: int = 4, *, trans: bool = False, row: int = 0, col: int = 0,
                 fragment: str | None = None) -> "Access":
        """One ``ldmatrix.x{matrices}`` (``.trans``) reading the fragment whose top-left element
        is ``[row][col]``: lanes ``8m..8m+7`` address the eight 16-byte rows of matrix ``m``,
        matrices taken down the rows first (the mma A-operand order; ``.x4`` reads 16 x 16 of
        2-byte elements). ``fragment`` (``"16x16"``, ``"32x8"``, ``"8x32"``, ...) overrides the
        shape, in elements. ``.trans`` moves registers, not addresses: same wavefronts."""
        return self._matrix("ldmatrix", matrices, trans, row, col, fragment)

    def stmatrix(self, matrices: int = 4, *, trans: bool = False, row: int = 0, col: int = 0,
                 fragment: str | None = None) -> "Access":
        """As :meth:`ldmatrix`, for ``stmatrix`` (the same addresses, written)."""
        return self._matrix("stmatrix", matrices, trans, row, col, fragment)

    def _matrix(self, kind: str, matrices: int, trans: bool, row: int, col: int, fragment: str | None) -> "Access":
        arr = self.array
        if matrices not in (1, 2, 4) or isinstance(matrices, bool):
            raise ValueError(f"matrices: must be 1, 2 or 4 (.x1/.x2/.x4), got {matrices!r}")
        if not isinstance(trans, (bool, np.bool_)):
            raise ValueError(f"trans: expected True or False, got {trans!r}")
        if arr.ndim != 2:
            raise ValueError(f"layout: {kind} reads 2-D tiles; this layout has shape {self.shape}")
        R, C = self.shape
        try:
            fragment = fragment or libaccess.fragment_shape(matrices, arr.elem_size, R, C)
            libaccess.check_runs(arr, 16 // arr.elem_size if arr.elem_size < 16 else 1, f"{kind} matrix row")
        except BankExplorerError as e:
            raise ValueError(f"layout: {e.message}") from None
        try:
            fr, fc = (int(x) for x in str(fragment).lower().split("x"))
        except ValueError:
            raise ValueError(f"fragment: must be ROWSxCOLS in elements, e.g. 16x16, got {fragment!r}") from None
        _check_origin(row, col, fr, fc, R, C)
        try:
            ins = libaccess.matrix_fragment(arr.name, matrices, fragment, kind=kind, trans=trans,
                                            elem_size=arr.elem_size, row0=str(row), col0=str(col),
                                            label=f"{kind}.x{matrices}{'.trans' if trans else ''} "
                                                  f"{fragment} at [{row}][{col}]")
        except BankExplorerError as e:
            raise ValueError(f"fragment: {e.message}") from None
        return Access(self, ins)

    def rows(self, width: int = 16, *, row: int = 0, col: int = 0, kind: str = "load") -> "Access":
        """One warp instruction where the 32 lanes take consecutive ``width``-byte vectors
        (``float4`` rows: ``width=16``) of the tile in row order, lane 0 at ``[row][col]``."""
        arr = self.array
        if kind not in ("load", "store"):
            raise ValueError(f"kind: must be 'load' or 'store', got {kind!r}")
        if width not in (1, 2, 4, 8, 16) or width < arr.elem_size:
            raise ValueError(f"width: must be 1, 2, 4, 8 or 16 bytes and at least the element size "
                             f"({arr.elem_size}), got {width!r}")
        per = width // arr.elem_size
        C = self.shape[-1]
        if C % per:
            raise ValueError(f"width: rows of {C} elements do not split into {per}-element vectors")
        if arr.ndim != 2:
            raise ValueError(f"layout: rows() reads 2-D tiles; this layout has shape {self.shape}")
        R = self.shape[0]
        vpr = C // per
        if not isinstance(col, int) or col % per:
            raise ValueError(f"col: must be a multiple of {per} (one {width}-byte vector), got {col!r}")
        if not isinstance(row, int) or not 0 <= row < R or not 0 <= col < C:
            raise ValueError(f"row: [{row}][{col}] is outside the {R} x {C} tile")
        first = row * vpr + col // per
        if first + 32 > R * vpr:
            raise ValueError(f"row: 32 vectors from [{row}][{col}] run past the end of the {R} x {C} tile")
        try:
            libaccess.check_runs(arr, per, f"{width}-byte vector")
        except BankExplorerError as e:
            raise ValueError(f"layout: {e.message}") from None
        q = f"({first} + lane)" if first else "lane"
        index = (f"{q} / {vpr}", f"({q} % {vpr}) * {per}" if vpr > 1 else "0")
        ins = Instruction(kind=kind, width=width, array=arr.name, index=index,
                          label=f"{width}-byte {kind}s of rows from [{row}][{col}]")
        return Access(self, ins)

    def sweep(self, kind: str = "ldmatrix", *, matrices: int = 4, trans: bool = False, width: int = 16,
              threads: int = 32) -> "Access":
        """The whole tile, as the window's *Add library access* does: ``ldmatrix``/``stmatrix``
        fragment by fragment (one warp instruction per fragment; M-major tiles read as CUTLASS
        does with ``.trans``), or ``load``/``store`` ``width`` bytes at a time by ``threads``
        threads (one warp instruction per warp and loop step)."""
        arr = self.array
        try:
            if kind in ("ldmatrix", "stmatrix"):
                if matrices not in (1, 2, 4):
                    raise ValueError(f"matrices: must be 1, 2 or 4, got {matrices!r}")
                ins = libaccess.fragment_sweep(arr, matrices, kind=kind, trans=trans)
                threads = 32
            elif kind in ("load", "store"):
                if width not in (1, 2, 4, 8, 16):
                    raise ValueError(f"width: must be one of 1, 2, 4, 8, 16, got {width!r}")
                if not isinstance(threads, int) or not 1 <= threads <= 1024:
                    raise ValueError(f"threads: must be from 1 to 1024, got {threads!r}")
                ins = libaccess.vector_sweep(arr, threads, width, kind)
            else:
                raise ValueError(f"kind: must be ldmatrix, stmatrix, load or store, got {kind!r}")
        except BankExplorerError as e:
            raise ValueError(f"layout: {e.message}") from None
        return Access(self, ins, block=(threads, 1, 1))


def _check_origin(row: Any, col: Any, fr: int, fc: int, R: int, C: int) -> None:
    for name, v, size, lim in (("row", row, fr, R), ("col", col, fc, C)):
        if not isinstance(v, (int, np.integer)) or isinstance(v, bool):
            raise ValueError(f"{name}: expected an integer, got {v!r}")
        if not 0 <= v or v + size > lim:
            raise ValueError(f"{name}: a {fr}x{fc} fragment at [{row}][{col}] does not fit the {R} x {C} tile")


@dataclass(frozen=True)
class Access:
    """An access built from a :class:`Layout`: the tile and one instruction over it, as a
    one-array pattern. ``bx.wavefronts(access)``, ``bx.analyze(access)`` and ``bx.figure(access)``
    take it; :attr:`pattern` is the pattern-file form (``bx.save(access.pattern, ...)``)."""

    layout: Layout
    instruction: Instruction
    block: tuple[int, int, int] = (32, 1, 1)

    @property
    def pattern(self) -> Pattern:
        """A pattern with the layout's array and this instruction (one warp unless a sweep)."""
        return ApiPattern(name=self.instruction.label or self.instruction.title(), block=self.block,
                          arrays=(self.layout.array,), instructions=(self.instruction,))

    @property
    def kind(self) -> str:
        """``load``, ``store``, ``ldmatrix`` or ``stmatrix``."""
        return self.instruction.kind

    def _analysis(self, hardware: HardwareLike | None = None):
        from ..model.analysis import analyze

        pat = self.pattern
        if hardware is not None:
            pat = replace(pat, hardware=resolve_hardware(hardware))
        an = analyze(pat, detail=False)
        if an.instruction_errors:
            raise ValueError(f"access: {next(iter(an.instruction_errors.values()))}")
        return an

    @property
    def addresses(self) -> np.ndarray:
        """Byte addresses per lane, ``-1`` for lanes that take no part: shape ``(32,)`` for one
        warp instruction, ``(n, 32)`` for a sweep."""
        an = self._analysis()
        a = np.where(an.batch.active, an.batch.addr, -1).astype(np.int64)
        return a[0] if a.shape[0] == 1 else a

    def wavefronts(self, hardware: HardwareLike = DEFAULT_HARDWARE) -> int | np.ndarray:
        """Wavefronts: an ``int`` for one warp instruction, an array for a sweep."""
        an = self._analysis(hardware)
        bad = an.result.wavefronts < 0
        if bad.any():
            raise ValueError(f"access: {an.errors[int(np.argmax(bad))]}")
        w = an.result.wavefronts.astype(np.int64)
        return int(w[0]) if w.shape[0] == 1 else w

    def __repr__(self) -> str:
        return f"<bx.Access {self.instruction.title()} on {self.layout!r}>"

    def _repr_png_(self) -> bytes | None:
        return default_figure(self.pattern)._repr_png_()


def layout(text: str, dtype: Any = "half", *, shape: Sequence[int] | None = None, base: int = 0) -> Layout:
    """A library layout as a callable ``L(row, col) -> byte offset``.

    ``text`` is what the library prints, as the window's layout editor accepts it: a CuTe layout
    (``"Sw<3,3,3> o _0 o (_8,_64):(_64,_1)"``, nested ``((_8,_8),(_8,_2)):((_64,_1),(_8,_512))``,
    ``smem_ptr[16b](unset) o ...``), a Triton shared encoding
    (``"#ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>"``,
    ``"#ttg.nvmma_shared<{swizzlingByteWidth = 128, ...}>"``) or a TMA swizzle mode
    (``"CU_TENSOR_MAP_SWIZZLE_128B"``). ``dtype`` is the element type (``half``, ``bf16``,
    ``float``, ... or ``float16``, ``float32``). ``shape`` is the tile in elements: a CuTe layout
    brings its own (its modes' sizes); Triton and TMA layouts need it. ``base`` is the tile's byte
    offset in shared memory (a TMA or swizzled CuTe tile must be aligned to its period).

    Raises ``ValueError`` naming ``text`` (with the column and what was expected), ``dtype``,
    ``shape`` or ``base``.
    """
    if not isinstance(text, str):
        raise ValueError(f"text: expected a layout string, got {type(text).__name__}")
    name = _dtype_name(dtype)
    try:
        transform = from_text(text)
    except BankExplorerError as e:
        raise ValueError(f"text: {e.message}") from None
    if transform.kind == cute.KIND:
        sizes = cute.parse(text).mode_sizes()
        dims = tuple(shape) if shape is not None else tuple(int(s) for s in sizes)
    else:
        if shape is None:
            raise ValueError("shape: a Triton or TMA layout has no shape of its own: give shape=(rows, cols)")
        dims = tuple(shape)
    if not 1 <= len(dims) <= 3 or not all(isinstance(d, (int, np.integer)) and not isinstance(d, bool) and d > 0
                                           for d in dims):
        raise ValueError(f"shape: expected 1 to 3 positive integers, got {shape!r}")
    if not isinstance(base, int) or base < 0 or base % 16:
        raise ValueError(f"base: must be a non-negative multiple of 16 bytes, got {base!r}")
    arr = SharedArray(name="tile", dtype=name, dims=tuple(int(d) for d in dims), base=base, transform=transform)
    problems = arr.validate()
    if problems:
        field, msg = problems[0]
        arg = "shape" if field == "dims" or "dims" in msg else "base" if field == "base" else "text"
        raise ValueError(f"{arg}: {msg}")
    return Layout(arr, text)


__all__ = ["Layout", "Access", "layout"]
