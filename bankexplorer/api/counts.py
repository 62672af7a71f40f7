"""``bx.wavefronts``: how many wavefronts one warp instruction, or a batch of them, costs.

Everything goes through the vectorized engine (:func:`bankexplorer.model.engine.count_wavefronts`);
a batch is checked and encoded with array operations only, never a Python loop per instruction.
"""

from __future__ import annotations

from typing import Any, Sequence, Union

import numpy as np

from ..model import hardware as hwr
from ..model.engine import WarpBatch, count_wavefronts
from ..model.hardware import ATOMIC_OPS, KINDS, PRESETS, SPACES, WIDTHS, Hardware

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
            arr = np.array([0 if v is None else v for v in arr.tolist()], np.int64)
        except (TypeError, ValueError, OverflowError):
            raise ValueError(f"{name}: expected integers")
    if arr.dtype == bool or not (np.issubdtype(arr.dtype, np.integer) or np.issubdtype(arr.dtype, np.floating)):
        raise ValueError(f"{name}: expected integers, got {arr.dtype}")
    if np.issubdtype(arr.dtype, np.floating):
        if not np.isfinite(arr).all() or (arr != np.round(arr)).any():
            raise ValueError(f"{name}: expected integers, got non-integer values")
    return arr.astype(np.int64)


_HASH = np.array([0x9E3779B97F4A7C15, 0xC2B2AE3D27D4EB4F, 0x165667B19E3779F9, 0x27D4EB2F165667C5], np.uint64)


def _string_keys(arr: np.ndarray) -> np.ndarray:
    """A 64-bit hash per string of a ``<U`` array: its first 8 characters' code points, 64 bits at a
    time, mixed with 4 multiplications (no per-row Python); :func:`_choices` confirms every match."""
    n = arr.shape[0]
    words = arr.dtype.itemsize // 8  # two characters per 64-bit word (the caller pads to whole words)
    w = np.ascontiguousarray(arr).view(np.uint64).reshape(n, words)
    key = np.zeros(n, np.uint64)
    for k in range(min(words, 4)):  # one pass per 64-bit word (4 at most), not per row
        key += w[:, k] * _HASH[k]
    return key


def _choices(arr: np.ndarray, name: str, allowed: Sequence[str]) -> np.ndarray:
    """Strings -> indices into ``allowed``, vectorized: a hash per string looked up among the
    allowed ones' hashes, then one comparison of the strings themselves; never a loop per row."""
    if arr.dtype.kind not in "UO":
        raise ValueError(f"{name}: expected strings, one of {', '.join(allowed)}")
    if arr.dtype == object:
        try:
            arr = arr.astype(str)
        except (TypeError, ValueError):
            raise ValueError(f"{name}: expected strings, one of {', '.join(allowed)}")
    names = np.array(allowed)
    width = max(arr.dtype.itemsize, names.dtype.itemsize) // 4
    width += width % 2  # whole 64-bit words
    arr = arr.astype(f"<U{width}", copy=False)
    want = _string_keys(names.astype(f"<U{width}"))
    order = np.argsort(want)
    pos = np.clip(np.searchsorted(want[order], _string_keys(arr)), 0, len(allowed) - 1)
    out = order[pos]
    miss = names[out] != arr
    if miss.any():
        bad = str(arr[np.argmax(miss)])
        raise ValueError(f"{name}: unknown {name} {bad!r} (expected one of {', '.join(allowed)})")
    return out.astype(np.int64)


def _field(value: Any, n: int, name: str, default: str, allowed: Sequence[str], none_ok: bool = False,
           rows: Any = None) -> Any:
    """A string option as indices into ``allowed``: a scalar for one value, an array of ``n`` for
    a sequence, read only where ``rows`` holds (the rows it applies to; the others get 0)."""
    if value is None:
        value = default
    if isinstance(value, str):
        if value not in allowed:
            raise ValueError(f"{name}: unknown {name} {value!r} (expected one of {', '.join(allowed)})")
        return np.int64(allowed.index(value))
    arr, _ = _per_row(value, n, name, default)
    if none_ok and arr.dtype == object:
        arr = np.where(np.equal(arr, None), default, arr)
    if rows is None or np.ndim(rows) == 0:
        return _choices(arr, name, allowed) if rows is None or rows else np.zeros(n, np.int64)
    out = np.zeros(n, np.int64)
    out[rows] = _choices(arr[rows], name, allowed)
    return out


def _first(values: Any, mask: Any, n: int) -> int:
    """The first value where ``mask`` holds (either may be a scalar standing for all ``n`` rows)."""
    return int(np.broadcast_to(values, (n,))[np.broadcast_to(mask, (n,))][0])


def _int_field(value: Any, n: int, name: str) -> Any:
    """An integer option: a scalar, or an array of ``n``."""
    if isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_)):
        if not -(1 << 31) <= int(value) < (1 << 31):
            raise ValueError(f"{name}: {value} is out of range")
        return np.int64(value)
    if np.ndim(value) == 0:
        raise ValueError(f"{name}: expected an integer, got {value!r}")
    arr, _ = _per_row(value, n, name, 0)
    return _ints(arr, name)


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
            big = next((v for v in single if isinstance(v, int) and not -(1 << 63) <= v < 1 << 63), None)
            if big is not None:  # numpy would make it a float or wrap it around
                raise ValueError(f"addresses: {big:,} is not a byte address (0 to 2**40, or -1 for an inactive lane)")
            try:
                arr = np.array(single)
            except (TypeError, ValueError, OverflowError):
                raise ValueError("addresses: expected integers (None for an inactive lane)")
        else:
            try:
                arr = np.array([[-1 if v is None else v for v in row] for row in seq])
            except (TypeError, ValueError, OverflowError):
                raise ValueError("addresses: rows must all have one address per lane (None or -1 = inactive)")
    single = arr.ndim == 1
    given = tuple(arr.shape)
    if single:
        arr = arr[None, :]
    if arr.ndim != 2:
        raise ValueError(f"addresses: expected shape ({warp_size},) for one instruction or (n, {warp_size}) "
                         f"for a batch, got shape {tuple(arr.shape)}")
    if arr.shape[1] != warp_size:
        raise ValueError(f"addresses: expected {warp_size} lanes (the warp size) per instruction, "
                         f"got {arr.shape[1]} (shape {given})")
    if arr.dtype == object:
        try:
            arr = np.where(np.equal(arr, None), -1, arr).astype(np.int64)
        except OverflowError:
            raise ValueError("addresses: a value does not fit in 64 bits (byte addresses are 0 to 2**40, or -1 "
                             "for an inactive lane)")
        except (TypeError, ValueError):
            raise ValueError("addresses: expected integers (None or -1 for an inactive lane)")
    # a value past 64 bits would wrap around in int64 (2**64 - 4 would read as -4): name it instead
    if arr.size and (arr.dtype.kind == "u" and arr.dtype.itemsize >= 8 or arr.dtype.kind == "f") \
            and np.isfinite(arr).all() and float(np.abs(arr).max()) >= 2.0**63:
        big = arr.flat[int(np.argmax(np.abs(arr)))]
        raise ValueError(f"addresses: {int(big):,} is not a byte address (0 to 2**40, or -1 for an inactive lane)")
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
               trans: bool = False, space: str | Sequence[str] = "shared") -> int | np.ndarray:
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
    A batch of any length is counted :data:`CHUNK_ROWS` instructions at a time (bounded memory).

    Raises:
        ValueError: naming the argument, for a wrong shape, an unknown kind, op or preset, an
            out-of-range width or matrix count, or an address that is negative (other than -1),
            beyond 2**40 or misaligned for its width; also when the batch does not fit in memory.
    """
    if callable(getattr(addresses, "wavefronts", None)):  # an Access counts itself
        return addresses.wavefronts(hardware=hardware)
    hw = resolve_hardware(hardware)
    W = hw.warp_size
    addr, single = _address_array(addresses, W)
    n = addr.shape[0]
    if not isinstance(trans, (bool, np.bool_)):
        raise ValueError(f"trans: expected True or False, got {trans!r}")

    kind_i = _field(kind, n, "kind", "load", KINDS)
    is_matrix = (kind_i == KINDS.index("ldmatrix")) | (kind_i == KINDS.index("stmatrix"))
    is_atomic = kind_i == KINDS.index("atomic")
    is_ldst = kind_i <= KINDS.index("store")

    op_i = _field("add" if op is None else op, n, "op", "add", ATOMIC_OPS, none_ok=True, rows=is_atomic)
    one_kind = isinstance(kind, str)  # with a kind per row, a single op/space/matrices applies where it can
    if op is not None and np.ndim(op) == 0 and one_kind and kind != "atomic":
        raise ValueError(f"op: only atomics have an operation (kind={kind!r})")
    space_i = _field(space, n, "space", "shared", SPACES, rows=is_ldst)
    if np.ndim(space) == 0 and space != "shared" and one_kind and kind not in ("load", "store"):
        raise ValueError(f"space: only loads and stores can go through a generic address (kind={kind!r})")
    space_i = np.where(is_ldst, space_i, 0)

    if matrices is not None and np.ndim(matrices) == 0 and one_kind and kind not in ("ldmatrix", "stmatrix"):
        raise ValueError(f"matrices: only ldmatrix and stmatrix take a matrix count (kind={kind!r})")
    mats = np.where(is_matrix, _int_field(4 if matrices is None else matrices, n, "matrices"), 0)
    bad_m = is_matrix & (((mats & (mats - 1)) != 0) | (mats < 1) | (mats > 4))  # 1, 2, 4
    if np.any(bad_m):
        raise ValueError(f"matrices: must be 1, 2 or 4 (.x1/.x2/.x4), got {_first(mats, bad_m, n)}")

    widths = np.where(is_matrix, 16, _int_field(width, n, "width"))
    bad_w = ((widths & (widths - 1)) != 0) | (widths < 1) | (widths > 16)  # WIDTHS: 1, 2, 4, 8, 16
    if np.any(bad_w):
        raise ValueError(f"width: must be one of {', '.join(map(str, WIDTHS))} bytes, got {_first(widths, bad_w, n)}")
    bad_atomic = is_atomic & (widths != 4) & (widths != 8)
    if np.any(bad_atomic):
        raise ValueError(f"width: atomics are 4 or 8 bytes, got {_first(widths, bad_atomic, n)}")

    # engine codes: one kind_code call per distinct (kind, width, space, op), not per row
    log_w = (widths >= 2).astype(np.int64) + (widths >= 4) + (widths >= 8) + (widths >= 16)  # index in WIDTHS
    combo = ((kind_i * 8 + log_w) * 2 + space_i) * 16 + np.where(is_atomic, op_i, 0)
    present = [int(combo)] if np.ndim(combo) == 0 else np.flatnonzero(np.bincount(combo, minlength=1)).tolist()
    table = np.zeros(len(KINDS) * 8 * 2 * 16, np.int64)
    for c in present:  # at most 5 kinds x 5 widths x 2 spaces x 12 ops, whatever n is
        o, rest = c % 16, c // 16
        sp, rest = rest % 2, rest // 2
        w, k = WIDTHS[rest % 8], rest // 8
        table[c] = hwr.kind_code(KINDS[k], w, SPACES[sp], ATOMIC_OPS[o])
    code = np.broadcast_to(table[int(combo)] if np.ndim(combo) == 0 else table[combo], (n,))
    widths = np.broadcast_to(widths, (n,))
    mats = np.broadcast_to(mats, (n,))

    if n == 0:
        return np.zeros(0, np.int64)
    try:
        counts, bad, first = _counts(addr, code, widths, mats, hw)
    except MemoryError:
        raise ValueError(f"addresses: {n:,} instructions do not fit in this machine's memory (they are counted "
                         f"{CHUNK_ROWS:,} at a time); pass fewer at once") from None
    if bad:
        where = "" if single else f"instruction {first[0]}, "
        more = f" ({bad:,} instructions have such lanes)" if bad > 1 else ""
        raise ValueError(f"addresses: {where}{first[1]}{more}")
    if single:
        return int(counts[0])
    return counts


#: instructions counted per engine call: a batch of any length costs memory for this many at a
#: time (tens of MB), plus its input and the counts
CHUNK_ROWS = 1 << 17


def _counts(addr: np.ndarray, code: np.ndarray, widths: np.ndarray, mats: np.ndarray,
            hw: Hardware) -> tuple[np.ndarray, int, tuple[int, str] | None]:
    """Wavefronts of every row, :data:`CHUNK_ROWS` rows at a time; the number of rows with an
    invalid lane, and the first of them with its message."""
    n = addr.shape[0]
    out = np.empty(n, np.int64)
    bad, first = 0, None
    for s in range(0, n, CHUNK_ROWS):
        e = min(n, s + CHUNK_ROWS)
        a = addr[s:e]
        # inactive lanes keep their -1: the engine masks every lane it does not serve, and it reports
        # negative addresses (other than -1), addresses past 2**40 and misaligned ones per instruction
        packed = a if a.dtype in (np.int32, np.int64) else a.astype(np.int64)
        batch = WarpBatch(np.ascontiguousarray(code[s:e], np.int64), np.ascontiguousarray(widths[s:e], np.int64),
                          np.ascontiguousarray(mats[s:e], np.int64), packed, a != -1)
        res = count_wavefronts(batch, hw, executions=False)  # the wavefronts only: no CAS-loop iterations
        out[s:e] = res.wavefronts
        rows = np.flatnonzero(res.wavefronts < 0)
        if rows.size:
            bad += int(rows.size)
            if first is None:
                first = (s + int(rows[0]), res.error[int(rows[0])])
    return out, bad, first
