"""The access side as the libraries describe it, turned into :class:`Instruction`\\ s.

* :func:`matrix_fragment`: the standard ``ldmatrix`` / ``stmatrix`` ``.x1/.x2/.x4(.trans)``
  address patterns. Each 8x8 matrix has eight 16-byte rows; lanes ``8m .. 8m+7`` give the rows
  of matrix ``m``. A fragment ``RxC`` (in elements) is cut into 8-row x 16-byte matrices, taken
  down the rows first (the mma A-operand order: for ``16x16``, ``m0`` = rows 0-7 / cols 0-7,
  ``m1`` = rows 8-15 / cols 0-7, ``m2`` = rows 0-7 / cols 8-15, ``m3`` = rows 8-15 / cols 8-15)
  or across the columns first. ``.trans`` transposes the registers, not the addresses, so it
  costs the same wavefronts: the rows read are the same.
* :func:`tv_copy`: a CuTe thread-value layout of a tiled copy, ``(thread, value) -> tile index``
  with the tile ``(M, N)`` indexed colexicographically (``m = i % M``, ``n = i / M``), as
  ``print(tiled_copy)`` shows as ``LayoutTV``. Each thread's values are read ``vector`` at a
  time (``vector * sizeof(T)`` bytes per access), one loop iteration per vector.

Both return ordinary instructions whose index expressions are written out, so the file format
needs no new form and what the tool analyses is visible to the user.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from ..errors import BankExplorerError
from ..hardware import WIDTHS
from ..layout import SharedArray
from ..pattern import Instruction, Loop
from .cute import flatten, parse, product

FRAGMENTS = {1: ("8x8",), 2: ("16x8", "8x16"), 4: ("16x16", "32x8", "8x32")}


def _plus(base: str, expr: str) -> str:
    if base.strip() in ("", "0"):
        return expr
    if expr == "0":
        return base
    return f"{base} + {expr}"


def fragment_index(fragment: str, matrices: int, elem_size: int = 2, rows_first: bool = True) -> tuple[str, str]:
    """Row and column expressions (of ``lane``) of the matrix rows each lane addresses."""
    try:
        R, C = (int(x) for x in fragment.lower().split("x"))
    except ValueError:
        raise BankExplorerError(f"fragment must be ROWSxCOLS in elements, e.g. 16x16, got {fragment!r}")
    if elem_size not in (1, 2, 4, 8, 16):
        raise BankExplorerError(f"{elem_size}-byte elements cannot form 16-byte matrix rows")
    w = 16 // elem_size  # elements in one 16-byte matrix row
    if R % 8 or C % w or R < 8 or C < w:
        raise BankExplorerError(f"fragment {fragment}: rows must be a multiple of 8 and columns a multiple of {w} "
                                f"({elem_size}-byte elements, 16-byte matrix rows)")
    r8, c8 = R // 8, C // w
    if r8 * c8 != matrices:
        raise BankExplorerError(f"fragment {fragment} holds {r8 * c8} matrices of 8 x {w}, but .x{matrices} loads "
                                f"{matrices}")
    if rows_first:
        row = "lane % 8" if r8 == 1 else f"lane % {8 * r8}"
        col = "0" if c8 == 1 else f"(lane / {8 * r8}) * {w}"
    else:
        row = "lane % 8" if r8 == 1 else f"lane % 8 + (lane / {8 * c8}) * 8"
        col = "0" if c8 == 1 else f"((lane / 8) % {c8}) * {w}" if r8 > 1 else f"(lane / 8) * {w}"
    return row, col


def matrix_fragment(array: str, matrices: int = 4, fragment: str = "16x16", *, kind: str = "ldmatrix",
                    trans: bool = False, elem_size: int = 2, row0: str = "0", col0: str = "0",
                    leading: tuple[str, ...] = (), rows_first: bool = True, loops: tuple[Loop, ...] = (),
                    repeat: int = 1, label: str = "") -> Instruction:
    """An ``ldmatrix``/``stmatrix`` instruction reading the fragment whose top-left element is
    ``[row0][col0]`` (expressions; ``leading`` gives the indices of any outer dimensions)."""
    if kind not in ("ldmatrix", "stmatrix"):
        raise BankExplorerError(f"kind must be ldmatrix or stmatrix, got {kind!r}")
    if matrices not in FRAGMENTS:
        raise BankExplorerError("matrices must be 1, 2 or 4 (.x1, .x2, .x4)")
    row, col = fragment_index(fragment, matrices, elem_size, rows_first)
    index = tuple(leading) + (_plus(row0, row), _plus(col0, col))
    return Instruction(kind=kind, matrices=matrices, trans=trans, array=array, index=index, loops=tuple(loops),
                       repeat=repeat, label=label)


# ---- CuTe thread-value layouts --------------------------------------------------------------------
def mode_expr(shape, stride, var: str) -> str:
    """C expression of CuTe's ``crd2idx(var, shape, stride)`` (colexicographic, vectorizable by
    the expression engine): a sum of ``((var / prefix) % size) * stride`` terms."""
    leaves = list(zip(flatten(shape), flatten(stride)))
    terms = []
    prefix = 1
    for k, (s, d) in enumerate(leaves):
        last = k == len(leaves) - 1
        if s != 1 and d != 0:
            x = var if prefix == 1 else f"({var} / {prefix})"
            if not last:
                x = f"({x} % {s})"
            terms.append(x if d == 1 else f"{x} * {d}" if d > 0 else f"{x} * ({d})")
        prefix *= s
    return " + ".join(terms) if terms else "0"


def tv_copy(tv: str, tile: tuple[int, ...], array: str, vector: int = 1, *, kind: str = "load",
            elem_size: int = 2, thread: str = "tid", label: str = "", arr: SharedArray | None = None) -> Instruction:
    """One instruction per vector of values, for every thread of a CuTe TV layout.

    ``tile`` is the copy's tile ``(M, N)`` (or ``(N,)``); the array is indexed by tile
    coordinates, so it should have those dims (e.g. a ``cute-layout`` array of shape ``(M,N)``).
    Give ``arr`` to check that each vector is contiguous and aligned in shared memory, as CuTe
    requires before it vectorizes a copy.
    """
    lay = parse(tv).layout
    if parse(tv).swizzle is not None:
        raise BankExplorerError("a TV layout maps (thread, value) to tile coordinates and has no swizzle")
    if lay.rank != 2:
        raise BankExplorerError(f"a TV layout has two modes, (threads, values); got {lay.rank}")
    (ts, td), (vs, vd) = lay.modes
    T, V = product(ts), product(vs)
    if vector < 1 or V % vector:
        raise BankExplorerError(f"vector ({vector}) must divide the {V} values per thread")
    width = vector * elem_size
    if width not in WIDTHS:
        raise BankExplorerError(f"{vector} values x {elem_size} B = {width} B is not an access width ({WIDTHS})")
    if not 1 <= len(tile) <= 2 or any(t < 1 for t in tile):
        raise BankExplorerError("tile must be (M, N) or (N,) with positive sizes")
    size = int(np.prod(tile))
    looped = V > vector
    terms = [e for e in (mode_expr(ts, td, thread), mode_expr(vs, vd, "v") if looped else "0") if e != "0"]
    flat = " + ".join(terms) or "0"
    index = (f"({flat}) % {tile[0]}", f"({flat}) / {tile[0]}") if len(tile) == 2 else (flat,)
    loops = (Loop("v", 0, V, vector),) if looped else ()
    ins = Instruction(kind=kind, width=width, array=array, index=index, loops=loops,
                      active=f"{thread} < {T}", label=label)
    # every (thread, value) must land inside the tile
    t = np.arange(T)[:, None]
    v = np.arange(V)[None, :]
    idx = lay(t, v)
    if idx.min() < 0 or idx.max() >= size:
        raise BankExplorerError(f"the TV layout reaches tile index {int(idx.max())}, outside the {size}-element tile {tile}")
    if arr is not None:
        check_vectorizable(arr, lay, tile, vector)
    return ins


def check_vectorizable(arr: SharedArray, lay, tile: tuple[int, ...], vector: int) -> None:
    """Raise unless every thread's values, ``vector`` at a time, are consecutive and aligned in
    the array's shared memory (else the copy cannot use ``vector``-wide accesses)."""
    (ts, _), (vs, _) = lay.modes
    T, V = product(ts), product(vs)
    idx = lay(np.arange(T)[:, None], np.arange(V)[None, :])
    coords = (idx % tile[0], idx // tile[0]) if len(tile) == 2 else (idx,)
    off = arr.byte_offsets(coords).reshape(T, V // vector, vector)
    e = arr.elem_size
    step = off - off[:, :, :1]
    bad = (step != np.arange(vector) * e).any(axis=2) | (off[:, :, 0] % (vector * e) != 0)
    if bad.any():
        t, g = (int(x[0]) for x in np.nonzero(bad))
        raise BankExplorerError(f"thread {t}, values {g * vector}..{g * vector + vector - 1}: not {vector * e} consecutive, "
                                f"aligned bytes in {arr.name} (offsets {off[t, g].tolist()}); use a smaller vector")


# ---- one-click accesses over a whole array ---------------------------------------------------------
MATRIX_GRID = {1: ((1, 1),), 2: ((2, 1), (1, 2)), 4: ((2, 2), (4, 1), (1, 4))}  # (8-row, 16-byte) blocks


def fragment_shape(matrices: int, elem_size: int, rows: int, cols: int) -> str:
    """The fragment an ``.x{matrices}`` instruction reads in a ``rows x cols`` tile: the usual one
    (8x8, 16x8, 16x16 for 2-byte elements) when the tile holds it, else the next that fits."""
    if matrices not in MATRIX_GRID:
        raise BankExplorerError("matrices must be 1, 2 or 4 (.x1, .x2, .x4)")
    if elem_size not in (1, 2, 4, 8, 16):
        raise BankExplorerError(f"{elem_size}-byte elements cannot form 16-byte matrix rows")
    w = 16 // elem_size
    for r8, c8 in MATRIX_GRID[matrices]:
        if rows % (8 * r8) == 0 and cols % (w * c8) == 0:
            return f"{8 * r8}x{w * c8}"
    raise BankExplorerError(f"a {rows} x {cols} tile of {elem_size}-byte elements holds no .x{matrices} fragment "
                            f"(8-row by 16-byte matrices, {matrices} of them)")


def major(arr: SharedArray, per: int) -> str:
    """Which way ``per``-element (16-byte) runs of the tile's last two dimensions are laid out:
    ``"K"`` when along the last index (row-major, K-major), ``"M"`` when along the one before
    (column-major, M-major: CuTe's ``(_M,_K):(_1,_M)``), ``""`` when along neither."""
    for name, along in (("K", -1), ("M", -2)):
        try:
            check_runs(arr, per, "", along)
            return name
        except BankExplorerError:
            pass
    return ""


def _transposed(arr: SharedArray) -> tuple[int, ...]:
    return tuple(arr.dims[:-2]) + (arr.dims[-1], arr.dims[-2])


def fragment_sweep(arr: SharedArray, matrices: int = 4, *, kind: str = "ldmatrix", trans: bool = False,
                   fragment: str | None = None) -> Instruction:
    """An ``ldmatrix``/``stmatrix`` that reads (writes) the whole of ``arr``'s last two dimensions
    fragment by fragment, as a GEMM main loop does: the one-click "this layout + this copy".

    A K-major tile (16-byte runs along the last index) is read as the mma fragments are laid out.
    An M-major tile (runs along the index before it, CuTe's ``(_M,_K):(_1,_M)``) is read as
    CUTLASS reads it with ``ldmatrix.trans``: each 8x8 matrix row is 8 consecutive *m* at one *k*,
    so lane ``8q + j`` addresses ``[m0 + 8q][k0 + j]`` (for ``.x4`` over a 32 x 8 block); the
    fragment is then given as ``M x K`` elements."""
    if arr.ndim < 2:
        raise BankExplorerError(f"{kind} reads 2-D tiles; {arr.name} is 1-D (give it dims [rows, cols])")
    per = 16 // arr.elem_size
    try:
        check_runs(arr, per, f"{kind} matrix row")
    except BankExplorerError as e:
        if major(arr, per) != "M":
            raise _neither(e, arr)
        return _mmajor_fragment_sweep(arr, matrices, kind, trans, fragment)
    rows, cols = arr.dims[-2], arr.dims[-1]
    fragment = fragment or fragment_shape(matrices, arr.elem_size, rows, cols)
    fr, fc = (int(x) for x in fragment.split("x"))
    if rows % fr or cols % fc:
        raise BankExplorerError(f"fragment {fragment} does not tile {arr.name}'s {rows} x {cols} elements")
    loops = tuple(lp for lp in (Loop("m", 0, rows, fr), Loop("k", 0, cols, fc)) if len(lp.values()) > 1)
    names = {lp.var for lp in loops}
    ins = matrix_fragment(arr.name, matrices, fragment, kind=kind, trans=trans, elem_size=arr.elem_size,
                          row0="m" if "m" in names else "0", col0="k" if "k" in names else "0",
                          leading=("0",) * (arr.ndim - 2), loops=loops,
                          label=f"{kind}.x{matrices}{'.trans' if trans else ''}: {fragment} fragments of {arr.name}")
    return ins


def _mmajor_fragment_sweep(arr: SharedArray, matrices: int, kind: str, trans: bool,
                           fragment: str | None) -> Instruction:
    """The M-major sweep: the K-major one on the transposed tile, its last two indices swapped."""
    rows, cols = arr.dims[-2], arr.dims[-1]  # m, k
    w = 16 // arr.elem_size
    if fragment:  # given as M x K: the transposed view reads K x M
        fm, fk = (int(x) for x in fragment.split("x"))
        tfrag = f"{fk}x{fm}"
    else:
        tfrag = fragment_shape(matrices, arr.elem_size, cols, rows)
        fk, fm = (int(x) for x in tfrag.split("x"))
    if rows % fm or cols % fk:
        raise BankExplorerError(f"fragment {fm}x{fk} does not tile {arr.name}'s {rows} x {cols} elements")
    if fm % w or fk % 8:
        raise BankExplorerError(f"an M-major fragment is a multiple of {w} (16 bytes) along M and of 8 along K; "
                                f"got {fm}x{fk}")
    loops = tuple(lp for lp in (Loop("m", 0, rows, fm), Loop("k", 0, cols, fk)) if len(lp.values()) > 1)
    names = {lp.var for lp in loops}
    t = matrix_fragment(arr.name, matrices, tfrag, kind=kind, trans=trans, elem_size=arr.elem_size,
                        row0="k" if "k" in names else "0", col0="m" if "m" in names else "0",
                        leading=("0",) * (arr.ndim - 2), loops=loops)
    index = t.index[:-2] + (t.index[-1], t.index[-2])
    return replace(t, index=index,
                   label=f"{kind}.x{matrices}{'.trans' if trans else ''}: {fm}x{fk} M-major fragments of {arr.name} "
                         f"(16-byte rows along dimension {arr.ndim - 2})")


def _vector_index(dims: tuple[int, ...], per: int, threads: int) -> tuple[list[str], tuple[Loop, ...], str]:
    """Index expressions of ``threads`` threads taking consecutive ``per``-element vectors of a
    row-major tile of ``dims``, one loop iteration per ``threads`` vectors."""
    cols = dims[-1]
    total = int(np.prod(dims)) // per
    q = "(v + tid)" if total > threads else "tid"
    index = [f"({q} % {cols // per}) * {per}" if cols // per > 1 else "0"]
    step = cols // per
    for k in range(len(dims) - 2, -1, -1):
        d = dims[k]
        e = q if step == 1 else f"{q} / {step}"
        index.insert(0, e if k == 0 else f"({e}) % {d}")
        step *= d
    loops = (Loop("v", 0, total, threads),) if total > threads else ()
    active = "" if total % threads == 0 else f"{q} < {total}"
    return index, loops, active


def vector_sweep(arr: SharedArray, threads: int, width: int = 16, kind: str = "load") -> Instruction:
    """The block's ``threads`` threads read (write) all of ``arr`` ``width`` bytes at a time,
    consecutive threads taking consecutive vectors in memory order (a float4 copy of a tile):
    along the last index of a row-major (K-major) tile, along the one before it of an M-major
    tile; one loop iteration per ``threads`` vectors."""
    if width not in WIDTHS or width < arr.elem_size:
        raise BankExplorerError(f"{width} bytes is not an access width for {arr.elem_size}-byte elements")
    per = width // arr.elem_size
    cols = arr.dims[-1]
    mmajor = False
    try:
        if cols % per:
            raise BankExplorerError(f"{arr.name}'s rows of {cols} elements do not split into {per}-element vectors")
        check_runs(arr, per, f"{width}-byte vector")
    except BankExplorerError as e:
        if arr.ndim < 2 or arr.dims[-2] % per or major(arr, per) != "M":
            raise _neither(e, arr)
        mmajor = True
    if mmajor:
        index, loops, active = _vector_index(_transposed(arr), per, threads)
        index = index[:-2] + [index[-1], index[-2]]
    else:
        index, loops, active = _vector_index(tuple(arr.dims), per, threads)
    where = f" (M-major: along dimension {arr.ndim - 2})" if mmajor else ""
    return Instruction(kind=kind, width=width, array=arr.name, index=tuple(index), loops=loops, active=active,
                       label=f"{width}-byte {kind}s of {arr.name}{where}")


def check_runs(arr: SharedArray, per: int, what: str, along: int = -1) -> None:
    """Raise unless every run of ``per`` elements along the last dimension (``along=-2``: the
    one before it), starting at a multiple of ``per``, is ``per * elem_size`` consecutive, aligned
    bytes in shared memory: what one 16-byte matrix row or vector access reads. An
    element-scattering layout fails here instead of being costed as if the hardware read the
    elements it names."""
    if per <= 1:
        return
    lead = tuple(np.zeros(1, np.int64) for _ in arr.dims[:-2])
    r, c = np.meshgrid(np.arange(arr.dims[-2] if arr.ndim > 1 else 1), np.arange(arr.dims[-1]), indexing="ij")
    if along == -2 and arr.ndim > 1:
        r, c = r.T, c.T  # runs down the columns
    coords = lead + ((r.ravel(),) if arr.ndim > 1 else ()) + (c.ravel(),)
    off = arr.byte_offsets(coords).reshape(-1, per)
    e = arr.elem_size
    bad = ((off - off[:, :1]) != np.arange(per) * e).any(axis=1) | (off[:, 0] % (per * e) != 0)
    if bad.any():
        k = int(np.flatnonzero(bad)[0])
        if along == -2 and arr.ndim > 1:
            col, row = divmod(k * per, arr.dims[-2])
            where = "[0]" * (arr.ndim - 2) + f"[{row}..{row + per - 1}][{col}]"
            dim = "the dimension before the last"
        else:
            row, col = divmod(k * per, arr.dims[-1])
            where = "[0]" * (arr.ndim - 2) + (f"[{row}]" if arr.ndim > 1 else "") + f"[{col}..{col + per - 1}]"
            dim = "the last dimension"
        raise BankExplorerError(f"{arr.name}{where} is not {per * e} consecutive, aligned bytes in this layout "
                                f"(byte offsets {off[k].tolist()}), so a {what} cannot read it: the layout is "
                                f"not contiguous along {dim}")


def _neither(e: BankExplorerError, arr: SharedArray) -> BankExplorerError:
    """The refusal of a tile whose runs are along neither of its last two dimensions."""
    if arr.ndim < 2 or "not contiguous along the last dimension" not in str(e):
        return e
    return BankExplorerError(f"{e} nor along the one before it (as an M-major tile is)")
