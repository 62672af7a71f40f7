"""Shared arrays and where their elements land: element type, dimensions, padding, address transforms.

An element index ``(i0, i1, i2)`` goes through three steps to become a byte address:

1. an optional *index* transform (``xor``: one index XORed with an expression of the others,
   as in ``s[row][col ^ row]``);
2. linearization with row padding (the last dimension's pitch is ``dims[-1] + padding``);
3. an optional *offset* transform of that linear element offset (``cute``: CuTe
   ``Swizzle<B,M,S>`` on element or byte offsets; ``remap``: a free expression of ``i``).

Further layout kinds (CuTe layouts, Triton and TMA swizzles) register themselves in
:data:`TRANSFORMS` with the same signature, so the engine and the views need no change.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Callable

import numpy as np

from . import expr as E
from .errors import BankExplorerError
from .swizzle import Swizzle

#: element types people write in CUDA, with their sizes in bytes
DTYPES: dict[str, int] = {
    "char": 1, "int8": 1, "uint8": 1, "unsigned char": 1, "bool": 1,
    "short": 2, "half": 2, "__half": 2, "bf16": 2, "__nv_bfloat16": 2, "int16": 2, "unsigned short": 2,
    "int": 4, "unsigned": 4, "unsigned int": 4, "float": 4, "int32": 4, "uint32": 4, "__half2": 4, "half2": 4,
    "char4": 4, "short2": 4,
    "double": 8, "long long": 8, "int64": 8, "uint64": 8, "float2": 8, "int2": 8, "uint2": 8, "short4": 8,
    "float4": 16, "int4": 16, "uint4": 16, "double2": 16, "longlong2": 16,
}
MAX_DIMS = 3
#: the largest array: far beyond any SM's shared memory (an H100 has 228 KB) and still redrawn in
#: under a second per edit (at 16 MiB an edit of a 2048 x 2048 float array took seconds)
MAX_BYTES = 1 << 23  # 8 MiB
MAX_ELEMENTS = 1 << 21  # 2 Mi elements (a 2048 x 1024 float array)
MAX_BYTES_TEXT = f"{MAX_BYTES >> 20} MiB"


@dataclass(frozen=True)
class Transform:
    """An address transform: ``kind`` plus its parameters, kept as sorted (name, value) pairs so
    that layout kinds can be added without touching this class and the value stays hashable."""

    kind: str = "none"
    params: tuple[tuple[str, object], ...] = ()

    @classmethod
    def make(cls, kind: str, **params) -> "Transform":
        return cls(kind, tuple(sorted(params.items())))

    def get(self, key: str, default=None):
        for k, v in self.params:
            if k == key:
                return v
        return default

    def as_dict(self) -> dict[str, object]:
        return dict(self.params)

    def with_params(self, **kw) -> "Transform":
        p = dict(self.params)
        p.update(kw)
        return Transform.make(self.kind, **p)

    def describe(self) -> str:
        d = TRANSFORM_INFO.get(self.kind)
        return d.describe(self) if d else self.kind


@dataclass(frozen=True)
class SharedArray:
    """A ``__shared__`` array as declared: element type, dimensions, row padding, base offset and layout transform."""

    name: str = "s"
    dtype: str = "float"
    dims: tuple[int, ...] = (32, 32)
    padding: int = 0
    base: int = 0
    transform: Transform = field(default_factory=Transform)

    @property
    def elem_size(self) -> int:
        return DTYPES[self.dtype]

    @property
    def ndim(self) -> int:
        return len(self.dims)

    @property
    def pitch(self) -> int:
        """Elements from one row to the next (the last dimension plus padding)."""
        return self.dims[-1] + (self.padding if self.ndim > 1 else 0)

    @property
    def numel(self) -> int:
        return int(np.prod(self.dims))

    def strides(self) -> tuple[int, ...]:
        """Element strides of each dimension after padding (row-major)."""
        st = [1]
        sizes = list(self.dims)
        sizes[-1] = self.pitch
        for d in reversed(sizes[1:]):
            st.insert(0, st[0] * d)
        return tuple(st)

    def declaration(self) -> str:
        dims = "".join(f"[{d}]" for d in self.dims[:-1]) + f"[{self.pitch}]"
        return f"{self.dtype} {self.name}{dims}"

    def validate(self) -> list[tuple[str, str]]:
        """Every problem of the array, as (field, message). Remembered per array value: a
        swizzle's check evaluates it over every element, and the window validates on each edit
        arrays that mostly did not change."""
        try:
            return list(_validate_array(self))
        except TypeError:  # a field that is not hashable (built by hand with a list): no memo
            return self._validate()

    def _validate(self) -> list[tuple[str, str]]:
        p: list[tuple[str, str]] = []
        if not self.name or not self.name.replace("_", "a").isalnum() or self.name[0].isdigit():
            p.append(("name", f"{self.name!r} is not an identifier"))
        if self.dtype not in DTYPES:
            p.append(("dtype", f"unknown element type {self.dtype!r} (known: {', '.join(sorted(DTYPES))})"))
        if not 1 <= len(self.dims) <= MAX_DIMS:
            p.append(("dims", f"must have 1 to {MAX_DIMS} dimensions"))
        for k, d in enumerate(self.dims):
            if not isinstance(d, int) or d < 1:
                p.append((f"dims[{k}]", "must be a positive integer"))
        if p:
            return p
        if self.numel > MAX_ELEMENTS:
            p.append(("dims", f"{self.numel:,} elements is too many (at most {MAX_ELEMENTS:,})"))
        if self.padding < 0:
            p.append(("padding", "must be 0 or more"))
        elif self.padding and self.ndim == 1:
            p.append(("padding", "needs a 2-D or 3-D array (a 1-D array has no rows to pad)"))
        if self.base < 0 or self.base % 16:
            p.append(("base", "must be a non-negative multiple of 16 bytes"))
        if not p and self.nbytes_padded() > MAX_BYTES:
            p.append(("dims", f"{self.nbytes_padded():,} bytes is too large (at most {MAX_BYTES:,})"))
        if self.transform.kind not in TRANSFORMS:
            p.append(("transform.kind", f"unknown transform {self.transform.kind!r} (known: {', '.join(TRANSFORMS)})"))
        elif not p:  # a transform's check evaluates it on every element: only on an array that can exist
            p += [(f"transform.{w}" if w else "transform", m) for w, m in TRANSFORM_INFO[self.transform.kind].validate(self)]
        return p

    def nbytes_padded(self) -> int:
        return int(np.prod(self.dims[:-1])) * self.pitch * self.elem_size

    @property
    def nbytes(self) -> int:
        """Shared memory the array occupies: padding and any transform that spreads it out included."""
        return _footprint(self)

    # -- mapping ---------------------------------------------------------------------------
    def element_offsets(self, idx: tuple[np.ndarray, ...]) -> np.ndarray:
        """Element offsets (in units of ``elem_size``) of the given indices, transforms applied."""
        return TRANSFORMS[self.transform.kind](self, idx) // self.elem_size

    def byte_offsets(self, idx: tuple[np.ndarray, ...]) -> np.ndarray:
        """Byte offsets from the array's start (``base`` not included)."""
        return TRANSFORMS[self.transform.kind](self, idx)

    def byte_addresses(self, idx: tuple[np.ndarray, ...]) -> np.ndarray:
        return self.base + self.byte_offsets(idx)

    def all_indices(self) -> tuple[np.ndarray, ...]:
        return tuple(a.ravel() for a in np.indices(self.dims, dtype=np.int64))


def linear(arr: SharedArray, idx: tuple[np.ndarray, ...]) -> np.ndarray:
    off = np.zeros(np.broadcast(*idx).shape if len(idx) > 1 else np.shape(idx[0]), np.int64)
    for i, s in zip(idx, arr.strides()):
        off = off + np.asarray(i, np.int64) * s
    return off


def index_names(arr: SharedArray, idx: tuple[np.ndarray, ...]) -> dict[str, np.ndarray]:
    """Names an index expression may use: i0, i1, i2, and row/col for the last two."""
    v = {f"i{k}": a for k, a in enumerate(idx)}
    if arr.ndim >= 2:
        v["row"], v["col"] = idx[-2], idx[-1]
    else:
        v["col"] = idx[0]
    return v


# ---- transform kinds -----------------------------------------------------------------------
@dataclass(frozen=True)
class TransformInfo:
    """What the editor and the file reader need to know of one transform kind."""

    label: str
    validate: Callable[[SharedArray], list[tuple[str, str]]]
    describe: Callable[[Transform], str]


def _none(arr: SharedArray, idx):
    return linear(arr, idx) * arr.elem_size


def _xor(arr: SharedArray, idx):
    t = int(arr.transform.get("target", arr.ndim - 1))
    e = E.parse(str(arr.transform.get("expr", "row")))
    val = e.evaluate(index_names(arr, idx))
    new = list(idx)
    new[t] = np.bitwise_xor(np.asarray(idx[t], np.int64), val)
    return linear(arr, tuple(new)) * arr.elem_size


def _validate_xor(arr: SharedArray) -> list[tuple[str, str]]:
    t = arr.transform.get("target", arr.ndim - 1)
    if not isinstance(t, int) or not 0 <= t < arr.ndim:
        return [("target", f"must be a dimension from 0 to {arr.ndim - 1}")]
    try:
        e = E.parse(str(arr.transform.get("expr", "row")))
    except E.ExprError as err:
        return [("expr", err.message)]
    idx = arr.all_indices()
    try:
        val = e.evaluate(index_names(arr, idx))
    except BankExplorerError as err:
        return [("expr", err.message)]
    moved = np.bitwise_xor(idx[t], val)
    out = (moved < 0) | (moved >= arr.dims[t])
    if out.any():
        k = int(np.argmax(out))
        where = "".join(f"[{int(i[k])}]" for i in idx)
        return [("expr", f"moves element {arr.name}{where} to index {int(moved[k])} of dimension {t}, "
                         f"outside 0..{arr.dims[t] - 1}")]
    return []


def _cute(arr: SharedArray, idx):
    sw = Swizzle(int(arr.transform.get("B", 3)), int(arr.transform.get("M", 4)), int(arr.transform.get("S", 3)))
    off = linear(arr, idx)
    if arr.transform.get("unit", "element") == "byte":
        return sw(off * arr.elem_size)
    return sw(off) * arr.elem_size


def _validate_cute(arr: SharedArray) -> list[tuple[str, str]]:
    p = []
    for k, lo, hi in (("B", 0, 8), ("M", 0, 16), ("S", -16, 16)):
        v = arr.transform.get(k, {"B": 3, "M": 4, "S": 3}[k])
        if not isinstance(v, int) or not lo <= v <= hi:
            p.append((k, f"must be an integer from {lo} to {hi}"))
    if p:
        return p
    B, S = int(arr.transform.get("B", 3)), int(arr.transform.get("S", 3))
    if B and abs(S) < B:
        p.append(("S", f"|S| must be at least B ({B}) so the bits do not overlap"))
    if arr.transform.get("unit", "element") not in ("element", "byte"):
        p.append(("unit", "must be 'element' or 'byte'"))
    return p


def _remap(arr: SharedArray, idx):
    e = E.parse(str(arr.transform.get("expr", "i")))
    i = linear(arr, idx)
    # a constant expression ("0") is a number, not one offset per element
    v = np.broadcast_to(np.asarray(e.evaluate({"i": i, "n": np.int64(arr.numel)}), np.int64), np.shape(i))
    return v * arr.elem_size


def _validate_remap(arr: SharedArray) -> list[tuple[str, str]]:
    try:
        e = E.parse(str(arr.transform.get("expr", "i")))
        i = linear(arr, arr.all_indices())
        v = np.broadcast_to(np.asarray(e.evaluate({"i": i, "n": np.int64(arr.numel)}), np.int64), np.shape(i))
    except BankExplorerError as err:
        return [("expr", err.message)]
    if (v < 0).any():
        k = int(np.argmax(v < 0))
        return [("expr", f"maps element {k} to a negative offset ({int(v[k])})")]
    if v.max(initial=0) * arr.elem_size > MAX_BYTES:
        return [("expr", f"maps elements beyond {MAX_BYTES_TEXT}")]
    return []


TRANSFORMS: dict[str, Callable[[SharedArray, tuple], np.ndarray]] = {
    "none": _none,
    "xor": _xor,
    "cute": _cute,
    "remap": _remap,
}
TRANSFORM_INFO: dict[str, TransformInfo] = {
    "none": TransformInfo("None", lambda a: [], lambda t: "no transform"),
    "xor": TransformInfo(
        "XOR swizzle", _validate_xor,
        lambda t: f"index {t.get('target', 'last')} ^= {t.get('expr', 'row')}",
    ),
    "cute": TransformInfo(
        "CuTe Swizzle<B,M,S>", _validate_cute,
        lambda t: f"Swizzle<{t.get('B', 3)},{t.get('M', 4)},{t.get('S', 3)}> on {t.get('unit', 'element')} offsets",
    ),
    "remap": TransformInfo("Remap i → f(i)", _validate_remap, lambda t: f"i → {t.get('expr', 'i')}"),
}
def register_transform(kind: str, fn, info: TransformInfo) -> None:
    """Add a layout kind: ``fn(array, idx) -> byte offsets`` (vectorized)."""
    TRANSFORMS[kind] = fn
    TRANSFORM_INFO[kind] = info


_FOOTPRINT_CACHE: dict[SharedArray, int] = {}


def _footprint(arr: SharedArray) -> int:
    if arr.transform.kind == "none":
        return arr.nbytes_padded()
    hit = _FOOTPRINT_CACHE.get(arr)
    if hit is not None:
        return hit
    try:
        off = arr.byte_offsets(arr.all_indices())
        size = max(arr.nbytes_padded(), int(off.max(initial=0)) + arr.elem_size)
    except BankExplorerError:
        size = arr.nbytes_padded()
    if len(_FOOTPRINT_CACHE) > 256:
        _FOOTPRINT_CACHE.clear()
    _FOOTPRINT_CACHE[arr] = size
    return size


def with_padding(arr: SharedArray, padding: int) -> SharedArray:
    return replace(arr, padding=padding)


@lru_cache(maxsize=256)
def _validate_array(arr: SharedArray) -> tuple[tuple[str, str], ...]:
    return tuple(arr._validate())
