"""CuTe layouts as ``print(layout)`` shows them, so a CUTLASS user can paste what their kernel prints.

A layout ``shape:stride`` maps a logical coordinate to an offset (in elements). Shapes nest:
``((_8,_8),(_8,_2)):((_64,_1),(_8,_512))`` is a rank-2 layout of 64 x 16 elements whose modes are
themselves 2-D. CuTe's rules, reproduced here:

* an integer coordinate into a (nested) mode is split **colexicographically** (the first
  sub-mode varies fastest): ``x -> (x % s0, (x / s0) % s1, ..., x / (s0*...*s_{n-2}))``;
  the last sub-mode takes the remaining quotient without a modulo, as ``crd2idx`` does;
* the offset is the inner product of the flattened coordinate with the flattened stride;
* ``Sw<B,M,S> o k o L`` is CuTe's ``ComposedLayout``: ``x -> Sw(k + L(x))``, the swizzle taking
  the B bits at ``M + max(0,S)`` and XORing them into the bits at ``M + max(0,-S)``, on
  *element* offsets (position independent);
* ``Sw<B,M,S> o smem_ptr[16b](unset) o L`` (how CuTe prints the GMMA/UMMA/TMA layout atoms,
  e.g. ``GMMA::Layout_K_SW128_Atom<half_t>``) and ``Sw<B,M,S>_smem_ptr[16b](0x...) o L`` (a
  tensor on a swizzled pointer) swizzle the *byte address* instead: ``x -> Sw(ptr + L(x) *
  sizeof(T))``, as ``swizzle_ptr`` does. ``Sw<3,4,3>`` then means the 128-byte TMA swizzle
  for every element type, and the array's ``base`` takes part exactly as the pointer does
  (the printed address itself is not used). ``[16b]`` is the element width the layout was
  printed for; the array's element type must match it.

Coordinates: an array whose dims are the layout's top-level mode sizes is indexed by one
integer per mode (each split colexicographically inside its mode, as CuTe does); a 1-D array
of ``size(layout)`` elements by CuTe's 1-D index; and an array whose dims are the *flattened*
shape (``((_8,_2),_64)`` -> dims ``[8, 2, 64]``, at most 3 leaves) by hierarchical
coordinates, one per leaf.

``_8`` (a static integer) and ``8`` (a dynamic one) mean the same here. A shape without a stride
gets CuTe's default compact column-major stride, as ``make_layout(shape)`` does.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Union

import numpy as np

from ..errors import BankExplorerError, ExprError
from ..layout import MAX_BYTES, MAX_BYTES_TEXT, MAX_ELEMENTS, SharedArray, Transform, TransformInfo, register_transform
from ..swizzle import Swizzle

KIND = "cute-layout"
MAX_TEXT = 2000
MAX_LEAVES = 32

IntTuple = Union[int, tuple]


class LayoutParseError(ExprError):
    """A pasted layout that does not parse: ``pos`` is the 0-based column, the message says what
    was expected there."""


# ---- values ----------------------------------------------------------------------------------
def flatten(t: IntTuple) -> tuple[int, ...]:
    if isinstance(t, tuple):
        return tuple(x for e in t for x in flatten(e))
    return (t,)


def product(t: IntTuple) -> int:
    out = 1
    for x in flatten(t):
        out *= x
    return out


def fmt(t: IntTuple, static: bool = True) -> str:
    """CuTe's printing: static integers get a leading underscore."""
    if isinstance(t, tuple):
        return "(" + ",".join(fmt(e, static) for e in t) + ")"
    return f"_{t}" if static else str(t)


def _crd2idx(x: np.ndarray, shape: IntTuple, stride: IntTuple) -> np.ndarray:
    """CuTe's ``crd2idx`` for an integer coordinate into a (nested) mode, vectorized."""
    if not isinstance(shape, tuple):
        return x * stride
    out = np.zeros(np.shape(x), np.int64)
    for s, d in zip(shape[:-1], stride[:-1]):
        n = product(s)
        out = out + _crd2idx(x % n, s, d)
        x = x // n
    return out + _crd2idx(x, shape[-1], stride[-1])


@dataclass(frozen=True)
class Layout:
    """A CuTe ``Layout<Shape, Stride>``: (possibly nested) shape and stride tuples, CuTe's column-major order."""

    shape: IntTuple
    stride: IntTuple

    @property
    def modes(self) -> tuple[tuple[IntTuple, IntTuple], ...]:
        """Top-level modes as (shape, stride) pairs; a bare integer shape is one mode."""
        if isinstance(self.shape, tuple):
            return tuple(zip(self.shape, self.stride))
        return ((self.shape, self.stride),)

    @property
    def rank(self) -> int:
        return len(self.modes)

    def mode_sizes(self) -> tuple[int, ...]:
        return tuple(product(s) for s, _ in self.modes)

    def size(self) -> int:
        return product(self.shape)

    def __call__(self, *coords) -> np.ndarray:
        """Offset of a coordinate: one integer (1-D, colexicographic over the whole shape) or one
        integer per top-level mode. Vectorized over numpy arrays."""
        if len(coords) == 1:
            return _crd2idx(np.asarray(coords[0], np.int64), self.shape, self.stride)
        if len(coords) != self.rank:
            raise BankExplorerError(f"the layout has rank {self.rank}, got {len(coords)} coordinates")
        out = np.int64(0)
        for c, (s, d) in zip(coords, self.modes):
            out = out + _crd2idx(np.asarray(c, np.int64), s, d)
        return np.asarray(out, np.int64)

    def leaves(self) -> tuple[int, ...]:
        return flatten(self.shape)

    def flat(self, *coords) -> np.ndarray:
        """Offset of a hierarchical coordinate, one integer per leaf of the shape."""
        if len(coords) != len(self.leaves()):
            raise BankExplorerError(f"the layout has {len(self.leaves())} leaf modes, got {len(coords)} coordinates")
        out = np.int64(0)
        for c, d in zip(coords, flatten(self.stride)):
            out = out + np.asarray(c, np.int64) * d
        return np.asarray(out, np.int64)

    def __str__(self) -> str:
        return f"{fmt(self.shape)}:{fmt(self.stride)}"


@dataclass(frozen=True)
class ComposedLayout:
    """``swizzle o offset o layout``; ``swizzle`` None means the plain layout. ``ptr_bits`` set
    means the offset was a shared-memory pointer (``smem_ptr[16b](unset)``): the swizzle then
    acts on byte addresses, and ``ptr_bits`` is the element width the layout was printed for."""

    layout: Layout
    swizzle: Swizzle | None = None
    offset: int = 0
    ptr_bits: int | None = None

    @property
    def rank(self) -> int:
        return self.layout.rank

    @property
    def on_bytes(self) -> bool:
        return self.swizzle is not None and self.ptr_bits is not None

    def mode_sizes(self) -> tuple[int, ...]:
        return self.layout.mode_sizes()

    def size(self) -> int:
        return self.layout.size()

    def byte_offsets(self, coords: tuple, elem_size: int, base: int = 0, flat: bool = False) -> np.ndarray:
        """Byte offsets from ``base`` of logical coordinates (see :meth:`Layout.__call__`), or of
        hierarchical ones (one per leaf) with ``flat``."""
        off = self.layout.flat(*coords) if flat else self.layout(*coords)
        if self.swizzle is None:
            return (off + self.offset) * elem_size
        if self.on_bytes:
            return self.swizzle(base + off * elem_size) - base
        return self.swizzle(off + self.offset) * elem_size

    def __call__(self, *coords) -> np.ndarray:
        """Element offsets (for a pointer-swizzled layout: bytes divided by the printed width)."""
        if self.on_bytes:
            e = max(1, self.ptr_bits // 8)
            return self.byte_offsets(coords, e) // e
        off = self.layout(*coords)
        if self.swizzle is None:
            return off + self.offset if self.offset else off
        return self.swizzle(off + self.offset)

    def __str__(self) -> str:
        if self.swizzle is None:
            return str(self.layout)
        if self.ptr_bits is not None:
            return f"{self.swizzle} o smem_ptr[{self.ptr_bits}b](unset) o {self.layout}"
        return f"{self.swizzle} o {fmt(self.offset)} o {self.layout}"


# ---- parser ----------------------------------------------------------------------------------
class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.i = 0

    def fail(self, msg: str, pos: int | None = None):
        raise LayoutParseError(msg, self.text, self.i if pos is None else pos)

    def ws(self) -> None:
        while self.i < len(self.text) and self.text[self.i].isspace():
            self.i += 1

    def peek(self, s: str) -> bool:
        self.ws()
        return self.text.startswith(s, self.i)

    def expect(self, s: str, what: str | None = None) -> None:
        if not self.peek(s):
            self.fail(f"expected {what or repr(s)}, found {self.found()}")
        self.i += len(s)

    def found(self) -> str:
        self.ws()
        if self.i >= len(self.text):
            return "the end of the text"
        return repr(self.text[self.i])

    def integer(self, what: str = "an integer") -> int:
        """``8``, ``_8`` (CuTe's static integer) or a negative ``-1`` / ``_-1``."""
        self.ws()
        t, start = self.text, self.i
        j = start + (1 if t.startswith("_", start) else 0)
        neg = j < len(t) and t[j] == "-"
        j += 1 if j < len(t) and t[j] in "+-" else 0
        k = j
        while k < len(t) and t[k].isdigit():
            k += 1
        if k == j:
            self.fail(f"expected {what}, found {self.found()}")
        if k - j > 12:
            self.fail("integer is absurdly large", start)
        self.i = k
        return -int(t[j:k]) if neg else int(t[j:k])

    def tuple_(self, what: str, depth: int = 0) -> IntTuple:
        if depth > 8:
            self.fail("modes are nested too deeply (at most 8 levels)")
        if self.peek("("):
            self.i += 1
            items = [self.tuple_(what, depth + 1)]
            while True:
                if self.peek(","):
                    self.i += 1
                    items.append(self.tuple_(what, depth + 1))
                elif self.peek(")"):
                    self.i += 1
                    return tuple(items)
                else:
                    self.fail(f"expected ',' or ')' in the {what}, found {self.found()}")
        return self.integer(f"an integer or '(' in the {what}")

    def swizzle(self) -> Swizzle:
        start = self.i
        for head in ("Swizzle<", "Sw<"):
            if self.peek(head):
                self.i += len(head)
                break
        B = self.integer("B, the number of bits, in Sw<B,M,S>")
        self.expect(",", "',' after B in Sw<B,M,S>")
        M = self.integer("M, the number of unchanged low bits, in Sw<B,M,S>")
        self.expect(",", "',' after M in Sw<B,M,S>")
        S = self.integer("S, the shift, in Sw<B,M,S>")
        self.expect(">", "'>' closing Sw<B,M,S>")
        if not 0 <= B <= 8 or not 0 <= M <= 16 or not -16 <= S <= 16:
            self.fail("Sw<B,M,S> needs 0 <= B <= 8, 0 <= M <= 16 and -16 <= S <= 16", start)
        if B and abs(S) < B:
            self.fail(f"Sw<{B},{M},{S}>: |S| must be at least B so the bits do not overlap (CuTe asserts it)", start)
        return Swizzle(B, M, S)

    def layout(self) -> Layout:
        start = self.i
        self.ws()
        shape_pos = self.i
        shape = self.tuple_("shape")
        for k, s in enumerate(flatten(shape)):
            if s < 1:
                self.fail(f"shape entries must be positive, got {s}", shape_pos)
        if len(flatten(shape)) > MAX_LEAVES:
            self.fail(f"at most {MAX_LEAVES} modes in all", shape_pos)
        if self.peek(":"):
            self.i += 1
            self.ws()
            stride_pos = self.i
            stride = self.tuple_("stride")
            if not _congruent(shape, stride):
                self.fail(f"the stride {fmt(stride, False)} does not have the shape's structure "
                          f"{fmt(shape, False)} (one stride per shape entry, nested the same way)", stride_pos)
        else:
            stride = _compact_col_major(shape)
        del start
        return Layout(shape, stride)

    def pointer(self) -> int | None:
        """``smem_ptr[16b](unset)``, ``smem_ptr[16b](0x7f0000000400)``, ``gmem_ptr[32b](...)``,
        ``ptr[8b](...)``: the element width in bits (None when no ``[Nb]`` is printed)."""
        self.ws()
        start = self.i
        for p in ("smem_ptr", "gmem_ptr", "rmem_ptr", "ptr"):
            if self.text.startswith(p, self.i):
                self.i += len(p)
                break
        else:
            self.fail("expected a pointer such as smem_ptr[16b](unset)")
        bits = None
        if self.text.startswith("[", self.i):
            self.i += 1
            bits = self.integer("the element width in bits, as in smem_ptr[16b]")
            if not self.text.startswith("b]", self.i):
                self.fail(f"expected 'b]' after the element width, found {self.found()}")
            self.i += 2
            if bits < 8 or bits % 8 or bits > 128:
                self.fail(f"{bits}-bit elements are not modelled (whole bytes, 8 to 128 bits)", start)
        if not self.text.startswith("(", self.i):
            self.fail(f"expected '(' and the address after the pointer, found {self.found()}")
        self.i += 1
        self.ws()
        while self.i < len(self.text) and (self.text[self.i].isalnum() or self.text[self.i] == "_"):
            self.i += 1  # the address as CuTe prints it: "unset", "0x7f0000000400", "nullptr"
        if not self.peek(")"):
            self.fail(f"expected ')' closing the pointer's address, found {self.found()}")
        self.i += 1
        return bits

    def _is_pointer(self) -> bool:
        self.ws()
        return any(self.text.startswith(p, self.i) for p in ("smem_ptr", "gmem_ptr", "rmem_ptr", "ptr["))

    def parse(self) -> ComposedLayout:
        if len(self.text) > MAX_TEXT:
            raise LayoutParseError(f"text is too long (at most {MAX_TEXT} characters)", self.text[:40] + "…", 0)
        sw = None
        offset = 0
        ptr_bits = None
        if self._is_pointer():  # print(tensor): "smem_ptr[16b](0x...) o <layout>"
            self.pointer()
            self.expect("o", "'o' after the pointer")
        if self.peek("Sw") or self.peek("Swizzle"):
            sw = self.swizzle()
            if self.text.startswith("_", self.i) and self._is_pointer_after_underscore():
                # a tensor on a swizzled pointer: "Sw<3,4,3>_smem_ptr[16b](0x...) o <layout>"
                self.i += 1
                ptr_bits = self._required_bits(self.pointer())
                self.expect("o", "'o' after the pointer")
            else:
                self.expect("o", "'o' (composition) after the swizzle")
                if self._is_pointer():  # a layout atom: "Sw<3,4,3> o smem_ptr[16b](unset) o <layout>"
                    ptr_bits = self._required_bits(self.pointer())
                    self.expect("o", "'o' after the pointer")
                else:
                    save = self.i
                    # an offset "_0 o" may follow; a layout may also start with an integer ("_64:_1")
                    try:
                        val = self.integer()
                        if self.peek("o"):
                            self.i += 1
                            offset = val
                        else:
                            self.i = save
                    except LayoutParseError:
                        self.i = save
        lay = self.layout()
        self.ws()
        if self.i < len(self.text):
            if self.peek("o"):
                self.fail("only a swizzle Sw<B,M,S> can be composed with a layout here "
                          "(general composition A o B is not a shared-memory layout)")
            self.fail(f"expected the end of the layout, found {self.found()}")
        if offset < 0:
            self.fail("the offset must not be negative", 0)
        return ComposedLayout(lay, sw, offset, ptr_bits)

    def _is_pointer_after_underscore(self) -> bool:
        return any(self.text.startswith(p, self.i + 1) for p in ("smem_ptr", "ptr["))

    def _required_bits(self, bits: int | None) -> int:
        if bits is None:
            self.fail("a swizzled pointer needs its element width, as CuTe prints it: smem_ptr[16b](...)")
        return bits


def _congruent(a: IntTuple, b: IntTuple) -> bool:
    if isinstance(a, tuple):
        return isinstance(b, tuple) and len(a) == len(b) and all(_congruent(x, y) for x, y in zip(a, b))
    return not isinstance(b, tuple)


def _compact_col_major(shape: IntTuple, start: int = 1) -> IntTuple:
    """CuTe's default stride (``LayoutLeft``): the first mode varies fastest."""
    if not isinstance(shape, tuple):
        return start
    out = []
    for s in shape:
        out.append(_compact_col_major(s, start))
        start *= product(s)
    return tuple(out)


@lru_cache(maxsize=256)
def parse(text: str) -> ComposedLayout:
    """Parse ``shape:stride``, optionally ``Sw<B,M,S> o offset o shape:stride`` (offset optional),
    as CuTe prints it; raise :class:`LayoutParseError` naming the column and what was expected."""
    if not isinstance(text, str) or not text.strip():
        raise LayoutParseError("expected a CuTe layout such as (_8,_64):(_64,_1)", str(text or ""), 0)
    return _Parser(text).parse()


# ---- the layout kind ---------------------------------------------------------------------------
def _flat_coords(lay: ComposedLayout, dims: tuple[int, ...]) -> bool:
    """True when the array is indexed by hierarchical coordinates (its dims are the flattened
    shape of a nested layout); top-level modes otherwise."""
    leaves = lay.layout.leaves()
    return len(leaves) != lay.rank and tuple(dims) == leaves


def _offsets(arr: SharedArray, idx: tuple[np.ndarray, ...]) -> np.ndarray:
    lay = parse(str(arr.transform.get("layout", "")))
    coords = tuple(np.asarray(i, np.int64) for i in idx)
    return lay.byte_offsets(coords, arr.elem_size, arr.base, flat=_flat_coords(lay, arr.dims))


def _validate(arr: SharedArray) -> list[tuple[str, str]]:
    text = arr.transform.get("layout", "")
    if not isinstance(text, str):
        return [("layout", "must be a string such as \"Sw<3,4,3> o _0 o (_8,_64):(_64,_1)\"")]
    try:
        lay = parse(text)
    except LayoutParseError as e:
        return [("layout", e.message)]
    if arr.padding:
        return [("padding", "a CuTe layout sets its own strides: put padding into the stride instead")]
    if arr.numel > MAX_ELEMENTS:
        return []  # the array's own check reports the size; mapping it would only exhaust memory
    if lay.ptr_bits is not None and lay.ptr_bits != arr.elem_size * 8:
        return [("layout", f"was printed for {lay.ptr_bits}-bit elements (smem_ptr[{lay.ptr_bits}b]) but the array's "
                           f"{arr.dtype} elements are {arr.elem_size * 8} bits: the byte swizzle would land elsewhere")]
    sizes = lay.mode_sizes()
    if _flat_coords(lay, arr.dims):
        pass
    elif arr.ndim == 1:
        if arr.dims[0] != lay.size():
            return [("layout", f"the layout has {lay.size():,} elements; a 1-D array using it needs dims [{lay.size()}] "
                               f"(or dims {list(sizes)} to index it by its {lay.rank} modes)")]
    elif tuple(arr.dims) != sizes:
        alt = f" or [{lay.size()}] for 1-D coordinates" if lay.rank > 1 else ""
        leaves = lay.layout.leaves()
        if len(leaves) != lay.rank and len(leaves) <= 3:
            alt += f" or {list(leaves)} for hierarchical coordinates"
        return [("layout", f"the layout's modes have sizes {list(sizes)}: the array needs dims {list(sizes)}{alt}, "
                           f"got {list(arr.dims)}")]
    off = lay.byte_offsets(arr.all_indices(), arr.elem_size, arr.base, flat=_flat_coords(lay, arr.dims)) // arr.elem_size
    if off.size and int(off.min()) < 0:
        k = int(np.argmin(off))
        where = "".join(f"[{int(i[k])}]" for i in arr.all_indices())
        if lay.on_bytes:
            period = 1 << (lay.swizzle.M + lay.swizzle.B + abs(lay.swizzle.S))
            return [("layout", f"the pointer swizzle moves {arr.name}{where} before the array's base {arr.base}: "
                               f"place the array at a multiple of {period} bytes, as CuTe's swizzled smem must be")]
        return [("layout", f"maps {arr.name}{where} to a negative offset ({int(off[k])})")]
    if off.size and int(off.max()) * arr.elem_size >= MAX_BYTES:
        return [("layout", f"maps elements beyond {MAX_BYTES_TEXT}")]
    return []


def _describe(t: Transform) -> str:
    try:
        return f"CuTe {parse(str(t.get('layout', '')))}"
    except LayoutParseError:
        return f"CuTe {t.get('layout', '')} (does not parse)"


def make(text: str) -> Transform:
    """The Transform for a pasted CuTe layout (parsed first, so a bad string fails here)."""
    parse(text)
    return Transform.make(KIND, layout=text.strip())


register_transform(KIND, _offsets, TransformInfo("CuTe layout", _validate, _describe))
