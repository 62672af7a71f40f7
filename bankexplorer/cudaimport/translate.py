"""Walk a CUDA syntax tree and write down the shared-memory accesses it makes, as a Pattern.

Nothing in the text is run: the walker reads the tree and keeps, for every integer it can follow,
an expression in the model's language (``threadIdx.y + j``). Loops with constant bounds become
``Loop``s (one instruction per iteration), ``if`` conditions on the thread become the active
lanes, and every construct it does not model is reported with its line and column while the rest
is imported. A loop whose body changes a variable declared before it is unrolled instead, so the
variable has a known value in each iteration.
"""

from __future__ import annotations

import operator
import re
from dataclasses import dataclass, field, replace
from typing import Sequence

import numpy as np
import tree_sitter as ts

from ..model import expr as E
from ..model.errors import BankExplorerError
from ..model.hardware import NVIDIA_SM70_SM90, Hardware
from ..model.layout import DTYPES, MAX_DIMS, SharedArray
from ..model.pattern import MAX_LOOP_ITERATIONS, MAX_REPEAT, MAX_THREADS, RESERVED_NAMES, Instruction, Loop, Pattern
from . import types as T
from .result import Diagnostic, ImportResult, SourceSpan
from .preprocess import preprocess
from .syntax import MAX_SOURCE_BYTES, Source, comments, field as fld, named_children, parse, syntax_errors
from .values import (
    BINARY_PREC, DATA, PREC_ATOM, PREC_TERNARY, PREC_UNARY, ArrayView, Binding, Data, Dim3, Int, Ptr, Ref,
    TypeName, Unknown, Value,
)

DEFAULT_EXTERN_BYTES = 48 * 1024  # the default dynamic shared-memory limit per block
MAX_UNROLL = 1024  # iterations the importer writes out one by one
MAX_STEPS = 200_000  # statements it walks in all (unrolled loops multiply them)
MAX_INSTRUCTIONS = 4096  # instructions it writes
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


@dataclass
class ImportOptions:
    block: tuple[int, int, int] | None = None  # None: from a launch in the text, else 32x1x1
    defines: dict[str, int] = field(default_factory=dict)  # like nvcc -D NAME=VALUE
    extern_bytes: int | None = None  # size of extern __shared__ arrays; None: from a launch, else 48 KiB
    name: str = "Imported CUDA"
    hardware: Hardware = NVIDIA_SM70_SM90
    include_dirs: list[str] = field(default_factory=list)  # for #include "x.h" (the file's folder is searched too)
    path: str | None = None  # the file the text came from, if any


def parse_block(text: str) -> tuple[int, int, int]:
    """``32,8`` / ``32x8x1`` / ``256`` -> (x, y, z); ValueError with a message people can act on."""
    parts = [p for p in text.lower().replace("x", ",").replace(" ", "").split(",") if p]
    try:
        dims = [int(p) for p in parts]
    except ValueError:
        dims = []
    if not 1 <= len(dims) <= 3 or min(dims) < 1:
        raise ValueError(f"block {text!r}: write 1 to 3 positive sizes, e.g. 32,8")
    if int(np.prod(dims)) > MAX_THREADS:
        raise ValueError(f"block {text!r}: {int(np.prod(dims)):,} threads is more than a block can have "
                         f"({MAX_THREADS})")
    return tuple(dims + [1] * (3 - len(dims)))  # type: ignore[return-value]


@dataclass
class _Array:
    name: str
    dtype: str
    dims: tuple[int, ...]
    padding: int
    extern: bool
    node: ts.Node


@dataclass
class _LoopFrame:
    var: str  # name in the pattern
    depth: int  # scope depth of the loop's own scope


class Translator:
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

    def lookup(self, name: str) -> Binding | None:
        for scope in reversed(self.scopes):
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
        for scope in reversed(self.scopes):
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

    @staticmethod
    def _row_elems(arr: _Array, given: int) -> int:
        """Elements in one step of the next dimension (1 when all but the last index are given)."""
        if given >= arr.dims.__len__() - 1:
            return 1
        strides = _strides(arr)
        return strides[given]

    def _index_of(self, ref: Ref, node: ts.Node) -> tuple[_Array, list[Int], int | None]:
        p = ref.ptr
        arr = self.arrays[p.array]
        es = DTYPES[arr.dtype]
        if ref.component:
            if ref.component % es:
                raise Unsupported(node, f"this accesses bytes {ref.component}..{ref.component + p.size - 1} inside one "
                                        f"{es}-byte {arr.dtype} element of {arr.name!r}: the model addresses whole "
                                        f"elements, so only .x (or the whole vector) can be imported")
            step = Int.of(ref.component // es)  # ->y of a float4* into a float array: the next element
            p = replace(p, extra=step if p.extra is None else self.add(p.extra, step))
        if not p.size:
            raise Unsupported(node, f"a pointer to a type narrower than the {es}-byte elements of {arr.name!r} "
                                    f"({arr.dtype}) is moved by its own elements: the model addresses whole elements")
        if p.size < es and es % p.size == 0:
            pass  # .x of a vector element (or a narrower cast of it): its first bytes
        elif p.size % es:
            raise Unsupported(node, f"a {p.size}-byte access into {arr.dtype} array {arr.name!r} "
                                    f"({es}-byte elements) is not modelled")
        idx = list(p.index)
        nd = len(arr.dims)
        self._flat = None
        if len(idx) == nd:
            if p.extra is not None:
                if nd > 1 and p.extra.const != 0:
                    self._flat = self._flat_index(arr, idx, p.extra)
                idx[-1] = self.add(idx[-1], p.extra)
        else:
            extra = p.extra if p.extra is not None else Int.of(0)
            strides = _strides(arr)
            for d in range(len(idx), nd):
                part = self.binop("/", extra, Int.of(strides[d])) if strides[d] != 1 else extra
                if d > len(idx):
                    span = strides[d - 1] // strides[d]
                    part = self.binop("%", part, Int.of(span))
                idx.append(part)
        width = p.size if p.size != es else None
        return arr, idx, width

    def _flat_index(self, arr: _Array, idx: list[Int], extra: Int) -> tuple[str, ...]:
        """``&s[i][j] + off`` where ``off`` may run past the end of the row (C allows it: the array
        is one block of memory): the element's index from the flat offset, dimension by dimension.
        Used only when the simple form (``s[i][j + off]``) is out of bounds."""
        strides = _strides(arr)
        flat = extra
        for d in reversed(range(len(idx))):
            term = idx[d] if strides[d] == 1 else self.mul(idx[d], strides[d])
            flat = self.add(term, flat)
        out = []
        for d in range(len(idx)):
            part = flat if strides[d] == 1 else self.binop("/", flat, Int.of(strides[d]))
            if d:
                part = self.binop("%", part, Int.of(strides[d - 1] // strides[d]))
            out.append(part.text)
        return tuple(out)

    def emit(self, kind: str, ref: Ref, node: ts.Node, width_override: int | None = None, op: str = "add") -> None:
        try:
            arr, idx, width = self._index_of(ref, node)
        except Unsupported as e:
            self.report(e.node, e.message, e.severity)
            return
        if width_override is not None:
            width = width_override
        active = " && ".join(c.wrapped(BINARY_PREC["&&"] + 1) for c in self.active)
        code = " ".join(self.text(node).split())
        if len(code) > 48:
            code = code[:47] + "…"
        line, col = self.src.position(node)
        eline, ecol = self.src.position(node, end=True)
        label = f"L{line} {kind}{f' {width}B' if width else ''} {code}"
        if self.unrolled:
            label += " (" + ", ".join(f"{n}={v}" for n, v in self.unrolled) + ")"
        if len(self.instrs) >= MAX_INSTRUCTIONS:
            raise _TooLong(node, f"the snippet makes more than {MAX_INSTRUCTIONS:,} shared-memory instructions "
                                 f"(unrolled loops?): import stopped here")
        if self._flat is not None:
            self.flat_forms[len(self.instrs)] = self._flat
        self.instrs.append(Instruction(kind=kind, width=width, array=arr.name, index=tuple(i.text for i in idx),
                                       loops=tuple(self.loops), active=active, label=label, op=op))
        self.spans.append(SourceSpan(line, col, eline, ecol, self.text(node)))

    def rv(self, node: ts.Node) -> Value:
        """The value of ``node`` read as an rvalue: reading a shared location is a load."""
        v = self.ev(node)
        if isinstance(v, Ref):
            self.emit("load", v, node)
            return DATA
        return self.decay(v)

    # ---- expressions -------------------------------------------------------------------------
    def ev(self, node: ts.Node | None) -> Value:
        if node is None:  # a part the parser left out (broken or GNU syntax such as ``a ?: b``)
            return DATA
        t = node.type
        meth = getattr(self, "ev_" + t, None)
        if meth is not None:
            return meth(node)
        if t in ("true",):
            return Int.of(1)
        if t in ("false", "null", "nullptr"):
            return Int.of(0)
        if t in ("string_literal", "char_literal", "concatenated_string", "raw_string_literal", "this"):
            return DATA
        # anything else (initializer lists, lambdas, new, ...): look inside for shared accesses
        for c in named_children(node):
            if c.is_named and c.type not in ("type_descriptor", "primitive_type", "type_identifier"):
                self.rv(c)
        return DATA

    def ev_number_literal(self, node: ts.Node) -> Value:
        s = self.text(node).replace("'", "")
        low = s.lower()
        try:
            if low.startswith(("0x", "0b")):
                v = int(low.rstrip("ul"), 0)
            elif any(ch in low for ch in ".ef") or low.endswith("h"):
                return DATA  # floating point
            else:
                digits = low.rstrip("ul")
                v = int(digits, 8) if len(digits) > 1 and digits.startswith("0") else int(digits)
        except ValueError:
            return DATA
        return Int.of(v)

    def ev_identifier(self, node: ts.Node) -> Value:
        name = self.text(node)
        b = self.lookup(name)
        if b is not None:
            return b.value
        if name == "warpSize":
            return Int("warpSize", PREC_ATOM, self.opts.hardware.warp_size)
        if T.size_of(name) is not None:
            return TypeName(name)
        if name in self.macros:
            return Unknown(f"function-like macro {name!r}, which is not expanded")
        return Unknown(f"{name!r}, which has no value here (a kernel parameter? give it one: -D {name}=VALUE)")

    def ev_type_identifier(self, node: ts.Node) -> Value:
        return TypeName(self.text(node))

    ev_primitive_type = ev_type_identifier
    ev_sized_type_specifier = ev_type_identifier

    def ev_qualified_identifier(self, node: ts.Node) -> Value:
        return Unknown(f"{self.text(node)!r}, which the importer does not follow")

    def ev_field_expression(self, node: ts.Node) -> Value:
        arg, f = fld(node, "argument"), fld(node, "field")
        op = fld(node, "operator")
        fname = self.text(f) if f is not None else ""
        if arg is not None and arg.type == "identifier" and self.text(arg) in BUILTIN_DIMS and self.lookup(
                self.text(arg)) is None:
            base = self.text(arg)
            if fname not in ("x", "y", "z"):
                return Unknown(f"{base}.{fname}")
            k = "xyz".index(fname)
            if base == "threadIdx":
                return Int(f"threadIdx.{fname}", PREC_ATOM, 0 if self.block[k] == 1 else None)
            if base == "blockDim":
                return Int(f"blockDim.{fname}", PREC_ATOM, self.block[k])
            return Unknown(f"{base}.{fname}: shared memory belongs to one block, so the block's place in the grid "
                           f"does not change its bank conflicts; leave it out of shared-memory indices")
        v = self.ev(arg) if arg is not None else DATA
        arrow = op is not None and self.text(op) == "->"
        if arrow:
            v = self.decay(v)
            v = Ref(v) if isinstance(v, Ptr) else DATA if not isinstance(v, Unknown) else v
        if isinstance(v, Ref) and fname in T.COMPONENTS:
            arr = self.arrays[v.ptr.array]
            n = T.components(arr.dtype) if v.ptr.size == DTYPES[arr.dtype] else max(1, v.ptr.size // DTYPES[arr.dtype])
            if n > 1 and T.COMPONENTS[fname] < n:
                csize = v.ptr.size // n
                return Ref(replace(v.ptr, size=csize), v.component + T.COMPONENTS[fname] * csize)
            return v
        if isinstance(v, Ref):
            self.emit("load", v, arg)
        return DATA

    def ev_parenthesized_expression(self, node: ts.Node) -> Value:
        kids = named_children(node)
        return self.ev(kids[0]) if kids else DATA

    def ev_comma_expression(self, node: ts.Node) -> Value:
        self.rv(fld(node, "left"))
        return self.ev(fld(node, "right"))

    def ev_parameter_pack_expansion(self, node: ts.Node) -> Value:
        p = fld(node, "pattern")
        return self.ev(p) if p is not None else DATA

    def ev_binary_expression(self, node: ts.Node) -> Value:
        try:
            return self._binary(node)
        except _ExprTooLong:
            return _TOO_LONG

    def _binary(self, node: ts.Node) -> Value:
        op = self.text(fld(node, "operator"))
        a = self.rv(fld(node, "left"))
        b = self.rv(fld(node, "right"))
        if op in ("+", "-") and isinstance(a, Ptr) and isinstance(b, Int):
            return self._ptr_add(a, b if op == "+" else self.binop("-", Int.of(0), b))
        if op == "+" and isinstance(b, Ptr) and isinstance(a, Int):
            return self._ptr_add(b, a)
        if isinstance(a, Int) and isinstance(b, Int) and op in BINARY_PREC:
            return self.binop(op, a, b)
        for v in (a, b):
            if isinstance(v, Unknown):
                return v
        return DATA

    def _ptr_add(self, p: Ptr, k: Int) -> Ptr:
        arr = self.arrays[p.array]
        es = DTYPES[arr.dtype]
        if p.size % es:
            return replace(p, extra=None, size=0)  # reported when used
        step = self.mul(k, p.size // es)
        return replace(p, extra=step if p.extra is None else self.add(p.extra, step))

    def ev_unary_expression(self, node: ts.Node) -> Value:
        op = self.text(fld(node, "operator"))
        a = self.rv(fld(node, "argument"))
        if not isinstance(a, Int):
            return a if isinstance(a, Unknown) else DATA
        if op == "+":
            return a
        if op == "!":
            return self.negate(a)
        v = None
        if a.const is not None:
            v = -a.const if op == "-" else ~a.const
        return Int(f"{op}{a.wrapped(PREC_UNARY)}", PREC_UNARY, v)

    def ev_pointer_expression(self, node: ts.Node) -> Value:
        op = self.text(fld(node, "operator"))
        arg = fld(node, "argument")
        v = self.ev(arg)
        if op == "&":
            if isinstance(v, Ref):
                if v.component:
                    raise Unsupported(node, "address of a vector component")
                return v.ptr
            if isinstance(v, ArrayView):
                return self.decay(v)
            return v if isinstance(v, Unknown) else DATA
        v = self.decay(v)
        if isinstance(v, Ptr):
            return Ref(v)
        return v if isinstance(v, Unknown) else DATA

    def ev_subscript_expression(self, node: ts.Node) -> Value:
        base = self.ev(fld(node, "argument"))
        idx_nodes = named_children(fld(node, "indices")) if fld(node, "indices") is not None else []
        if len(idx_nodes) != 1:
            for c in idx_nodes:
                self.rv(c)
            return DATA
        inode = idx_nodes[0]
        i = self.rv(inode)
        if isinstance(base, Ref):  # a[i] on an element: operator[] of a struct, not modelled
            self.emit("load", base, fld(node, "argument"))
            return DATA
        base = base if isinstance(base, ArrayView) else self.decay(base)
        if not isinstance(base, (ArrayView, Ptr)):
            return base if isinstance(base, Unknown) and isinstance(i, Int) else DATA
        try:
            k = self.as_int(i, inode)
        except Unsupported as e:
            name = base.array
            self.report(e.node, f"access to shared array {name!r} not imported: {e.message}")
            return DATA
        if isinstance(base, ArrayView):
            arr = self.arrays[base.array]
            if len(base.index) + 1 < len(arr.dims):
                return ArrayView(base.array, base.index + (k,))
            return Ref(Ptr(base.array, base.index + (k,), None, DTYPES[arr.dtype]))
        return Ref(self._ptr_add(base, k))

    def ev_conditional_expression(self, node: ts.Node) -> Value:
        c = self.rv(fld(node, "condition"))
        cons, alt = fld(node, "consequence"), fld(node, "alternative")
        if isinstance(c, Int):
            self.active.append(c)
            a = self.rv(cons)
            self.active[-1] = self.negate(c)
            b = self.rv(alt)
            self.active.pop()
        else:
            a, b = self.rv(cons), self.rv(alt)
        if isinstance(c, Int) and isinstance(a, Int) and isinstance(b, Int):
            v = None if c.const is None else (a.const if c.const else b.const)
            text = f"{c.wrapped(PREC_TERNARY + 1)} ? {a.wrapped(PREC_TERNARY)} : {b.wrapped(PREC_TERNARY)}"
            return Int(text, PREC_TERNARY, v) if len(text) <= MAX_EXPR_CHARS else _TOO_LONG
        for v in (c, a, b):
            if isinstance(v, Unknown):
                return v
        return DATA

    def _retype(self, v: Value, tnode: ts.Node | None) -> Value:
        """A cast: pointers take the size of the new pointee; integer casts keep the integer."""
        ttext = self.text(tnode) if tnode is not None else ""
        is_ptr = "*" in ttext
        base = T.normalize(ttext)
        if is_ptr:
            v = self.decay(v)
            if isinstance(v, Ptr):
                size = T.size_of(base)
                if base == "void" or size is None:
                    return v if base == "void" else replace(v, size=0)
                return replace(v, size=size)
            return v if isinstance(v, Unknown) else DATA
        if isinstance(v, Ref):
            return v  # the caller decides (rvalue: load)
        v = self.decay(v)
        if base in T.INTEGER_TYPES and isinstance(v, (Int, Unknown)):
            return v
        return v if isinstance(v, Unknown) else DATA

    def ev_cast_expression(self, node: ts.Node) -> Value:
        v = self.ev(fld(node, "value"))
        tnode = fld(node, "type")
        if isinstance(v, Ref) and "*" not in self.text(tnode):
            self.emit("load", v, fld(node, "value"))
            v = DATA
        return self._retype(v, tnode)

    def ev_sizeof_expression(self, node: ts.Node) -> Value:
        tnode = fld(node, "type")
        if tnode is not None:
            s = T.size_of(self.text(tnode))
            return Int.of(s) if s else Unknown(f"sizeof({self.text(tnode)})")
        vnode = fld(node, "value")
        v = self.ev(vnode) if vnode is not None else DATA
        if isinstance(v, TypeName) and T.size_of(v.name):
            return Int.of(T.size_of(v.name))
        if isinstance(v, Ref):
            return Int.of(v.ptr.size)
        if isinstance(v, ArrayView):
            arr = self.arrays[v.array]
            return Int.of(DTYPES[arr.dtype] * int(np.prod(arr.dims[len(v.index):])))
        return Unknown(f"{self.text(node)!r}")

    def _func_name(self, fn: ts.Node) -> tuple[str, ts.Node | None]:
        """Name of a called function, and the type argument of a template call (casts)."""
        if fn.type == "template_function":
            args = fld(fn, "arguments")
            targ = named_children(args)[0] if args is not None and named_children(args) else None
            return self.text(fld(fn, "name")), targ
        if fn.type == "qualified_identifier":
            return self.text(fn).split("::")[-1].strip(), None
        return self.text(fn), None

    def ev_call_expression(self, node: ts.Node) -> Value:
        fn = fld(node, "function")
        args_node = fld(node, "arguments")
        args = named_children(args_node) if args_node is not None else []
        launch = next((c for c in node.children if c.type == "kernel_call_syntax"), None)
        if launch is not None:
            self._launch(launch)
            for a in args:
                self.rv(a)
            return DATA
        name, targ = self._func_name(fn) if fn is not None else ("", None)
        if name in CASTS and len(args) == 1:
            v = self.ev(args[0])
            if isinstance(v, Ref) and (targ is None or "*" not in self.text(targ)):
                self.emit("load", v, args[0])
                v = DATA
            return self._retype(v, targ)
        if name == "dim3" or self.text(fn) == "dim3":
            dims = [self.const_int(self.rv(a), a, "a block dimension") for a in args[:3]]
            return Dim3(tuple(dims + [1] * (3 - len(dims))))  # type: ignore[arg-type]
        base = name.split("_block")[0].split("_system")[0]
        if base in ATOMICS and args:
            vals = [self.rv(a) for a in args[1:]]
            del vals
            p = self.decay(self.ev(args[0]))
            if isinstance(p, Ptr):
                self.emit("atomic", Ref(p), args[0], op=ATOMIC_OPS[base])
            return DATA
        if name in INT_FUNCS or name in ("__mul24", "__umul24"):
            vals = [self.rv(a) for a in args]
            if all(isinstance(v, Int) for v in vals):
                if name in ("__mul24", "__umul24") and len(vals) == 2:
                    return self.binop("*", vals[0], vals[1])
                fn_name = INT_FUNCS[name]
                if len(vals) == E.FUNCTIONS[fn_name]:
                    consts = [v.const for v in vals]
                    text = f"{fn_name}({', '.join(v.text for v in vals)})"
                    c = self._fold(f"{fn_name}({', '.join(map(str, consts))})") if None not in consts else None
                    return Int(text, PREC_ATOM, c)
            for v in vals:
                if isinstance(v, Unknown):
                    return v
            return DATA
        if name in SYNC:
            return DATA
        shared_args = []
        for a in args:
            v = self.ev(a)
            if isinstance(v, Ref):
                self.emit("load", v, a)
            elif isinstance(v, (Ptr, ArrayView)):
                shared_args.append(a)
        for a in shared_args:
            self.report(a, f"a pointer into shared memory is passed to {name}(): what {name}() does with it "
                           f"is not modelled (write its accesses in the snippet)")
        return Unknown(f"the result of {name}(), which the importer does not follow")

    def ev_assignment_expression(self, node: ts.Node) -> Value:
        op = self.text(fld(node, "operator"))
        left, right = fld(node, "left"), fld(node, "right")
        r = self.rv(right)
        if left.type == "identifier" and not isinstance(self.ev(left), (Ref, ArrayView)):
            name = self.text(left)
            b = self.lookup(name)
            if b is None:
                return r
            new = r
            if op != "=":
                bop = op[:-1]
                old = b.value
                try:
                    new = self._compound(bop, old, r)
                except _ExprTooLong:
                    new = _TOO_LONG
            if isinstance(b.value, Ptr) and isinstance(new, Ptr):
                new = replace(new, size=b.value.size)
            try:
                self.rebind(name, new, node)
            except _ExprTooLong:
                self.rebind(name, _TOO_LONG, node)
            return new
        lv = self.ev(left)
        if isinstance(lv, Ref):
            if op != "=":
                self.emit("load", lv, left)
            self.emit("store", lv, left)
            return DATA
        return DATA

    def _compound(self, bop: str, old: Value, r: Value) -> Value:
        """``old bop= r`` for a local."""
        if isinstance(old, Int) and isinstance(r, Int) and bop in BINARY_PREC:
            return self.binop(bop, old, r)
        if isinstance(old, Unknown):
            return old
        if isinstance(r, Unknown):
            return r
        if isinstance(old, Ptr) and isinstance(r, Int) and bop == "+":
            return self._ptr_add(old, r)
        return DATA

    def ev_update_expression(self, node: ts.Node) -> Value:
        arg = fld(node, "argument")
        op = self.text(fld(node, "operator"))
        v = self.ev(arg)
        if isinstance(v, Ref):
            self.emit("load", v, arg)
            self.emit("store", v, arg)
            return DATA
        if arg.type == "identifier" and self.lookup(self.text(arg)) is not None:
            one = Int.of(1)
            v = self.decay(v)
            if isinstance(v, Int):
                try:
                    new: Value = self.binop("+" if op == "++" else "-", v, one)
                except _ExprTooLong:
                    new = _TOO_LONG
            elif isinstance(v, Ptr):
                new = self._ptr_add(v, one if op == "++" else Int.of(-1))
            else:
                new = v if isinstance(v, Unknown) else DATA
            self.rebind(self.text(arg), new, node)
        return DATA

    # ---- launches ----------------------------------------------------------------------------
    def _launch(self, node: ts.Node) -> None:
        args = named_children(node)
        block = smem = None
        line = self.src.position(node)[0]
        if len(args) >= 2:
            try:
                v = self.rv(args[1])
                if isinstance(v, Dim3):
                    block = v.dims
                else:
                    block = (self.const_int(v, args[1], "the launch's block size"), 1, 1)
            except Unsupported as e:
                self.report(e.node, f"block size of the launch not understood: {e.message}", "note")
        if len(args) >= 3:
            try:
                smem = self.const_int(self.rv(args[2]), args[2], "the launch's shared-memory size")
            except Unsupported as e:
                self.report(e.node, f"dynamic shared-memory size not understood: {e.message}", "note")
        self.launches.append((block, smem, line))

    # ---- statements --------------------------------------------------------------------------
    def run(self, root: ts.Node) -> None:
        self.statements(named_children(root), new_scope=False)

    def statements(self, nodes: list[ts.Node], new_scope: bool = True) -> None:
        if new_scope:
            self.scopes.append({})
        pushed = 0
        try:
            for n in nodes:
                cond = self._exit_condition(n)
                if cond is not None:
                    if (self.frames or self.unrolled) and cond.const is None and self._returns(n):
                        self.report(n, "a return inside a loop ends the rest of this loop body for those lanes; "
                                       "after the loop they are counted as active again", "note")
                    self.active.append(self.negate(cond))
                    pushed += 1
                    continue
                self.statement(n)
        finally:
            for _ in range(pushed):
                self.active.pop()
            if new_scope:
                self.scopes.pop()

    @staticmethod
    def _returns(n: ts.Node) -> bool:
        cons = n.child_by_field_name("consequence")
        body = named_children(cons) if cons.type == "compound_statement" else [cons]
        return bool(body) and body[0].type == "return_statement"

    def _exit_condition(self, n: ts.Node) -> Int | None:
        """``if (cond) return;`` (or ``continue;`` in a loop): the rest runs where !cond."""
        if n.type != "if_statement" or fld(n, "alternative") is not None:
            return None
        cons = fld(n, "consequence")
        body = named_children(cons) if cons.type == "compound_statement" else [cons]
        if len(body) != 1 or body[0].type not in ("return_statement", "continue_statement"):
            return None
        if body[0].type == "return_statement" and named_children(body[0]):
            return None
        cond_node = fld(fld(n, "condition"), "value") or fld(n, "condition")
        try:
            c = self.as_int(self.rv(cond_node), cond_node, "the condition")
        except Unsupported as e:
            self.report(e.node, f"{e.message}; the code after it is imported with every lane active")
            return Int.of(0)
        return c

    def statement(self, n: ts.Node) -> None:
        self.steps += 1
        if self.steps > MAX_STEPS:
            raise _TooLong(n, f"the snippet takes more than {MAX_STEPS:,} statements to walk (unrolled loops?): "
                              f"import stopped here")
        try:
            meth = getattr(self, "st_" + n.type, None)
            if meth is not None:
                meth(n)
            elif n.type in IGNORED_STATEMENTS:
                pass
            elif n.type in UNSUPPORTED_STATEMENTS:
                self.report(n, f"{UNSUPPORTED_STATEMENTS[n.type]} is not modelled: its shared-memory accesses "
                               f"were not imported")
            elif n.type.endswith("_expression") or n.type in ("identifier", "number_literal"):
                self.rv(n)
            else:
                self.report(n, f"{n.type.replace('_', ' ')} not understood: skipped")
        except Unsupported as e:
            self.report(e.node if e.node is not None else n, e.message, e.severity)
        except _ExprTooLong:
            self.report(n, _TOO_LONG.why[0].upper() + _TOO_LONG.why[1:] + ": statement skipped")
        except (AttributeError, TypeError, ValueError, KeyError, IndexError, ZeroDivisionError) as e:
            # a shape of syntax tree the walker does not expect (broken code): skip this statement,
            # say so, and import the rest rather than fail the whole text
            self.report(n, f"this statement could not be followed ({type(e).__name__}: {e}): skipped")

    def st_compound_statement(self, n: ts.Node) -> None:
        self.statements(named_children(n))

    def st_declaration_list(self, n: ts.Node) -> None:
        self.statements(named_children(n), new_scope=False)

    def st_translation_unit(self, n: ts.Node) -> None:
        self.statements(named_children(n), new_scope=False)

    def st_expression_statement(self, n: ts.Node) -> None:
        for c in named_children(n):
            self.rv(c)

    def st_return_statement(self, n: ts.Node) -> None:
        for c in named_children(n):
            self.rv(c)

    def st_namespace_definition(self, n: ts.Node) -> None:
        body = fld(n, "body")
        if body is not None:
            self.statements(named_children(body), new_scope=False)

    st_linkage_specification = st_namespace_definition

    def st_preproc_ifdef(self, n: ts.Node) -> None:
        kids = [c for c in named_children(n) if c != fld(n, "name") and c.type not in ("preproc_else", "preproc_elif")]
        self.statements(kids, new_scope=False)

    def st_preproc_if(self, n: ts.Node) -> None:
        kids = [c for c in named_children(n) if c != fld(n, "condition") and c.type not in ("preproc_else", "preproc_elif")]
        self.statements(kids, new_scope=False)

    def st_preproc_def(self, n: ts.Node) -> None:
        name = self.text(fld(n, "name"))
        vnode = fld(n, "value")
        if vnode is None:
            return
        text = self.text(vnode).strip()
        try:
            e = E.parse(text)
        except BankExplorerError:
            self.bind(name, Unknown(f"macro {name!r} ({text!r}), which is not an integer expression"))
            return
        known = {k for k in ("threadIdx.x", "threadIdx.y", "threadIdx.z", "blockDim.x", "blockDim.y",
                             "blockDim.z", "warpSize")}
        values: dict[str, Int] = {}
        for nm in e.names:
            b = self.lookup(nm)
            if b is not None and isinstance(b.value, Int):
                values[nm] = b.value
            elif nm not in known:
                self.bind(name, Unknown(f"macro {name!r}, which uses {nm!r} (not an integer the importer knows)"))
                return
        if all(v.const is not None for v in values.values()) and not (e.names & known):
            c = self._fold_with(e, {k: v.const for k, v in values.items()})
            if c is not None:
                self._bind_const(name, c)
                return
        if any(values[k].text != k for k in values):
            self.bind(name, Unknown(f"macro {name!r}, which uses local variables"))
            return
        self.bind(name, Int(f"({text})", PREC_ATOM, None), is_const=True)

    @staticmethod
    def _fold_with(e: E.Expr, values: dict[str, int]) -> int | None:
        try:
            return int(e.evaluate({k: np.int64(v) for k, v in values.items()}))
        except BankExplorerError:
            return None

    def st_preproc_function_def(self, n: ts.Node) -> None:
        self.macros.add(self.text(fld(n, "name")))

    def st_template_declaration(self, n: ts.Node) -> None:
        self.scopes.append({})
        params = fld(n, "parameters")
        for p in named_children(params) if params is not None else []:
            d = fld(p, "declarator")
            if d is not None and d.type == "identifier":
                nm = self.text(d)
                if nm not in self.opts.defines:
                    self.bind(nm, Unknown(f"template parameter {nm!r}, which has no value here "
                                          f"(give it one: -D {nm}=VALUE)"))
        for c in named_children(n):
            if c.type in ("function_definition", "declaration", "template_declaration", "struct_specifier",
                          "class_specifier"):
                self.statement(c)
        self.scopes.pop()

    def st_function_definition(self, n: ts.Node) -> None:
        decl = fld(n, "declarator")
        while decl is not None and decl.type != "function_declarator" and fld(decl, "declarator") is not None:
            decl = fld(decl, "declarator")
        fname = self.text(fld(decl, "declarator")) if decl is not None and fld(decl, "declarator") else "?"
        for c in n.children:
            if c.type == "launch_bounds":
                nums = named_children(c)
                if nums:
                    try:
                        lb = self.const_int(self.rv(nums[0]), nums[0], "__launch_bounds__")
                        self.launch_bounds = (lb, self.src.position(c)[0])
                    except Unsupported:
                        pass
        self.scopes.append({})
        params = fld(decl, "parameters") if decl is not None else None
        for p in named_children(params) if params is not None else []:
            d = fld(p, "declarator")
            while d is not None and d.type != "identifier":
                d = fld(d, "declarator") if fld(d, "declarator") is not None else (
                    named_children(d)[-1] if named_children(d) else None)
            if d is not None and d.type == "identifier":
                nm = self.text(d)
                if nm not in self.opts.defines:
                    self.bind(nm, Unknown(f"{nm!r}, a parameter of {fname}() whose value is not known here "
                                          f"(give it one: -D {nm}=VALUE)"))
        body = fld(n, "body")
        if body is not None:
            self.statements(named_children(body))
        self.scopes.pop()

    # declarations -------------------------------------------------------------------------------
    def st_declaration(self, n: ts.Node) -> None:
        quals = {self.text(c) for c in n.children if c.type in ("type_qualifier", "storage_class_specifier")}
        tnode = fld(n, "type")
        ttext = self.text(tnode) if tnode is not None else "int"
        for d in n.children_by_field_name("declarator"):
            try:
                if "__shared__" in quals:
                    self.shared_array(d, tnode, ttext, "extern" in quals)
                else:
                    self.local(d, ttext, bool(quals & {"const", "constexpr"}))
            except Unsupported as e:
                self.report(e.node if e.node is not None else d, e.message, e.severity)

    def shared_array(self, d: ts.Node, tnode: ts.Node | None, ttext: str, extern: bool) -> None:
        dtype = T.dtype_of(ttext)
        if d.type == "init_declarator":
            raise Unsupported(d, "a __shared__ variable cannot have an initializer")
        sizes: list[ts.Node | None] = []
        node = d
        while node.type == "array_declarator":
            sizes.insert(0, fld(node, "size"))
            node = fld(node, "declarator")
        if node.type != "identifier":
            raise Unsupported(node, f"__shared__ declaration {self.text(d)!r} not understood (a pointer?)")
        cname = self.text(node)
        if dtype is None:
            known = ", ".join(sorted(DTYPES))
            raise Unsupported(tnode, f"element type {T.normalize(ttext)!r} of shared array {cname!r} is not known "
                                     f"(known: {known})")
        if len(sizes) > MAX_DIMS:
            raise Unsupported(d, f"shared array {cname!r} has {len(sizes)} dimensions (at most {MAX_DIMS})")
        dims: list[int] = []
        padding = 0
        es = DTYPES[dtype]
        for k, s in enumerate(sizes):
            if s is None:
                dims.append(-1)
                continue
            v = self.const_int(self.rv(s), s, f"size of dimension {k} of {cname!r}")
            if v < 1:
                raise Unsupported(s, f"size of dimension {k} of {cname!r} must be positive, got {v}")
            if k == len(sizes) - 1 and k > 0 and s.type == "binary_expression" and \
                    self.text(fld(s, "operator")) == "+":
                pad_v = self.rv(fld(s, "right"))
                pad = pad_v.const if isinstance(pad_v, Int) and pad_v.const is not None else 0
                if 0 < pad < v:
                    padding = pad  # tile[N][N + 1]: the +1 is padding, shown as such
                    v -= pad
            dims.append(v)
        if not sizes:
            dims = [1]
        if -1 in dims:
            if dims.index(-1) != 0 or dims.count(-1) > 1:
                raise Unsupported(d, f"only the first dimension of {cname!r} can be left out")
            nbytes = self.extern_bytes
            if nbytes is None:
                nbytes = DEFAULT_EXTERN_BYTES
                self.extern_default_used = d
            rest = int(np.prod(dims[1:])) if len(dims) > 1 else 1
            rest = rest // dims[-1] * (dims[-1] + padding) if len(dims) > 1 else rest
            dims[0] = max(1, nbytes // (es * rest))
        name = cname
        k = 2
        while name in self.arrays:
            name, k = f"{cname}_{k}", k + 1
        self.arrays[name] = _Array(name, dtype, tuple(dims), padding, extern, d)
        if sizes:
            self.bind(cname, ArrayView(name))
        else:
            self.bind(cname, Ref(Ptr(name, (Int.of(0),), None, es)))

    def local(self, d: ts.Node, ttext: str, const: bool) -> None:
        tname = T.normalize(ttext)
        value_node = None
        node = d
        if node.type == "init_declarator":
            value_node = fld(node, "value")
            node = fld(node, "declarator")
        kind = "value"
        while node.type in ("pointer_declarator", "reference_declarator", "array_declarator"):
            kind = {"pointer_declarator": "pointer", "reference_declarator": "reference",
                    "array_declarator": "array"}[node.type] if kind == "value" else kind
            inner = fld(node, "declarator")
            node = inner if inner is not None else named_children(node)[-1]
        if node.type != "identifier":
            if node.type == "function_declarator":
                return  # a prototype
            raise Unsupported(d, f"declaration {self.text(d)!r} not understood")
        name = self.text(node)
        if tname == "dim3":
            dims = [1, 1, 1]
            if value_node is not None:
                v = self.rv(value_node) if value_node.type != "argument_list" else None
                if isinstance(v, Dim3):
                    dims = list(v.dims)
                else:
                    args = named_children(value_node) if value_node.type in ("argument_list", "initializer_list") \
                        else [value_node]
                    try:
                        for k, a in enumerate(args[:3]):
                            dims[k] = self.const_int(self.rv(a), a, "a dim3 size")
                    except Unsupported as e:  # a grid size, usually: only a problem if used as the block
                        self.bind(name, Unknown(f"dim3 {name!r}, whose sizes are not all constants "
                                                f"({self._where(e.node)}: {e.message})"))
                        return
            self.bind(name, Dim3(tuple(dims)))  # type: ignore[arg-type]
            return
        if value_node is None:
            self.bind(name, Unknown(f"{name!r}, which is declared without a value") if tname in T.INTEGER_TYPES
                      and kind == "value" else DATA)
            return
        if value_node.type in ("argument_list", "initializer_list"):
            kids = named_children(value_node)
            if kind == "array" or len(kids) != 1:
                for c in kids:
                    self.rv(c)
                self.bind(name, DATA)
                return
            value_node = kids[0]
        if kind == "reference":
            v = self.ev(value_node)
            self.bind(name, v if isinstance(v, Ref) else self.decay(v))
            return
        if kind == "array":
            self.rv(value_node)
            self.bind(name, DATA)
            return
        if kind == "pointer":
            v = self.decay(self.ev(value_node))
            if isinstance(v, Ptr):
                size = T.size_of(tname)
                if size is not None:
                    v = replace(v, size=size)
            self.bind(name, v)
            return
        v = self.rv(value_node)
        if tname in T.INTEGER_TYPES or tname == "" or isinstance(v, Ptr):
            if isinstance(v, Int) and const and v.const is not None and self.depth == 0 or (
                    isinstance(v, Int) and const and v.const is not None and v.text.lstrip("(-").isdigit()):
                self._bind_const(name, v.const) if self.depth == 0 else self.bind(name, Int.of(v.const), True)
                return
            if isinstance(v, Int) or isinstance(v, Ptr):
                self.bind(name, self._builtin_alias(name, v) if isinstance(v, Int) else v, is_const=const)
                return
            if isinstance(v, Unknown):
                self.bind(name, v)
                return
            self.bind(name, Unknown(f"{name!r} (line {self.src.position(node)[0]}), which is computed from data the "
                                    f"importer does not follow"))
            return
        self.bind(name, DATA)

    def _builtin_alias(self, name: str, v: Int) -> Int:
        """``int lane = threadIdx.x % 32`` in a one-dimensional block is the model's own ``lane``
        (likewise ``warp``, ``tid``): keep the short name, so indices read as people wrote them."""
        if self.block[1] * self.block[2] != 1 or self.opts.hardware.warp_size != 32:
            return v
        same = {
            "lane": {"threadIdx.x % 32", "threadIdx.x & 31", "threadIdx.x % warpSize"},
            "laneid": {"threadIdx.x % 32", "threadIdx.x & 31", "threadIdx.x % warpSize"},
            "warp": {"threadIdx.x / 32", "threadIdx.x >> 5", "threadIdx.x / warpSize"},
            "tid": {"threadIdx.x"},
        }
        return Int(name, PREC_ATOM, None) if v.text in same.get(name, ()) else v

    # control flow -------------------------------------------------------------------------------
    def st_if_statement(self, n: ts.Node) -> None:
        cond_node = fld(fld(n, "condition"), "value") or fld(n, "condition")
        cons, alt = fld(n, "consequence"), fld(n, "alternative")
        if alt is not None and alt.type == "else_clause":
            kids = named_children(alt)
            alt = kids[0] if kids else None
        try:
            c = self.as_int(self.rv(cond_node), cond_node, "the condition")
        except Unsupported as e:
            self.report(e.node, f"{e.message}; both branches imported with every lane active")
            self.statement(cons)
            if alt is not None:
                self.statement(alt)
            return
        if c.const is not None:
            taken = cons if c.const else alt
            if taken is not None:
                self.statement(taken)
            return
        self.active.append(c)
        try:
            self.statement(cons)
            if alt is not None:
                self.active[-1] = self.negate(c)
                self.statement(alt)
        finally:
            self.active.pop()

    def st_for_statement(self, n: ts.Node) -> None:
        self.scopes.append({})
        self._loop_start = None
        try:
            self._for(n)
        except Unsupported as e:  # raised before the body was walked: walk it once
            start, self._loop_start = self._loop_start, None
            if start is not None:  # the first iteration: the variable has its start value
                self.report(e.node if e.node is not None else n, f"{e.message}; {ONCE_FIRST}", e.severity)
                self.bind(start[0], start[1])
                self.statement(fld(n, "body"))
                return
            self.report(e.node if e.node is not None else n, f"{e.message}; {ONCE}", e.severity)
            init = fld(n, "initializer")
            names: list[str] = []
            if init is not None and init.type == "declaration":
                for d in init.children_by_field_name("declarator"):
                    d = fld(d, "declarator") if d.type == "init_declarator" else d
                    if d is not None and d.type == "identifier":
                        names.append(self.text(d))
            elif init is not None and init.type == "assignment_expression" and fld(init, "left").type == "identifier":
                names.append(self.text(fld(init, "left")))
            line = self.src.position(n)[0]
            for nm in names:
                self.bind(nm, Unknown(f"{nm!r}, the variable of the loop at line {line}, which is not modelled"))
            self.statement(fld(n, "body"))
        finally:
            self.scopes.pop()

    def st_while_statement(self, n: ts.Node) -> None:
        self._loop_once(n, "a while loop")

    def st_do_statement(self, n: ts.Node) -> None:
        self._loop_once(n, "a do-while loop")

    def _loop_once(self, n: ts.Node, what: str) -> None:
        """A loop with no constant bounds: its accesses are what matters for bank conflicts, so
        its body is imported once (and said so) rather than dropped."""
        self.report(n, f"{what} is not modelled (only for loops with constant bounds are); {ONCE}")
        cond = fld(n, "condition")
        body = fld(n, "body")
        order = [body, cond] if n.type == "do_statement" else [cond, body]
        self.scopes.append({})
        try:
            for part in order:
                if part is None:
                    continue
                if part is cond:
                    value = fld(cond, "value") if cond.type == "condition_clause" else cond
                    for c in [value] if value is not None else named_children(cond):
                        self.statement(c) if c.type.endswith("statement") else self._quiet_rv(c)
                else:
                    self.statement(part)
        finally:
            self.scopes.pop()

    def _quiet_rv(self, node: ts.Node) -> None:
        """Evaluate for its shared-memory accesses only (a loop condition nobody models)."""
        try:
            self.rv(node)
        except Unsupported:
            pass

    def _for(self, n: ts.Node) -> None:
        init, cond, upd, body = fld(n, "initializer"), fld(n, "condition"), fld(n, "update"), fld(n, "body")
        var, start = self._loop_init(n, init)
        self._loop_start = (var, start)  # what the body sees if the rest of the header is not modelled
        stop_op, stop, _flipped = self._loop_cond(n, cond, var)
        upd_op, step = self._loop_update(n, upd, var)
        if start.const is not None:
            trips = self._trips(n, start.const, stop_op, stop, upd_op, step)
            self._run_loop(n, var, body, trips, None)
            return
        # start depends on the thread (for (i = tid; i < N; i += blockDim.x)): count the most
        # iterations any thread makes; lanes past their own end are inactive
        if upd_op not in ("+", "-"):
            raise Unsupported(upd, "a loop whose start depends on the thread must step by a constant (k += STEP)")
        s = step if upd_op == "+" else -step
        if s == 0:
            raise Unsupported(upd, "loop step is 0: the loop never ends")
        if not ((s > 0 and stop_op in ("<", "<=")) or (s < 0 and stop_op in (">", ">="))):
            raise Unsupported(cond, f"loop condition {self.text(cond)!r} with a start that depends on the thread: "
                                    f"write k < STOP (counting up) or k > STOP (counting down)")
        starts = self._per_thread(start, n)
        inclusive = 1 if stop_op in ("<=", ">=") else 0
        span = (stop - starts) if s > 0 else (starts - stop)
        counts = np.maximum(0, (span + inclusive + abs(s) - 1) // abs(s))
        count = int(counts.max(initial=0))
        if count > MAX_LOOP_ITERATIONS:
            raise Unsupported(n, f"loop of up to {count:,} iterations per thread whose start depends on the thread: "
                                 f"at most {MAX_LOOP_ITERATIONS:,} can be modelled")
        it = self._loop_var_name(var + "_it")
        self._run_loop(n, var, body, range(count), (it, start, s, stop_op, stop))

    def _per_thread(self, v: Int, node: ts.Node) -> np.ndarray:
        from ..model.analysis import thread_variables

        p = Pattern(block=self.block, constants=tuple(self.consts.items()), hardware=self.opts.hardware)
        try:
            out = E.parse(v.text).evaluate(thread_variables(p), (p.warps * p.hardware.warp_size,))
        except BankExplorerError as e:
            raise Unsupported(node, f"loop start not understood: {e.message}")
        return np.asarray(out, dtype=np.int64)[: p.threads]

    def _loop_init(self, n: ts.Node, init: ts.Node | None) -> tuple[str, Int]:
        if init is None:
            raise Unsupported(n, "for loop without an initializer is not modelled")
        if init.type == "declaration":
            ds = init.children_by_field_name("declarator")
            if len(ds) == 1 and ds[0].type == "init_declarator" and fld(ds[0], "declarator").type == "identifier":
                name = self.text(fld(ds[0], "declarator"))
                return name, self.as_int(self.rv(fld(ds[0], "value")), fld(ds[0], "value"), "the loop start")
        if init.type == "assignment_expression" and fld(init, "left").type == "identifier" and \
                self.text(fld(init, "operator")) == "=":
            return self.text(fld(init, "left")), self.as_int(self.rv(fld(init, "right")), fld(init, "right"),
                                                             "the loop start")
        raise Unsupported(init, f"loop initializer {self.text(init)!r} not understood (write: int k = START)")

    def _loop_cond(self, n: ts.Node, cond: ts.Node | None, var: str) -> tuple[str, int, bool]:
        if cond is None or cond.type != "binary_expression":
            raise Unsupported(cond or n, "loop condition not understood (write: k < STOP with a constant STOP)")
        op = self.text(fld(cond, "operator"))
        left, right = fld(cond, "left"), fld(cond, "right")
        flip = {"<": ">", ">": "<", "<=": ">=", ">=": "<=", "!=": "!="}
        if op not in flip:
            raise Unsupported(cond, f"loop condition {self.text(cond)!r} not understood")
        if left.type == "identifier" and self.text(left) == var:
            bound, flipped = right, False
        elif right.type == "identifier" and self.text(right) == var:
            bound, flipped, op = left, True, flip[op]
        else:
            raise Unsupported(cond, f"loop condition {self.text(cond)!r} does not compare {var!r} with a bound")
        stop = self.const_int(self.rv(bound), bound, "the loop bound")
        return op, stop, flipped

    def _loop_update(self, n: ts.Node, upd: ts.Node | None, var: str) -> tuple[str, int]:
        if upd is None:
            raise Unsupported(n, "for loop without an update is not modelled")
        if upd.type == "update_expression" and self.text(fld(upd, "argument")) == var:
            return ("+" if self.text(fld(upd, "operator")) == "++" else "-"), 1
        if upd.type == "assignment_expression" and self.text(fld(upd, "left")) == var:
            op = self.text(fld(upd, "operator"))
            right = fld(upd, "right")
            if op == "=" and right.type == "binary_expression" and self.text(fld(right, "left")) == var:
                op = self.text(fld(right, "operator")) + "="
                right = fld(right, "right")
            if op in ("+=", "-=", "*=", "/=", "<<=", ">>="):
                return op[:-1], self.const_int(self.rv(right), right, "the loop step")
        raise Unsupported(upd, f"loop update {self.text(upd)!r} not understood (write: k += STEP)")

    def _trips(self, n: ts.Node, start: int, cop: str, stop: int, uop: str, step: int) -> Sequence[int]:
        """The values the loop variable takes, worked out from the bounds (nothing is run): a
        ``range`` for k += STEP loops, a short list for k *= / <<= / /= / >>= loops."""
        if uop in ("+", "-"):
            d = step if uop == "+" else -step
            if not _compare(cop, start, stop):
                return range(0)
            if d == 0:
                raise Unsupported(n, "loop never ends (its variable does not change)")
            if cop == "!=":
                if (stop - start) % d or (stop - start) // d < 0:
                    raise Unsupported(n, f"loop never reaches {stop} (write k < STOP)")
                count = (stop - start) // d
            elif (d > 0) != (cop in ("<", "<=")):
                raise Unsupported(n, "loop never ends (its variable moves away from the bound)")
            else:
                inclusive = 1 if cop in ("<=", ">=") else 0
                count = (abs(stop - start) + inclusive + abs(d) - 1) // abs(d)
            if count > MAX_REPEAT:
                raise Unsupported(n, f"loop of {count:,} iterations is too long to model")
            return range(start, start + count * d, d)
        out: list[int] = []
        v = start
        while _compare(cop, v, stop):
            out.append(v)
            if len(out) > MAX_UNROLL:
                raise Unsupported(n, f"loop runs more than {MAX_UNROLL:,} iterations with a step that is not "
                                     f"constant (or forever)")
            if uop == "/":
                if step == 0:
                    raise Unsupported(n, "loop divides by 0")
                nv = abs(v) // abs(step) * (1 if (v >= 0) == (step > 0) else -1)  # C: toward zero
            elif uop in ("<<", ">>"):
                if not 0 <= step < 64:
                    raise Unsupported(n, f"shift by {step} is not defined in C")
                nv = v << step if uop == "<<" else v >> step
            else:
                nv = v * step
            if nv == v or abs(nv) > (1 << 62):
                raise Unsupported(n, "loop never ends (its variable stops changing or overflows)")
            v = nv
        return out

    def _loop_var_name(self, base: str) -> str:
        used = set(self.consts) | {lp.var for lp in self.loops} | RESERVED_NAMES
        name, k = base, 2
        while name in used or not name.isidentifier():
            name, k = f"{base}_{k}", k + 1
        return name

    def _snapshot(self):
        return (len(self.instrs), len(self.spans), len(self.diags), [dict(s) for s in self.scopes],
                dict(self.consts), dict(self.arrays), list(self.launches), set(self.macros))

    def _restore(self, snap) -> None:
        ni, ns, nd, scopes, consts, arrays, launches, macros = snap
        del self.instrs[ni:], self.spans[ns:], self.diags[nd:]
        self.scopes[:] = scopes
        self.consts, self.arrays, self.launches, self.macros = consts, arrays, launches, macros

    def _guard_condition(self, guard: tuple[str, Int, int, str, int], k: Int) -> tuple[Int, Int]:
        """For a loop whose start depends on the thread: the variable's value at iteration ``k``
        and the condition under which a lane still runs it."""
        _it, start, s, op, stop = guard
        if s > 0:
            value = self.add(start, k if s == 1 else self.mul(k, s))
        else:
            value = self.binop("-", start, k if s == -1 else self.mul(k, -s))
        return value, self.binop(op, value, Int.of(stop))

    def _run_loop(self, n: ts.Node, var: str, body: ts.Node, values: Sequence[int],
                  guard: tuple[str, Int, int, str, int] | None) -> None:
        """Import the body once as a Loop when the values are a range and the body changes no
        outer variable; else once per value (unrolled)."""
        if not len(values):
            return
        arith = _arith(values)
        if arith is not None:
            snap = self._snapshot()
            pv = guard[0] if guard else self._loop_var_name(var)
            lp = Loop(pv, *arith)
            symbol = Int(pv, PREC_ATOM, None)
            cond = None
            if guard:
                value, cond = self._guard_condition(guard, symbol)
            else:
                value = symbol
            self.bind(var, value)
            self.loop_vars.append(self.scopes[-1][var])
            self.loops.append(lp)
            self.frames.append(_LoopFrame(pv, self.depth))
            if cond is not None:
                self.active.append(cond)
            first = len(self.instrs)
            try:
                self.statement(body)
            except _NeedsUnroll:
                self._restore(snap)
                first = -1
            finally:
                self.loops.pop()
                self.frames.pop()
                self.loop_vars.pop()
                if cond is not None:
                    self.active.pop()
            if first >= 0:
                self._fold_long_loop(lp, first)
                return
        if len(values) > MAX_UNROLL:
            self.report(n, f"this loop must be unrolled (its body changes a variable declared before it, or its "
                           f"steps are not evenly spaced) but has {len(values):,} iterations (at most {MAX_UNROLL:,}): "
                           f"not imported")
            return
        for v in values:
            cond = None
            if guard:
                value, cond = self._guard_condition(guard, Int.of(v))
                self.active.append(cond)
            else:
                value = Int.of(v)
            self.bind(var, value)
            self.loop_vars.append(self.scopes[-1][var])
            self.unrolled.append((var, v))
            try:
                self.statement(body)
            finally:
                self.unrolled.pop()
                self.loop_vars.pop()
                if cond is not None:
                    self.active.pop()

    def _fold_long_loop(self, lp: Loop, first: int) -> None:
        """Loops too long for one instruction per iteration, whose variable an access does not
        use, are the same instruction repeated: keep them as ``repeat`` (what the kernel totals
        need). What is still too long is reported when the pattern is checked."""
        for k in range(first, len(self.instrs)):
            ins = self.instrs[k]
            if ins.iterations() <= MAX_LOOP_ITERATIONS or lp not in ins.loops:
                continue
            names: set[str] = set()
            for t in ins.index + ((ins.active,) if ins.active else ()):
                try:
                    names |= E.parse(t).names
                except BankExplorerError:
                    pass
            if lp.var in names:
                continue
            loops = tuple(x for x in ins.loops if x is not lp)
            self.instrs[k] = replace(ins, loops=loops, repeat=min(ins.repeat * len(lp.values()), MAX_REPEAT + 1))


IGNORED_STATEMENTS = {
    "comment", "preproc_call", "preproc_include", "type_definition", "struct_specifier", "class_specifier",
    "enum_specifier", "union_specifier", "alias_declaration", "using_declaration", "static_assert_declaration",
    "empty_statement", "concept_definition", "friend_declaration", "field_declaration", "ERROR",
}
UNSUPPORTED_STATEMENTS = {
    "switch_statement": "a switch statement",
    "goto_statement": "goto",
    "labeled_statement": "a labeled statement",
    "break_statement": "break",
    "continue_statement": "continue (other than 'if (cond) continue;' at the top of a loop body)",
    "for_range_loop": "a range-based for loop",
    "try_statement": "try",
    "co_return_statement": "co_return",
}


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


# ---- the whole import ----------------------------------------------------------------------------
def _translate(src: Source, opts: ImportOptions, block: tuple[int, int, int], extern_bytes: int | None) -> Translator:
    tr = Translator(src, opts, block, extern_bytes)
    try:
        tr.run(src.tree.root_node)
    except _TooLong as e:
        tr.report(e.node, e.message, "error")
    except RecursionError:
        tr.report(None, "the snippet is nested too deeply to follow (expressions or blocks hundreds of levels "
                        "deep): import stopped", "error")
    return tr


def import_cuda(text: str, options: ImportOptions | None = None) -> ImportResult:
    """Build a Pattern from CUDA text. Never raises for problems in the text: they come back as
    diagnostics, and everything that was understood is in the pattern.

    The text is only parsed (tree-sitter) and walked: nothing in it is compiled or run."""
    opts = options or ImportOptions()
    if len(text) > MAX_SOURCE_BYTES or len(text.encode("utf-8", "replace")) > MAX_SOURCE_BYTES:
        return _empty(opts, f"the text is larger than {MAX_SOURCE_BYTES // 1024:,} KiB: paste the part of the kernel "
                            f"that uses shared memory")
    if "\0" in text:
        line = text.count("\n", 0, text.index("\0")) + 1
        return _empty(opts, f"the text contains a NUL character at line {line} (is it a binary file?)", line)
    try:
        return _import(text, opts)
    except RecursionError:
        return _empty(opts, "the snippet is nested too deeply to follow (hundreds of levels)")
    except Exception as e:  # a bug in the importer must not cost the window or the command line
        return _empty(opts, f"the importer failed on this text ({type(e).__name__}: {e}); please report it")


def _empty(opts: ImportOptions, message: str, line: int = 1) -> ImportResult:
    pat = Pattern(name=opts.name, hardware=opts.hardware, block=opts.block or (32, 1, 1))
    return ImportResult(pat, (), (Diagnostic(line, 1, message, "error"),), "given" if opts.block else "default")


def _import(text: str, opts: ImportOptions) -> ImportResult:
    pre = preprocess(text, opts.defines, opts.include_dirs, opts.path)
    src = parse(pre.text)  # line for line the user's text: positions and line numbers stay theirs
    directives = _directives(src)
    ddiags: list[Diagnostic] = []
    first: list[Translator] = []

    def consts() -> dict[str, int]:  # the text's constants, for settings written with them
        if not first:
            first.append(_translate(src, opts, opts.block or (32, 1, 1), opts.extern_bytes))
        return first[0].consts

    given_block, origin = opts.block, "given"
    if given_block is None and "block" in directives:
        given_block = _setting("block", directives["block"], consts, ddiags)  # type: ignore[assignment]
        origin = f"comment at line {directives['block'][1]}"
    given_extern = opts.extern_bytes
    if given_extern is None and "extern-size" in directives:
        ext = _setting("extern-size", directives["extern-size"], consts, ddiags)
        given_extern = ext[0] if ext else None
    block = given_block or (32, 1, 1)
    tr = _translate(src, opts, block, given_extern)
    if given_block is None:
        origin = "default (32x1x1)"
    if given_block is None or given_extern is None:
        lblock = next((b for b, _s, _l in tr.launches if b is not None), None)
        lline = next((ln for b, _s, ln in tr.launches if b is not None), 0)
        smem = next((s for _b, s, _l in tr.launches if s is not None), None)
        new_block = block
        bad_launch = lblock is not None and (min(lblock) < 1 or lblock[0] * lblock[1] * lblock[2] > MAX_THREADS)
        if given_block is None and bad_launch:
            tr.report(None, f"the launch at line {lline} asks for a block of {lblock[0]}x{lblock[1]}x{lblock[2]} "
                            f"threads, which is not a valid block (1 to {MAX_THREADS} threads): not used", "error")
            origin = f"default (32x1x1; the launch at line {lline} is not valid)"
        elif given_block is None and lblock is not None:
            new_block, origin = lblock, f"launch at line {lline}"
        elif given_block is None and tr.launch_bounds is not None:
            new_block, origin = (tr.launch_bounds[0], 1, 1), f"__launch_bounds__ at line {tr.launch_bounds[1]}"
        new_extern = given_extern if given_extern is not None else smem
        if new_block != block or new_extern != given_extern:
            block = new_block
            tr = _translate(src, opts, block, new_extern)
    diags = [Diagnostic(ln, col, msg, sev) for ln, col, msg, sev in pre.diagnostics]
    diags += [Diagnostic(*src.position(node), f"syntax error: {msg}", "error") for node, msg in syntax_errors(src)]
    diags += ddiags + tr.diags
    if given_block is None and origin.startswith("default"):
        diags.append(Diagnostic(1, 1, "no block size given and no launch <<<grid, block>>> found: assuming 32x1x1 "
                                      "threads", "note"))
    if tr.extern_default_used is not None:
        diags.append(Diagnostic(*src.position(tr.extern_default_used),
                                f"extern __shared__ array sized for {DEFAULT_EXTERN_BYTES:,} bytes (no size given: "
                                f"pass one, or launch with <<<grid, block, bytes>>>)", "note"))
    return _build(src, opts, tr, block, origin, diags)


_DIRECTIVE = re.compile(r"^\s*(block|extern-size)\s*[:=]\s*(.*?)\s*$", re.IGNORECASE)


def _directives(src: Source) -> dict[str, tuple[str, int, int]]:
    """Settings written in the text as a whole comment: ``// block: 32, 8`` and
    ``// extern-size: 4096`` (bytes of ``extern __shared__`` memory); values may use the text's
    constants (``// extern-size: TILE * (TILE + 1) * 4``). Only a comment that is exactly
    ``key: value`` counts, so prose that mentions a block is left alone. key -> (value, line, col)."""
    found: dict[str, tuple[str, int, int]] = {}
    for node in comments(src):
        body = src.node_text(node)
        body = body[2:] if body.startswith("//") else body[2:-2] if body.startswith("/*") else body
        m = _DIRECTIVE.match(body.strip().strip("*"))
        if m:
            found[m.group(1).lower()] = (m.group(2), *src.position(node))
    return found


def _setting(key: str, raw: tuple[str, int, int], consts, diags: list[Diagnostic]) -> tuple[int, ...] | None:
    """A directive's numbers, worked out with the model's expression language (nothing is run),
    or None with a warning saying what to write."""
    value, line, col = raw
    if re.fullmatch(r"\d+(\s*x\s*\d+)+", value):
        parts = re.split(r"\s*x\s*", value)  # 32x8
    else:
        parts = [p.strip() for p in value.split(",")]
    nums: list[int] = []
    for part in parts:
        try:
            e = E.parse(part)
            env = consts() if e.names else {}
            nums.append(int(e.evaluate({k: np.int64(v) for k, v in env.items()})))
        except BankExplorerError:
            nums = []
            break
    if key == "block" and 1 <= len(nums) <= 3 and min(nums) >= 1 and int(np.prod(nums)) <= MAX_THREADS:
        return tuple(nums) + (1,) * (3 - len(nums))
    if key == "extern-size" and len(nums) == 1 and 1 <= nums[0] <= 1 << 30:
        return tuple(nums)
    want = f"1 to 3 sizes with at most {MAX_THREADS} threads, e.g. 'block: 32, 8'" if key == "block" \
        else "a number of bytes (or a constant expression), e.g. 'extern-size: 4096'"
    diags.append(Diagnostic(line, col, f"comment {key!r}: {value!r} not understood (write {want})", "warning"))
    return None


def _build(src: Source, opts: ImportOptions, tr: Translator, block: tuple[int, int, int], origin: str,
           diags: list[Diagnostic]) -> ImportResult:
    arrays: list[SharedArray] = []
    base = 0
    ext_arrays = []
    for a in tr.arrays.values():
        if a.extern:
            ext_arrays.append(a)
            continue
        sa = SharedArray(a.name, a.dtype, a.dims, a.padding, base)
        arrays.append(sa)
        base = _align(base + sa.nbytes_padded())
    for a in ext_arrays:  # every extern __shared__ array starts where dynamic shared memory does
        arrays.append(SharedArray(a.name, a.dtype, a.dims, a.padding, base))
    instrs = list(tr.instrs)
    spans = list(tr.spans)
    if block[0] * block[1] * block[2] > MAX_THREADS or min(block) < 1:
        diags.append(Diagnostic(1, 1, f"block {block[0]}x{block[1]}x{block[2]} is not a valid block size "
                                      f"(1 to {MAX_THREADS} threads): using 32x1x1", "error"))
        block = (32, 1, 1)
    names: set[str] = set()
    for ins in instrs:
        for t in ins.index + ((ins.active,) if ins.active else ()):
            try:
                names |= E.parse(t).names
            except BankExplorerError:
                pass
    constants = tuple((k, v) for k, v in tr.consts.items() if k in names)
    pat = Pattern(name=opts.name, description=f"Imported from {len(src.text.splitlines())} lines of CUDA.",
                  hardware=opts.hardware, arrays=tuple(arrays), block=block, constants=constants,
                  instructions=tuple(instrs))
    if tr.flat_forms and not pat.validate():  # pointer offsets that cross rows: index by the flat offset
        from ..model.analysis import analyze

        bad = analyze(pat, detail=False).instruction_errors
        fixed = list(pat.instructions)
        for k, form in tr.flat_forms.items():
            if k in bad and "out of bounds" in bad[k]:
                fixed[k] = replace(fixed[k], index=form)
        instrs = fixed
        pat = replace(pat, instructions=tuple(fixed))
    # what the model itself rejects is reported at the line it came from, and left out
    problems = pat.validate()
    bad_arrays = {int(p.split("]")[0][len("arrays["):]) for p, _ in problems if p.startswith("arrays[")}
    bad_instrs: dict[int, str] = {}
    for p, msg in problems:
        if p.startswith("arrays["):
            k = int(p.split("]")[0][len("arrays["):])
            a = tr.arrays[arrays[k].name]
            diags.append(Diagnostic(*src.position(a.node), f"shared array {a.name!r}: {msg}", "error"))
        elif p.startswith("instructions["):
            k = int(p.split("]")[0][len("instructions["):])
            bad_instrs.setdefault(k, f"{p.split('.', 1)[-1]}: {msg}")
    drop_names = {arrays[k].name for k in bad_arrays}
    keep = [k for k, ins in enumerate(instrs) if k not in bad_instrs and ins.array not in drop_names]
    for k, msg in bad_instrs.items():
        s = spans[k]
        diags.append(Diagnostic(s.line, s.column, f"access not imported: {msg}", "error"))
    if bad_arrays or bad_instrs:
        pat = replace(pat, arrays=tuple(a for a in arrays if a.name not in drop_names),
                      instructions=tuple(instrs[k] for k in keep))
        spans = [spans[k] for k in keep]
    diags.sort(key=lambda d: (d.line, d.column))
    return ImportResult(pat, tuple(spans), tuple(diags), origin)


def _align(n: int, a: int = 16) -> int:
    return (n + a - 1) // a * a
