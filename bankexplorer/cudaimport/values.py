"""What a CUDA expression stands for while the importer walks it.

* :class:`Int` - an integer the model can evaluate per thread, kept as text in the expression
  language of :mod:`bankexplorer.model.expr` (``threadIdx.x % 32``), with its value when it is
  the same for every thread.
* :class:`ArrayView` - a shared array, or part of one (``tile`` or ``tile[y]`` of a 2-D tile).
* :class:`Ptr` - a pointer into a shared array: where it points and the size of what it points to.
* :class:`Ref` - one shared-memory location of a given size: reading it is a load, assigning it a
  store. Subscripts and ``*p`` make a Ref; nothing is emitted until the Ref is used.
* :class:`Data` - anything else (floats, global memory, values read from shared memory).
* :class:`Unknown` - a name the importer could not give a value; it is only an error when an
  index or a condition needs it, so code the model does not need is never reported.
"""

from __future__ import annotations

from dataclasses import dataclass, field

# C precedence, higher binds tighter (used to print the fewest parentheses)
PREC_TERNARY, PREC_ATOM, PREC_UNARY = 1, 13, 12
BINARY_PREC = {
    "||": 2, "&&": 3, "|": 4, "^": 5, "&": 6, "==": 7, "!=": 7,
    "<": 8, "<=": 8, ">": 8, ">=": 8, "<<": 9, ">>": 9, "+": 10, "-": 10, "*": 11, "/": 11, "%": 11,
}


@dataclass(frozen=True)
class Int:
    text: str
    prec: int = PREC_ATOM
    const: int | None = None  # the value, when it does not depend on the thread or a loop

    @classmethod
    def of(cls, value: int) -> "Int":
        return cls(str(value) if value >= 0 else f"({value})", PREC_ATOM, value)

    def wrapped(self, min_prec: int) -> str:
        return self.text if self.prec >= min_prec else f"({self.text})"


@dataclass(frozen=True)
class ArrayView:
    array: str
    index: tuple[Int, ...] = ()  # leading indices given so far


@dataclass(frozen=True)
class Ptr:
    """``array`` + leading ``index`` + ``extra`` elements, pointing at ``size``-byte values."""

    array: str
    index: tuple[Int, ...]
    extra: Int | None
    size: int
    address: bool = False  # an integer shared-window address (``__cvta_generic_to_shared``): + counts bytes


@dataclass(frozen=True)
class Ref:
    ptr: Ptr
    component: int = 0  # byte offset inside the pointed-to value (a .x/.y of a vector)


@dataclass(frozen=True)
class Data:
    pass


@dataclass(frozen=True)
class Unknown:
    why: str
    line: int = 0
    column: int = 0


@dataclass(frozen=True)
class Dim3:
    dims: tuple[int, int, int]


@dataclass(frozen=True)
class TypeName:
    """A type used as a value (``sizeof(float4)`` parses as a parenthesized name)."""

    name: str


DATA = Data()
@dataclass(frozen=True)
class Group:
    """A cooperative group: the thread block (``cg::this_thread_block()``) or a tile of ``size``
    threads of it (``cg::tiled_partition<32>(block)``)."""

    size: int | None = None  # None: the whole block


Value = Int | ArrayView | Ptr | Ref | Data | Unknown | Dim3 | TypeName | Group


@dataclass
class Binding:
    """A local name: its value, and the scope depth where it was declared (for loop-carried
    updates, which the importer handles by unrolling)."""

    value: Value
    depth: int
    is_const: bool = False
    names: set[str] = field(default_factory=set)
    active: int = 0  # conditions on the thread in force where it was declared (len of the stack)
