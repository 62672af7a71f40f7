"""C-like integer expressions, parsed by a whitelist grammar and evaluated over numpy arrays.

User text is never handed to ``eval``: it is tokenized, parsed into a small tree of known node
types, and every operator is applied with numpy to all threads at once. Semantics follow CUDA C
integer arithmetic (``/`` truncates toward zero, ``%`` takes the sign of the dividend), and any
intermediate value beyond ``LIMIT`` is an error rather than a silent wrap-around.
"""

from __future__ import annotations

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
    value: int
    pos: int


@dataclass(frozen=True)
class Name:
    name: str
    pos: int


@dataclass(frozen=True)
class Unary:
    op: str
    operand: "Node"
    pos: int


@dataclass(frozen=True)
class Binary:
    op: str
    left: "Node"
    right: "Node"
    pos: int


@dataclass(frozen=True)
class Ternary:
    cond: "Node"
    then: "Node"
    other: "Node"
    pos: int


@dataclass(frozen=True)
class Call:
    func: str
    args: tuple["Node", ...]
    pos: int


Node = Union[Num, Name, Unary, Binary, Ternary, Call]


@dataclass(frozen=True)
class _Tok:
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
    return Expr(text, _Parser(text).parse())


def evaluate(text: str, variables: Mapping[str, Value], shape: Sequence[int] | None = None) -> np.ndarray:
    return parse(text).evaluate(variables, shape)


class _Evaluator:
    def __init__(self, text: str, variables: Mapping[str, Value]):
        self.text = text
        self.vars = variables

    def check(self, v: np.ndarray, pos: int, mask) -> np.ndarray:
        bad = np.abs(v) > LIMIT
        if mask is not None:
            bad = bad & mask
        if np.any(bad):
            raise ExprError(f"value out of range (beyond ±2^40)", self.text, pos)
        return v

    def eval(self, n: Node, mask) -> np.ndarray:
        """``mask`` marks the threads whose value matters (ternaries narrow it), so that
        ``x != 0 ? 64 / x : 0`` does not report the division it guards against."""
        if isinstance(n, Num):
            return np.int64(n.value)
        if isinstance(n, Name):
            if n.name not in self.vars:
                known = ", ".join(sorted(self.vars)) or "none"
                raise ExprError(f"unknown name {n.name!r} (known: {known})", self.text, n.pos)
            return np.asarray(self.vars[n.name], dtype=np.int64)
        if isinstance(n, Unary):
            a = self.eval(n.operand, mask)
            if n.op == "-":
                return -a
            if n.op == "+":
                return a
            if n.op == "~":
                return ~a
            return (a == 0).astype(np.int64)
        if isinstance(n, Ternary):
            c = self.eval(n.cond, mask) != 0
            m_then = c if mask is None else (mask & c)
            m_else = ~c if mask is None else (mask & ~c)
            a = self.eval(n.then, m_then)
            b = self.eval(n.other, m_else)
            return np.where(c, a, b).astype(np.int64)
        if isinstance(n, Call):
            args = [self.eval(a, mask) for a in n.args]
            if n.func == "min":
                return np.minimum(args[0], args[1])
            if n.func == "max":
                return np.maximum(args[0], args[1])
            return np.abs(args[0])
        assert isinstance(n, Binary)
        op = n.op
        if op in ("&&", "||"):
            a = self.eval(n.left, mask) != 0
            # C short-circuits: the right side only matters where the left does not decide
            m = (a if op == "&&" else ~a)
            b = self.eval(n.right, m if mask is None else (mask & m)) != 0
            return ((a & b) if op == "&&" else (a | b)).astype(np.int64)
        a = self.eval(n.left, mask)
        b = self.eval(n.right, mask)
        if op == "+":
            return self.check(np.add(a, b), n.pos, mask)
        if op == "-":
            return self.check(np.subtract(a, b), n.pos, mask)
        if op == "*":
            est = np.abs(np.asarray(a, dtype=np.float64)) * np.abs(np.asarray(b, dtype=np.float64))
            self.check(est, n.pos, mask)
            return np.multiply(a, b)
        if op in ("/", "%"):
            zero = np.asarray(b) == 0
            if mask is not None:
                hit = np.broadcast_to(zero, np.broadcast(zero, mask).shape) & mask
            else:
                hit = zero
            if np.any(hit):
                raise ExprError("division by zero", self.text, n.pos)
            safe_b = np.where(zero, 1, b)
            q = np.abs(a) // np.abs(safe_b)
            q = np.where((np.asarray(a) < 0) != (np.asarray(safe_b) < 0), -q, q)
            if op == "/":
                return q.astype(np.int64)
            return (a - q * safe_b).astype(np.int64)
        if op in ("<<", ">>"):
            bad = (np.asarray(b) < 0) | (np.asarray(b) > 40)
            if mask is not None:
                bad = np.broadcast_to(bad, np.broadcast(bad, mask).shape) & mask
            if np.any(bad):
                raise ExprError("shift amount must be between 0 and 40", self.text, n.pos)
            sb = np.clip(b, 0, 40)
            if op == "<<":
                return self.check(np.left_shift(a, sb), n.pos, mask)
            return np.right_shift(a, sb)
        if op == "&":
            return np.bitwise_and(a, b)
        if op == "|":
            return np.bitwise_or(a, b)
        if op == "^":
            return np.bitwise_xor(a, b)
        cmp = {
            "<": np.less,
            "<=": np.less_equal,
            ">": np.greater,
            ">=": np.greater_equal,
            "==": np.equal,
            "!=": np.not_equal,
        }[op]
        return cmp(a, b).astype(np.int64)
