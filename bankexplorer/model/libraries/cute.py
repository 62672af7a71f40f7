"""CuTe layouts as ``print(layout)`` shows them, so a CUTLASS user can paste what their kernel prints.

A layout ``shape:stride`` maps a logical coordinate to an offset (in elements). Shapes nest:
``((_8,_8),(_8,_2)):((_64,_1),(_8,_512))`` is a rank-2 layout of 64 x 16 elements whose modes are
themselves 2-D. CuTe's rules, reproduced here:

* an integer coordinate into a (nested) mode is split **colexicographically** (the first
  sub-mode varies fastest): ``x -> (x % s0, (x / s0) % s1, ..., x / (s0*...*s_{n-2}))``;
  the last sub-mode takes the remaining quotient without a modulo, as ``crd2idx`` does;
* the offset is the inner product of the flattened coordinate with the flattened stride;
* ``Sw<B,M,S> o k o L`` is CuTe's ``ComposedLayout``: ``x -> Sw(k + L(x))``, the swizzle taking
  the B bits at ``M + max(0,S)`` and XORing them into the bits at ``M + max(0,-S)``.

``_8`` (a static integer) and ``8`` (a dynamic one) mean the same here. A shape without a stride
gets CuTe's default compact column-major stride, as ``make_layout(shape)`` does.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Union

import numpy as np

from ..errors import BankExplorerError, ExprError
from ..layout import SharedArray, Transform, TransformInfo, register_transform
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

    def __str__(self) -> str:
        return f"{fmt(self.shape)}:{fmt(self.stride)}"


@dataclass(frozen=True)
class ComposedLayout:
    """``swizzle o offset o layout``; ``swizzle`` None means the plain layout."""

    layout: Layout
    swizzle: Swizzle | None = None
    offset: int = 0

    @property
    def rank(self) -> int:
        return self.layout.rank

    def mode_sizes(self) -> tuple[int, ...]:
        return self.layout.mode_sizes()

    def size(self) -> int:
        return self.layout.size()

    def __call__(self, *coords) -> np.ndarray:
        off = self.layout(*coords)
        if self.swizzle is None:
            return off + self.offset if self.offset else off
        return self.swizzle(off + self.offset)

    def __str__(self) -> str:
        if self.swizzle is None:
            return str(self.layout)
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

    def parse(self) -> ComposedLayout:
        if len(self.text) > MAX_TEXT:
            raise LayoutParseError(f"text is too long (at most {MAX_TEXT} characters)", self.text[:40] + "…", 0)
        self._skip_pointer()
        sw = None
        offset = 0
        if self.peek("Sw") or self.peek("Swizzle"):
            sw = self.swizzle()
            self.expect("o", "'o' (composition) after the swizzle")
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
        return ComposedLayout(lay, sw, offset)

    def _skip_pointer(self) -> None:
        """``print(tensor)`` starts with the pointer, e.g. ``smem_ptr[16b](0x7f00) o ...``: skip it."""
        self.ws()
        for p in ("smem_ptr", "gmem_ptr", "ptr"):
            if self.text.startswith(p, self.i):
                depth = 0
                j = self.i
                while j < len(self.text):
                    c = self.text[j]
                    if c == "(":
                        depth += 1
                    elif c == ")":
                        depth -= 1
                        if depth == 0:
                            break
                    j += 1
                if j >= len(self.text):
                    self.fail("unclosed '(' in the pointer")
                self.i = j + 1
                self.expect("o", "'o' after the pointer")
                return


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
def _offsets(arr: SharedArray, idx: tuple[np.ndarray, ...]) -> np.ndarray:
    lay = parse(str(arr.transform.get("layout", "")))
    coords = tuple(np.asarray(i, np.int64) for i in idx)
    return lay(*coords) * arr.elem_size


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
    sizes = lay.mode_sizes()
    if arr.ndim == 1:
        if arr.dims[0] != lay.size():
            return [("layout", f"the layout has {lay.size():,} elements; a 1-D array using it needs dims [{lay.size()}] "
                               f"(or dims {list(sizes)} to index it by its {lay.rank} modes)")]
    elif tuple(arr.dims) != sizes:
        alt = f" or [{lay.size()}] for 1-D coordinates" if lay.rank > 1 else ""
        return [("layout", f"the layout's modes have sizes {list(sizes)}: the array needs dims {list(sizes)}{alt}, "
                           f"got {list(arr.dims)}")]
    off = lay(*arr.all_indices())
    if off.size and int(off.min()) < 0:
        k = int(np.argmin(off))
        where = "".join(f"[{int(i[k])}]" for i in arr.all_indices())
        return [("layout", f"maps {arr.name}{where} to a negative offset ({int(off[k])})")]
    if off.size and int(off.max()) * arr.elem_size >= 1 << 24:
        return [("layout", "maps elements beyond 16 MiB")]
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


register_transform(KIND, _offsets, TransformInfo("CuTe layout (shape:stride, Sw<B,M,S>)", _validate, _describe))
