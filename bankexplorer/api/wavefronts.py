"""``bx.wavefronts``: how many wavefronts one warp instruction, or a batch of them, costs.

Everything goes through the vectorized engine (:func:`bankexplorer.model.engine.count_wavefronts`);
a batch is checked and encoded with array operations only, never a Python loop per instruction.
"""

from __future__ import annotations

from typing import Any, Sequence, Union

import numpy as np

from ..model import hardware as hwr
from ..model.engine import ADDRESS_LIMIT, WarpBatch, count_wavefronts, narrow
from ..model.hardware import ATOMIC_OPS, KINDS, MATRIX_KINDS, PRESETS, SPACES, WIDTHS, Hardware

#: the default hardware preset: NVIDIA sm_70 to sm_90 (V100, A100, H100), as measured on an H100
DEFAULT_HARDWARE = hwr.NVIDIA_SM70_SM90.preset

HardwareLike = Union[str, Hardware]
Addresses = Union[Sequence[Union[int, None]], np.ndarray]


def resolve_hardware(hardware: HardwareLike) -> Hardware:
    """A :class:`Hardware` from a preset name (``"nvidia-sm70-sm90"``, ``"kepler-8byte"``,
    ``"generic"``) or a :class:`Hardware` value; ``ValueError`` naming ``hardware`` otherwise."""
    if isinstance(hardware, Hardware):
        problems = hardware.validate()
        if problems:
            raise ValueError(f"hardware: {problems[0][0]} {problems[0][1]}")
        return hardware
    if isinstance(hardware, str) and hardware in PRESETS:
        return PRESETS[hardware]
    raise ValueError(f"hardware: unknown preset {hardware!r} (presets: {', '.join(PRESETS)}, "
                     f"or a bankexplorer.model.Hardware value)")


def _per_row(value: Any, n: int, name: str, default: Any) -> tuple[np.ndarray, bool]:
    """``value`` as an array of ``n`` (a scalar is repeated); also whether it was a scalar."""
    if value is None:
        value = default
    if isinstance(value, (str, bytes)) or np.ndim(value) == 0:
        return np.full(n, value, dtype=object if isinstance(value, str) or value is None else None), True
    arr = np.asarray(value)
    if arr.ndim != 1 or arr.shape[0] != n:
        raise ValueError(f"{name}: expected one value or a sequence of {n} (one per instruction), "
                         f"got shape {tuple(arr.shape)}")
    return arr, False


def _ints(arr: np.ndarray, name: str) -> np.ndarray:
    if arr.dtype == object:
        try:
            arr = np.array([0 if v is None else v for v in arr.tolist()])
        except (TypeError, ValueError):
            raise ValueError(f"{name}: expected integers")
    if arr.dtype == bool or not (np.issubdtype(arr.dtype, np.integer) or np.issubdtype(arr.dtype, np.floating)):
        raise ValueError(f"{name}: expected integers, got {arr.dtype}")
    if np.issubdtype(arr.dtype, np.floating):
        if not np.isfinite(arr).all() or (arr != np.round(arr)).any():
            raise ValueError(f"{name}: expected integers, got non-integer values")
    return arr.astype(np.int64)


def _choices(arr: np.ndarray, name: str, allowed: Sequence[str]) -> np.ndarray:
    """Strings -> indices into ``allowed`` (checked with one ``np.unique``, not per row)."""
    try:
        uniq, inv = np.unique(arr.astype(str), return_inverse=True)
    except (TypeError, ValueError):
        raise ValueError(f"{name}: expected one of {', '.join(allowed)}")
    bad = [u for u in uniq.tolist() if u not in allowed]
    if bad:
        raise ValueError(f"{name}: unknown {name} {bad[0]!r} (expected one of {', '.join(allowed)})")
    lookup = np.array([allowed.index(u) for u in uniq.tolist()], np.int64)
    return lookup[inv.reshape(-1)]


def _address_array(addresses: Any, warp_size: int) -> tuple[np.ndarray, bool]:
    """(N, W) int64 addresses with -1 for inactive lanes, and whether the input was one instruction."""
    if isinstance(addresses, np.ndarray):
        arr = addresses
    else:
        if isinstance(addresses, (str, bytes)) or not hasattr(addresses, "__len__"):
            raise ValueError("addresses: expected a sequence of byte addresses (one per lane) or an "
                             "integer array of shape (n, warp size)")
        seq = list(addresses)
        if seq and not any(isinstance(v, (list, tuple, np.ndarray)) for v in seq):
            single = [-1 if v is None else v for v in seq]
            try:
                arr = np.array(single)
            except (TypeError, ValueError):
                raise ValueError("addresses: expected integers (None for an inactive lane)")
        else:
            try:
                arr = np.array([[-1 if v is None else v for v in row] for row in seq])
            except (TypeError, ValueError):
                raise ValueError("addresses: rows must all have one address per lane (None or -1 = inactive)")
    single = arr.ndim == 1
    if single:
        arr = arr[None, :]
    if arr.ndim != 2:
        raise ValueError(f"addresses: expected shape ({warp_size},) for one instruction or (n, {warp_size}) "
                         f"for a batch, got shape {tuple(arr.shape)}")
    if arr.shape[1] != warp_size:
        raise ValueError(f"addresses: expected {warp_size} lanes (the warp size) per instruction, "
                         f"got {arr.shape[1]} (shape {tuple(arr.shape)})")
    if arr.dtype == object:
        try:
            arr = np.where(np.equal(arr, None), -1, arr).astype(np.int64)
        except (TypeError, ValueError):
            raise ValueError("addresses: expected integers (None or -1 for an inactive lane)")
    if arr.dtype == bool or not np.issubdtype(arr.dtype, np.integer):
        if np.issubdtype(arr.dtype, np.floating) and arr.size and np.isfinite(arr).all() \
                and (arr == np.round(arr)).all():
            arr = arr.astype(np.int64)
        elif arr.size == 0 and not single:
            arr = arr.astype(np.int64)
        else:
            raise ValueError(f"addresses: expected integer byte addresses, got dtype {arr.dtype}")
    return arr, single


def wavefronts(addresses: Addresses, *, width: int | Sequence[int] | np.ndarray = 4,
               kind: str | Sequence[str] = "load", hardware: HardwareLike = DEFAULT_HARDWARE,
               op: str | Sequence[str] | None = None, matrices: int | Sequence[int] | np.ndarray | None = None,
               trans: bool = False, space: str | Sequence[str] = "shared") -> Any:
    """Wavefronts (shared-memory passes) that warp instructions cost.

    ``addresses`` is either **one** warp instruction — a sequence of 32 byte addresses (the warp
    size of ``hardware``), ``None`` (or ``-1``) for an inactive lane — and the result is an
    ``int``; or a **batch** — an integer array of shape ``(n, 32)``, ``-1`` for inactive lanes —
    and the result is an ``int64`` array of ``n`` counts, computed by the vectorized engine in one
    call (no Python loop per instruction). An :class:`bankexplorer.api.layouts.Access` (from
    ``bx.layout(...).ldmatrix()`` etc.) also works and brings its own kind, width and matrices.

    Args:
        width: bytes per lane, 1, 2, 4, 8 or 16 (atomics: 4 or 8); ignored for ``ldmatrix`` /
            ``stmatrix``, whose lanes each give one 16-byte matrix row.
        kind: ``"load"``, ``"store"``, ``"atomic"``, ``"ldmatrix"`` or ``"stmatrix"``.
        hardware: a preset name (``"nvidia-sm70-sm90"``, the default; ``"kepler-8byte"``;
            ``"generic"``) or a :class:`bankexplorer.model.Hardware`.
        op: atomics only: ``"add"`` (default), ``"fadd"``, ``"min"``, ``"max"``, ``"inc"``,
            ``"dec"``, ``"and"``, ``"or"``, ``"xor"``, ``"exch"``, ``"cas"``, ``"popc_inc"``.
            Compare-and-swap (and ops compiled to a compare-and-swap loop) cost two passes.
        matrices: ``ldmatrix``/``stmatrix`` only: 1, 2 or 4 (``.x1/.x2/.x4``; default 4). Lanes
            ``8m..8m+7`` give the row addresses of matrix ``m``; the other lanes are not read.
        trans: ``ldmatrix``/``stmatrix`` ``.trans``: transposes registers, not addresses, so it
            never changes the count (accepted for completeness).
        space: loads and stores: ``"shared"`` (``LDS``/``STS``, default) or ``"generic"``
            (``LD``/``ST`` through a generic pointer: 8/16-byte loads never merge half-warps).

    In a batch, ``width``, ``kind``, ``op``, ``matrices`` and ``space`` may also be sequences of
    ``n`` values, one per instruction (entries that do not apply to a row's kind are ignored).

    Raises:
        ValueError: naming the argument, for a wrong shape, an unknown kind, op or preset, an
            out-of-range width or matrix count, or an address that is negative (other than -1),
            beyond 2**40 or misaligned for its width.
    """
    from .layouts import Access

    if isinstance(addresses, Access):
        return addresses.wavefronts(hardware=hardware)
    hw = resolve_hardware(hardware)
    W = hw.warp_size
    addr, single = _address_array(addresses, W)
    n = addr.shape[0]
    if not isinstance(trans, (bool, np.bool_)):
        raise ValueError(f"trans: expected True or False, got {trans!r}")

    kinds, kind_scalar = _per_row(kind, n, "kind", "load")
    kind_i = _choices(kinds, "kind", KINDS)
    is_matrix = (kind_i == KINDS.index("ldmatrix")) | (kind_i == KINDS.index("stmatrix"))
    is_atomic = kind_i == KINDS.index("atomic")

    ops, op_scalar = _per_row(op, n, "op", "add")
    if op_scalar and op is not None and n and not is_atomic.all():
        raise ValueError(f"op: only atomics have an operation (kind={kind!r})")
    ops = np.where(np.equal(ops, None), "add", ops) if ops.dtype == object else ops
    op_i = _choices(ops, "op", ATOMIC_OPS)

    spaces, space_scalar = _per_row(space, n, "space", "shared")
    space_i = _choices(spaces, "space", SPACES)
    if space_scalar and space != "shared" and n and not np.isin(kind_i, [0, 1]).all():
        raise ValueError(f"space: only loads and stores can go through a generic address (kind={kind!r})")
    space_i = np.where(np.isin(kind_i, [0, 1]), space_i, 0)

    mats, mat_scalar = _per_row(matrices, n, "matrices", 4)
    if mat_scalar and matrices is not None and n and not is_matrix.all():
        raise ValueError(f"matrices: only ldmatrix and stmatrix take a matrix count (kind={kind!r})")
    mats = np.where(is_matrix, _ints(mats, "matrices"), 0)
    if is_matrix.any() and not np.isin(mats[is_matrix], (1, 2, 4)).all():
        bad = int(mats[is_matrix][~np.isin(mats[is_matrix], (1, 2, 4))][0])
        raise ValueError(f"matrices: must be 1, 2 or 4 (.x1/.x2/.x4), got {bad}")

    widths, _ = _per_row(width, n, "width", 4)
    widths = np.where(is_matrix, 16, _ints(widths, "width"))
    if not np.isin(widths, WIDTHS).all():
        bad = int(widths[~np.isin(widths, WIDTHS)][0])
        raise ValueError(f"width: must be one of {', '.join(map(str, WIDTHS))} bytes, got {bad}")
    if is_atomic.any() and not np.isin(widths[is_atomic], (4, 8)).all():
        bad = int(widths[is_atomic][~np.isin(widths[is_atomic], (4, 8))][0])
        raise ValueError(f"width: atomics are 4 or 8 bytes, got {bad}")

    # engine codes: one kind_code call per distinct (kind, width, space, op), not per row
    combo = ((kind_i * 8 + np.searchsorted(WIDTHS, widths)) * 2 + space_i) * 16 + np.where(is_atomic, op_i, 0)
    uniq, inv = np.unique(combo, return_inverse=True)
    codes = np.empty(uniq.size, np.int64)
    for j, c in enumerate(uniq.tolist()):  # at most 5 * 5 * 2 * 12 distinct combinations
        o, rest = c % 16, c // 16
        s, rest = rest % 2, rest // 2
        w, k = WIDTHS[rest % 8], rest // 8
        codes[j] = hwr.kind_code(KINDS[k], w, SPACES[s], ATOMIC_OPS[o])
    code = codes[inv.reshape(-1)]

    active = addr != -1
    if n:
        neg = addr < -1
        if neg.any():
            r, lane = np.argwhere(neg)[0]
            raise ValueError(f"addresses: instruction {r}, lane {lane}: negative address {int(addr[r, lane])} "
                             f"(-1 or None marks an inactive lane)")
        if (addr >= ADDRESS_LIMIT).any():
            r, lane = np.argwhere(addr >= ADDRESS_LIMIT)[0]
            raise ValueError(f"addresses: instruction {r}, lane {lane}: address {int(addr[r, lane])} is beyond "
                             f"2**40 bytes")
    batch = WarpBatch(code, widths, mats, narrow(np.where(active, addr, 0)), active)
    res = count_wavefronts(batch, hw)
    bad = res.wavefronts < 0
    if bad.any():
        r = int(np.argmax(bad))
        where = "" if single else f"instruction {r}, "
        more = f" ({int(bad.sum()):,} instructions have such lanes)" if bad.sum() > 1 else ""
        raise ValueError(f"addresses: {where}{res.error[r]}{more}")
    if single:
        return int(res.wavefronts[0])
    return res.wavefronts.astype(np.int64, copy=False)
