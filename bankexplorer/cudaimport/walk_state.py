"""The symbolic walk's shared state: scopes, bindings, limits, and integer arithmetic.

The walk over the syntax tree is split by what it reads (expressions, statements, loops); each part
is a mixin over :class:`WalkState`, and :class:`.translate.Translator` puts them together.
"""

from __future__ import annotations

import operator
from dataclasses import dataclass, field
from typing import Sequence

import tree_sitter as ts

from ..model import expr as E
from ..model.errors import BankExplorerError
from ..model.layout import DTYPES
from ..model.pattern import RESERVED_NAMES, Instruction, Loop
from .options import ImportOptions
from .result import Diagnostic, SourceSpan
from .syntax import Source
from .values import (
    BINARY_PREC, PREC_ATOM, PREC_TERNARY, PREC_UNARY, ArrayView, Binding, Data, Int, Ptr, Ref, Unknown, Value,
)

DEFAULT_EXTERN_BYTES = 48 * 1024  # the default dynamic shared-memory limit per block
MAX_UNROLL = 1024  # iterations the importer writes out one by one
MAX_STEPS = 200_000  # statements it walks in all (unrolled loops multiply them)
MAX_INSTRUCTIONS = 4096  # instructions it writes
MAX_CALL_DEPTH = 16  # inlined calls inside inlined calls
MAX_EXPR_CHARS = 2000  # an index expression longer than this is not followed (a = a + a doubles it)

#: CUDA atomic -> the model's atomic operation (atomicSub is an add; atomicAdd on a float array
#: becomes a float add in the model, see Instruction.atomic_op)
ATOMIC_OPS = {"atomicAdd": "add", "atomicSub": "add", "atomicExch": "exch", "atomicMin": "min", "atomicMax": "max",
              "atomicInc": "inc", "atomicDec": "dec", "atomicCAS": "cas", "atomicAnd": "and", "atomicOr": "or",
              "atomicXor": "xor"}
ATOMICS = set(ATOMIC_OPS)
SYNC = {"__syncthreads", "__syncwarp", "__threadfence_block", "__threadfence", "__syncthreads_count",
        "__syncthreads_and", "__syncthreads_or", "cg::sync", "sync"}
CASTS = {"reinterpret_cast", "static_cast", "const_cast"}
INT_FUNCS = {"min": "min", "max": "max", "umin": "min", "umax": "max", "imin": "min", "imax": "max",
             "llmin": "min", "llmax": "max", "abs": "abs", "labs": "abs", "llabs": "abs"}
BUILTIN_DIMS = {"threadIdx", "blockDim", "blockIdx", "gridDim"}


class Unsupported(Exception):
    """A construct the model cannot represent, at a node."""

    def __init__(self, node: ts.Node | None, message: str, severity: str = "warning"):
        super().__init__(message)
        self.node = node
        self.message = message
        self.severity = severity


class _TooLong(Exception):
    """The walk went past its budget (deeply nested unrolled loops): stop, keep what was found."""

    def __init__(self, node: ts.Node, message: str):
        super().__init__(message)
        self.node = node
        self.message = message


ONCE = "its body is imported once, as one iteration"
ONCE_FIRST = "its body is imported once, as its first iteration"


class _ExprTooLong(Exception):
    """An integer expression grew past :data:`MAX_EXPR_CHARS`; its value becomes Unknown."""


_TOO_LONG = Unknown(f"an integer expression longer than {MAX_EXPR_CHARS:,} characters (a variable that doubles "
                    f"itself in a loop?), which is not followed")


class _NeedsUnroll(Exception):
    """A loop body changes a variable declared outside the loop: unroll the loop."""


class _BreakLoop(Exception):
    """``if (k == 6) break;`` whose condition holds for every thread in this pass: the loop ends here."""


@dataclass
class _Array:
    name: str
    dtype: str
    dims: tuple[int, ...]
    padding: int
    extern: bool
    node: ts.Node


@dataclass
class _Struct:
    """A struct of the text laid out as C does. A shared array of it is modelled as an array of
    ``unit``-byte words with one more dimension (``P pts[128]`` -> ``float pts[128][3]``), so that
    ``pts[t].y`` is ``pts[t][1]``."""
    name: str
    fields: dict[str, tuple[int, int]]  # name -> (byte offset, size)
    size: int
    dtype: str  # the word type
    counts: dict[str, int] = field(default_factory=dict)  # array fields (``float x[128]``): their length

    @property
    def unit(self) -> int:
        from ..model.layout import DTYPES
        return DTYPES[self.dtype]


@dataclass
class _CallFrame:
    """An inlined call being walked: where the caller's state was, and what it returned."""
    name: str
    line: int  # of the call
    active: int  # len(active) at the call
    frames: int  # len(frames) at the call
    unrolled: int  # len(unrolled) at the call
    returns: list = field(default_factory=list)  # the returned values (None: under a condition)


@dataclass
class _LoopFrame:
    var: str  # name in the pattern
    depth: int  # scope depth of the loop's own scope


class WalkState:
    """What the walk knows at a point of the text: scopes and bindings, arrays, loops around,
    instructions written so far; and the integer arithmetic every stage of the walk shares."""

    def __init__(self, src: Source, opts: ImportOptions, block: tuple[int, int, int], extern_bytes: int | None):
        self.src = src
        self.opts = opts
        self.block = block
        self.extern_bytes = extern_bytes
        self.scopes: list[dict[str, Binding]] = [{}]
        self.arrays: dict[str, _Array] = {}
        self.consts: dict[str, int] = {}
        self.loops: list[Loop] = []
        self.frames: list[_LoopFrame] = []  # symbolic loops (not unrolled), innermost last
        self.loop_vars: list[Binding] = []  # the bindings of the loop variables in scope
        self.unrolled: list[tuple[str, int]] = []  # (variable, value) of the unrolled loops around
        self.steps = 0
        self.active: list[Int] = []
        self.instrs: list[Instruction] = []
        self.spans: list[SourceSpan] = []
        self.diags: list[Diagnostic] = []
        self.launches: list[tuple[tuple[int, int, int] | None, int | None, int]] = []
        self.launch_bounds: tuple[int, int] | None = None  # (threads, line)
        self.extern_default_used: ts.Node | None = None
        self.macros: set[str] = set()
        self.flat_forms: dict[int, tuple[str, ...]] = {}  # instruction -> index if the offset crosses rows
        self.functions: dict[str, ts.Node] = {}  # the text's function definitions by name
        self.twins: list[tuple[int, int, str]] = []  # the same access in both branches of an if (see ImportResult)
        self.called: set[str] = set()  # those another function calls: inlined where called
        self.calls: list[_CallFrame] = []  # inlined calls being walked, innermost last
        self.scope_floor = 0  # lookups see scopes[scope_floor:] and the file scope (inside a call)
        # the text's structs whose fields the model has types for; CUDA's 12-byte vectors are such
        # structs (three 4-byte words, 4-byte aligned: nvcc reads and writes them field by field)
        self.structs: dict[str, _Struct] = {
            name: _Struct(name, {"x": (0, 4), "y": (4, 4), "z": (8, 4)}, 12, word)
            for name, word in (("float3", "float"), ("int3", "int"), ("uint3", "int"))}
        self.struct_of: dict[str, _Struct] = {}  # shared array -> the struct it holds
        self.runtime_names: set[str] = set()
        self.barriers: list[int] = []
        self.loop_kinds: list[bool] = []
        self.fragments: dict = {}  # wmma fragment variables -> walk_wmma.Fragment
        self.skip_nodes: set[tuple[int, int]] = set()  # statements a loop header already stands for
        self.lambdas: dict[str, ts.Node] = {}  # local lambdas by name, inlined where called
        self.static_members: dict[str, int] = {}  # "Cfg::TILE" -> 32 (a struct's static constexpr ints)  # loops around, innermost last: walked pass by pass (True) or once  # instruction count at each barrier or fence (see ImportResult)  # the kernel's int parameters (their values come with the launch)
        for name, value in opts.defines.items():
            self._bind_const(name, int(value))

    # ---- reporting ---------------------------------------------------------------------------
    def report(self, node: ts.Node | None, message: str, severity: str = "warning") -> None:
        line, col = self.src.position(node) if node is not None else (1, 1)
        d = Diagnostic(line, col, message, severity)
        if d not in self.diags:
            self.diags.append(d)

    def _where(self, node: ts.Node) -> str:
        line, col = self.src.position(node)
        return f"line {line}, column {col}"

    def text(self, node: ts.Node) -> str:
        return self.src.node_text(node)

    # ---- scopes ------------------------------------------------------------------------------
    @property
    def depth(self) -> int:
        return len(self.scopes) - 1

    def _visible(self) -> list[dict[str, Binding]]:
        """The scopes a name can be found in, innermost first: inside an inlined function, its own
        scopes and the file's, not its caller's."""
        inner = self.scopes[max(self.scope_floor, 1):]
        return [*reversed(inner), self.scopes[0]] if self.scope_floor else list(reversed(self.scopes))

    def lookup(self, name: str) -> Binding | None:
        for scope in self._visible():
            if name in scope:
                return scope[name]
        return None

    def bind(self, name: str, value: Value, is_const: bool = False) -> None:
        self.scopes[-1][name] = Binding(value, self.depth, is_const, active=len(self.active))

    def rebind(self, name: str, value: Value, node: ts.Node) -> bool:
        """Assign to an existing local; a loop-carried change makes the enclosing loop unroll.

        Under a condition on the thread that was not in force where the variable was declared
        (``if (tid < 16) a = 5;``), only those lanes take the new value: it becomes
        ``cond ? new : old``."""
        for scope in self._visible():
            if name in scope:
                b = scope[name]
                if b.is_const:
                    raise Unsupported(node, f"assignment to constant {name!r}")
                if any(b is lb for lb in self.loop_vars):
                    raise Unsupported(node, f"the loop variable {name!r} is changed inside the loop body: "
                                            f"only the loop's own update is modelled")
                if self.frames and b.depth < self.frames[-1].depth and not isinstance(b.value, (Data,)):
                    raise _NeedsUnroll()
                extra = self.active[b.active:]
                if extra and not (isinstance(b.value, Data) and isinstance(value, Data)):
                    value = self._merge_conditional(name, extra, value, b.value, node)
                scope[name] = Binding(value, b.depth, False, active=b.active)
                return True
        return False

    def _merge_conditional(self, name: str, conds: list[Int], new: Value, old: Value, node: ts.Node) -> Value:
        cond = conds[0]
        for c in conds[1:]:
            cond = self.binop("&&", cond, c)
        if cond.const is not None:
            return new if cond.const else old
        if isinstance(new, Int) and isinstance(old, Int):
            text = f"{cond.wrapped(PREC_TERNARY + 1)} ? {new.wrapped(PREC_TERNARY)} : {old.wrapped(PREC_TERNARY)}"
            return Int(text, PREC_TERNARY, None) if len(text) <= MAX_EXPR_CHARS else _TOO_LONG
        if isinstance(new, Unknown):
            return new
        if isinstance(old, Unknown):
            return old
        if isinstance(new, Data) and isinstance(old, Data):
            return new
        line, col = self.src.position(node)
        return Unknown(f"{name!r}, which is assigned a pointer or data under a condition on the thread at "
                       f"line {line}, column {col} (not followed)", line, col)

    def _bind_const(self, name: str, value: int) -> None:
        """A named integer constant: kept by name in expressions (readable), given to the pattern."""
        usable = name.isidentifier() and name not in RESERVED_NAMES and self.consts.get(name, value) == value
        if usable:
            self.consts[name] = value
            self.bind(name, Int(name, PREC_ATOM, value), is_const=True)
        else:
            self.bind(name, Int.of(value), is_const=True)

    # ---- integers ----------------------------------------------------------------------------
    def as_int(self, v: Value, node: ts.Node, what: str = "an index") -> Int:
        if isinstance(v, Int):
            return v
        if isinstance(v, Unknown):
            raise Unsupported(node, f"{what} uses {v.why}")
        if isinstance(v, Ref) or isinstance(v, Data):
            raise Unsupported(node, f"{what} depends on data ({self.text(node)!r}): only integer expressions of the "
                                    f"thread index, loop variables and constants can be modelled")
        raise Unsupported(node, f"{what} is not an integer expression: {self.text(node)!r}")

    def const_int(self, v: Value, node: ts.Node, what: str) -> int:
        i = self.as_int(v, node, what)
        if i.const is None:
            raise Unsupported(node, f"{what} must be a constant, got {self.text(node)!r} (depends on the thread)")
        return i.const

    @staticmethod
    def _fold(text: str) -> int | None:
        try:
            return int(E.parse(text).evaluate({}))
        except BankExplorerError:
            return None

    def binop(self, op: str, a: Int, b: Int) -> Int:
        p = BINARY_PREC[op]
        if a.const is not None and b.const is not None:
            v = self._fold(f"({a.const}) {op} ({b.const})")
        else:
            v = None
        # drop neutral elements so imported indices stay readable (i + 0, 1 * i)
        if op in ("+", "-", "|", "^", "<<", ">>") and b.const == 0 and b.text == "0":
            return a
        if op == "+" and a.const == 0 and a.text == "0":
            return b
        if op == "*" and b.const == 1 and b.text == "1":
            return a
        if op == "*" and a.const == 1 and a.text == "1":
            return b
        if v is not None and _literal(a) and _literal(b):
            return Int.of(v)  # 33 + 33 -> 66 (named constants stay by name: TILE + 1)
        text = f"{_operand(a, p, p)} {op} {_operand(b, p, p + 1)}"
        if len(text) > MAX_EXPR_CHARS:
            raise _ExprTooLong()
        return Int(text, p, v)

    def add(self, a: Int, b: Int) -> Int:
        return self.binop("+", a, b)

    def mul(self, a: Int, k: int) -> Int:
        return self.binop("*", a, Int.of(k))

    def negate(self, c: Int) -> Int:
        v = None if c.const is None else int(c.const == 0)
        return Int(f"!{c.wrapped(PREC_UNARY)}", PREC_UNARY, v)

    # ---- shared memory accesses --------------------------------------------------------------
    def decay(self, v: Value) -> Value:
        """An array used as a value is a pointer to its first element (of the next dimension)."""
        if isinstance(v, ArrayView):
            arr = self.arrays[v.array]
            return Ptr(v.array, v.index, None, DTYPES[arr.dtype] * self._row_elems(arr, len(v.index)))
        return v


_BITWISE_PREC = {BINARY_PREC[o] for o in ("|", "^", "&", "<<")}


def _literal(i: Int) -> bool:
    return i.text.strip("()").lstrip("-").isdigit()


def _operand(i: Int, p: int, min_prec: int) -> str:
    """An operand's text, parenthesized where C needs it, and also where bitwise and arithmetic
    operators meet (``x ^ (y + k)``), so nobody has to remember that ``+`` binds tighter."""
    if i.prec < PREC_UNARY and i.prec != p and (p in _BITWISE_PREC or i.prec in _BITWISE_PREC):
        return f"({i.text})"
    return i.wrapped(min_prec)


def _compare(op: str, a, b):
    """``a op b`` for Python integers (no overflow) or numpy arrays alike."""
    return {"<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge, "!=": operator.ne}[op](a, b)


def _arith(values: Sequence[int]) -> tuple[int, int, int] | None:
    """(start, stop, step) when the values are an evenly spaced range, else None."""
    if isinstance(values, range):
        return values.start, values.stop, values.step
    if len(values) == 1:
        return values[0], values[0] + 1, 1
    step = values[1] - values[0]
    if step == 0 or any(b - a != step for a, b in zip(values, values[1:])):
        return None
    return values[0], values[-1] + step, step


def _strides(arr: _Array) -> tuple[int, ...]:
    sizes = list(arr.dims)
    sizes[-1] += arr.padding if len(sizes) > 1 else 0
    st = [1]
    for d in reversed(sizes[1:]):
        st.insert(0, st[0] * d)
    return tuple(st)
