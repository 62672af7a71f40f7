"""C-like integer expressions, parsed by a whitelist grammar and evaluated over numpy arrays.

User text is never handed to ``eval``: it is tokenized, parsed into a small tree of known node
types, and every operator is applied with numpy to all threads at once. Semantics follow CUDA C
integer arithmetic (``/`` truncates toward zero, ``%`` takes the sign of the dividend), and any
intermediate value beyond ``LIMIT`` is an error rather than a silent wrap-around.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import Mapping, Sequence, Union

import numpy as np

from .errors import ExprError

LIMIT = 1 << 40  # any |value| beyond this is "absurd" for a shared-memory index
MAX_LENGTH = 2000
MAX_DEPTH = 64

Value = Union[np.ndarray, int]

_TOKEN = re.compile(
    r"\s*(?:"
    r"(?P<num>0[xX][0-9a-fA-F]+|0[bB][01]+|\d+)(?P<suffix>[uUlL]*)"
    r"|(?P<name>[A-Za-z_][A-Za-z_0-9]*(?:\.[A-Za-z_][A-Za-z_0-9]*)*)"
    r"|(?P<op><<|>>|<=|>=|==|!=|&&|\|\||[-+*/%&|^~!<>()?:,])"
    r")"
)

FUNCTIONS = {"min": 2, "max": 2, "abs": 1}

# binary operators by precedence, lowest first (C order)
_BINARY_LEVELS: list[tuple[str, ...]] = [
    ("||",),
    ("&&",),
    ("|",),
    ("^",),
    ("&",),
    ("==", "!="),
    ("<", "<=", ">", ">="),
    ("<<", ">>"),
    ("+", "-"),
    ("*", "/", "%"),
]


@dataclass(frozen=True)
class Num:
    """An integer literal; ``pos`` (here and below) is where it starts in the text, for messages."""

    value: int
    pos: int


@dataclass(frozen=True)
class Name:
    """A variable (``threadIdx.x``, a loop variable): looked up when evaluated."""

    name: str
    pos: int


@dataclass(frozen=True)
class Unary:
    """``-x``, ``+x``, ``~x``, ``!x``."""

    op: str
    operand: "Node"
    pos: int


@dataclass(frozen=True)
class Binary:
    """Every two-operand operator, C precedence already applied by the parser."""

    op: str
    left: "Node"
    right: "Node"
    pos: int


@dataclass(frozen=True)
class Ternary:
    """C's ``cond ? then : other``."""

    cond: "Node"
    then: "Node"
    other: "Node"
    pos: int


@dataclass(frozen=True)
class Call:
    """One of :data:`FUNCTIONS` (``min``, ``max``, ``abs``), arity checked by the parser."""

    func: str
    args: tuple["Node", ...]
    pos: int


Node = Union[Num, Name, Unary, Binary, Ternary, Call]


@dataclass(frozen=True)
class _Tok:
    """A token with its position, so a parse error can point at the character."""

    kind: str  # "num", "name", "op", "end"
    text: str
    pos: int
    value: int = 0


def _tokenize(text: str) -> list[_Tok]:
    if len(text) > MAX_LENGTH:
        raise ExprError(f"expression is longer than {MAX_LENGTH} characters", text, 0)
    toks: list[_Tok] = []
    i = 0
    while i < len(text):
        if text[i:].strip() == "":
            break
        m = _TOKEN.match(text, i)
        if not m or m.end() == i:
            j = i
            while j < len(text) and text[j].isspace():
                j += 1
            raise ExprError(f"unexpected character {text[j]!r}", text, j)
        if m.group("num") is not None:
            s = m.group("num")
            base = 16 if s[:2].lower() == "0x" else 2 if s[:2].lower() == "0b" else 10
            v = int(s[2:] if base != 10 else s, base)
            if v > LIMIT:
                raise ExprError(f"number {s} is too large", text, m.start("num"))
            toks.append(_Tok("num", s, m.start("num"), v))
        elif m.group("name") is not None:
            toks.append(_Tok("name", m.group("name"), m.start("name")))
        else:
            toks.append(_Tok("op", m.group("op"), m.start("op")))
        i = m.end()
    toks.append(_Tok("end", "", len(text)))
    return toks


class _Parser:
    def __init__(self, text: str):
        self.text = text
        self.toks = _tokenize(text)
        self.i = 0
        self.depth = 0

    def peek(self) -> _Tok:
        return self.toks[self.i]

    def take(self) -> _Tok:
        t = self.toks[self.i]
        self.i += 1
        return t

    def expect(self, op: str) -> _Tok:
        t = self.take()
        if t.kind != "op" or t.text != op:
            found = "end of expression" if t.kind == "end" else repr(t.text)
            raise ExprError(f"expected {op!r}, found {found}", self.text, t.pos)
        return t

    def parse(self) -> Node:
        if self.peek().kind == "end":
            raise ExprError("empty expression", self.text, 0)
        node = self.ternary()
        t = self.peek()
        if t.kind != "end":
            raise ExprError(f"unexpected {t.text!r}", self.text, t.pos)
        return node

    def ternary(self) -> Node:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise ExprError("expression is nested too deeply", self.text, self.peek().pos)
        cond = self.binary(0)
        t = self.peek()
        if t.kind == "op" and t.text == "?":
            self.take()
            then = self.ternary()
            self.expect(":")
            other = self.ternary()
            cond = Ternary(cond, then, other, t.pos)
        self.depth -= 1
        return cond

    def binary(self, level: int) -> Node:
        if level == len(_BINARY_LEVELS):
            return self.unary()
        left = self.binary(level + 1)
        while True:
            t = self.peek()
            if t.kind == "op" and t.text in _BINARY_LEVELS[level]:
                self.take()
                right = self.binary(level + 1)
                left = Binary(t.text, left, right, t.pos)
            else:
                return left

    def unary(self) -> Node:
        t = self.peek()
        if t.kind == "op" and t.text in ("-", "+", "~", "!"):
            self.take()
            self.depth += 1
            if self.depth > MAX_DEPTH:
                raise ExprError("expression is nested too deeply", self.text, t.pos)
            node = Unary(t.text, self.unary(), t.pos)
            self.depth -= 1
            return node
        return self.primary()

    def primary(self) -> Node:
        t = self.take()
        if t.kind == "num":
            return Num(t.value, t.pos)
        if t.kind == "name":
            nxt = self.peek()
            if nxt.kind == "op" and nxt.text == "(":
                if t.text not in FUNCTIONS:
                    raise ExprError(
                        f"unknown function {t.text!r} (known: {', '.join(FUNCTIONS)})", self.text, t.pos
                    )
                self.take()
                args = [self.ternary()]
                while self.peek().kind == "op" and self.peek().text == ",":
                    self.take()
                    args.append(self.ternary())
                self.expect(")")
                if len(args) != FUNCTIONS[t.text]:
                    raise ExprError(
                        f"{t.text}() takes {FUNCTIONS[t.text]} argument(s), got {len(args)}", self.text, t.pos
                    )
                return Call(t.text, tuple(args), t.pos)
            return Name(t.text, t.pos)
        if t.kind == "op" and t.text == "(":
            node = self.ternary()
            self.expect(")")
            return node
        found = "end of expression" if t.kind == "end" else repr(t.text)
        raise ExprError(f"expected a number, a name or '(', found {found}", self.text, t.pos)


@dataclass(frozen=True)
class Expr:
    """A parsed expression: keep it and evaluate it as often as the variables change."""

    text: str
    root: Node

    @property
    def names(self) -> frozenset[str]:
        out: set[str] = set()
        stack: list[Node] = [self.root]
        while stack:
            n = stack.pop()
            if isinstance(n, Name):
                out.add(n.name)
            elif isinstance(n, Unary):
                stack.append(n.operand)
            elif isinstance(n, Binary):
                stack += [n.left, n.right]
            elif isinstance(n, Ternary):
                stack += [n.cond, n.then, n.other]
            elif isinstance(n, Call):
                stack += list(n.args)
        return frozenset(out)

    def evaluate(
        self, variables: Mapping[str, Value], shape: Sequence[int] | None = None, mask: np.ndarray | None = None
    ) -> np.ndarray:
        """Evaluate over all threads at once; the result is an int64 array broadcast to ``shape``.

        Only threads where ``mask`` is true can raise errors (inactive lanes may divide by zero)."""
        ev = _Evaluator(self.text, variables)
        out = ev.eval(self.root, None if mask is None else np.asarray(mask, bool))
        out = np.asarray(out, dtype=np.int64)
        if shape is not None:
            out = np.broadcast_to(out, tuple(shape)).copy()
        return out


def parse(text: str) -> Expr:
    """Parse ``text``; raises ExprError naming the position of the first problem."""
    if not isinstance(text, str):
        raise ExprError(f"expected an expression string, got {type(text).__name__}", str(text), 0)
    return _parse_cached(text)


@functools.lru_cache(maxsize=4096)
def _parse_cached(text: str) -> Expr:
    # every edit re-analyzes the whole pattern: most of its expressions are unchanged
    return Expr(text, _Parser(text).parse())


def evaluate(text: str, variables: Mapping[str, Value], shape: Sequence[int] | None = None) -> np.ndarray:
    return parse(text).evaluate(variables, shape)


def _c_div(a, b):
    """C integer division and remainder (truncation toward zero), for numpy or Python ints."""
    if isinstance(a, int) and isinstance(b, int):
        q = abs(a) // abs(b)
        q = -q if (a < 0) != (b < 0) else q
        return q, a - q * b
    q = np.abs(a) // np.abs(b)
    q = np.where((np.asarray(a) < 0) != (np.asarray(b) < 0), -q, q)
    return q, a - q * b


class _Evaluator:
    """Evaluates a tree; each node yields (value, bound) where ``bound`` is a Python-int upper
    bound of |value|. Only a node whose bound could leave ±LIMIT is checked element by element,
    so ordinary index arithmetic runs as bare numpy operations. Constant subtrees stay Python ints."""

    def __init__(self, text: str, variables: Mapping[str, Value]):
        self.text = text
        self.vars = variables

    def eval(self, n: Node, mask) -> np.ndarray:
        v, _ = self.ev(n, mask)
        return v

    def within(self, v, bound: int, pos: int, mask) -> int:
        if bound <= LIMIT:
            return bound
        if isinstance(v, int):
            if abs(v) > LIMIT:
                raise ExprError("value out of range (beyond ±2^40)", self.text, pos)
            return abs(v)
        av = np.abs(v)
        if mask is not None:
            av = np.where(mask, av, 0)
        real = int(av.max(initial=0))
        if real > LIMIT:
            raise ExprError("value out of range (beyond ±2^40)", self.text, pos)
        return real

    def zero_hit(self, b, mask) -> bool:
        if isinstance(b, int):
            return b == 0 and (mask is None or bool(np.any(mask)))
        z = b == 0
        if mask is not None:
            z = z & mask
        return bool(np.any(z))

    def ev(self, n: Node, mask):
        """``mask`` marks the threads whose value matters (ternaries narrow it), so that
        ``x != 0 ? 64 / x : 0`` does not report the division it guards against."""
        if isinstance(n, Num):
            return n.value, n.value
        if isinstance(n, Name):
            if n.name not in self.vars:
                known = ", ".join(sorted(self.vars)) or "none"
                raise ExprError(f"unknown name {n.name!r} (known: {known})", self.text, n.pos)
            v = self.vars[n.name]
            if isinstance(v, (int, np.integer)) or np.ndim(v) == 0:
                iv = int(v)
                return iv, abs(iv)
            arr = np.asarray(v, dtype=np.int64)
            return arr, int(np.abs(arr).max(initial=0))
        if isinstance(n, Unary):
            a, ba = self.ev(n.operand, mask)
            if n.op == "-":
                return -a, ba
            if n.op == "+":
                return a, ba
            if n.op == "~":
                return ~a, ba + 1
            return (int(a == 0) if isinstance(a, int) else (a == 0).astype(np.int64)), 1
        if isinstance(n, Ternary):
            c, _ = self.ev(n.cond, mask)
            if isinstance(c, int):
                return self.ev(n.then if c else n.other, mask)
            c = c != 0
            a, ba = self.ev(n.then, c if mask is None else (mask & c))
            b, bb = self.ev(n.other, ~c if mask is None else (mask & ~c))
            return np.where(c, a, b).astype(np.int64), max(ba, bb)
        if isinstance(n, Call):
            vals = [self.ev(x, mask) for x in n.args]
            if n.func == "abs":
                a, ba = vals[0]
                return abs(a) if isinstance(a, int) else np.abs(a), ba
            (a, ba), (b, bb) = vals
            if isinstance(a, int) and isinstance(b, int):
                return (min(a, b) if n.func == "min" else max(a, b)), max(ba, bb)
            return (np.minimum(a, b) if n.func == "min" else np.maximum(a, b)), max(ba, bb)
        assert isinstance(n, Binary)
        op = n.op
        if op in ("&&", "||"):
            a, _ = self.ev(n.left, mask)
            if isinstance(a, int):  # C short-circuits
                if (op == "&&" and not a) or (op == "||" and a):
                    return int(op == "||"), 1
                b, _ = self.ev(n.right, mask)
                return (int(b != 0) if isinstance(b, int) else (b != 0).astype(np.int64)), 1
            a = a != 0
            m = a if op == "&&" else ~a
            b, _ = self.ev(n.right, m if mask is None else (mask & m))
            b = b != 0
            return ((a & b) if op == "&&" else (a | b)).astype(np.int64), 1
        a, ba = self.ev(n.left, mask)
        b, bb = self.ev(n.right, mask)
        scalar = isinstance(a, int) and isinstance(b, int)
        if op in ("+", "-"):
            v = a + b if op == "+" else a - b
            return v, self.within(v, ba + bb, n.pos, mask)
        if op == "*":
            if ba * bb > LIMIT and not scalar:  # could overflow int64: check before multiplying
                est = np.abs(np.asarray(a, dtype=np.float64)) * np.abs(np.asarray(b, dtype=np.float64))
                self.within(est, LIMIT + 1, n.pos, mask)
            v = a * b
            return v, self.within(v, ba * bb, n.pos, mask)
        if op in ("/", "%"):
            if self.zero_hit(b, mask):
                raise ExprError("division by zero", self.text, n.pos)
            if not isinstance(b, int):
                b = np.where(b == 0, 1, b)
            elif b == 0:
                b = 1
            q, r = _c_div(a, b)
            if not isinstance(q, int):
                q, r = q.astype(np.int64), r.astype(np.int64)
            return (q, ba) if op == "/" else (r, min(ba, bb))
        if op in ("<<", ">>"):
            if isinstance(b, int):
                bad = (b < 0 or b > 40) and (mask is None or bool(np.any(mask)))
            else:
                bb_ = (b < 0) | (b > 40)
                bad = bool(np.any(bb_ & mask if mask is not None else bb_))
            if bad:
                raise ExprError("shift amount must be between 0 and 40", self.text, n.pos)
            if not isinstance(b, int):
                b = np.clip(b, 0, 40)
            if op == ">>":
                return (a >> b), ba
            v = a << b
            return v, self.within(v, ba << min(bb, 40), n.pos, mask)
        if op in ("&", "|", "^"):
            f = {"&": (lambda x, y: x & y), "|": (lambda x, y: x | y), "^": (lambda x, y: x ^ y)}[op]
            bound = (1 << max(ba, bb).bit_length()) if op != "&" else max(ba, bb)
            return f(a, b), bound
        cmp = {
            "<": lambda x, y: x < y,
            "<=": lambda x, y: x <= y,
            ">": lambda x, y: x > y,
            "==": lambda x, y: x == y,
            ">=": lambda x, y: x >= y,
            "!=": lambda x, y: x != y,
        }[op]
        v = cmp(a, b)
        return (int(v) if scalar else np.asarray(v).astype(np.int64)), 1
