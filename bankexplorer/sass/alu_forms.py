"""Which integer instructions the compiled module (``_alu.c``) executes, and how a run hands them over.

The semantics stay the opcode table's functions (``ops/integer.py``, ``ops/move.py``). A loop spends
most of its issues on a few forms of a few of them (``IMAD R, R, 0x4, R``, ``IADD3``, ``LOP3.LUT``,
``SEL``, ``SHF``, ``ISETP``), each a handful of numpy calls on the block's lanes plus the operand
plumbing and the run's loop around them. :func:`plan` looks at an instruction once, on its first
issue, and where its form is one ``_alu.c`` does (plain registers, immediates and constants as
sources, ``-R`` and ``~R``, a general register or predicate as destination, a guard on a general
predicate) encodes it. The consecutive forms from an instruction on make a :class:`Trace`, which the
run hands over in one call where the block's threads issue them together (:func:`run`), guards,
data taint and all; else one instruction at a time. The table's function runs every other form,
and everything wherever the module was not built. ``tests/test_alu_forms.py`` holds every form, and
random traces, to the table's functions.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import compiled
from .issue import EmulationError, Issue
from .operands import PT, RZ, Const, FImm, Imm, Pred, Reg
from .ops import integer, move

MASK32 = 0xFFFFFFFF
_REG = 1 << 32  # a source's kind: register R[value] (0: an immediate)

# the forms' codes and flags, as _alu.c reads them
ADD3, MAD, LOP3, SEL, SHF, ISETP, ADD3C = 1, 2, 3, 4, 5, 6, 7
SHF_LEFT, SHF_HI, SHF_WRAP, SHF_WIDE, SHF_SIGNED, SHF_S32, SHF_SHORT = (1 << k for k in range(8, 15))
_CMPS = ("EQ", "NE", "LT", "LE", "GT", "GE", "T", "F")
_SETP_UNSIGNED = 1 << 11
_COMBINE = {"AND": 0, "OR": 1, "XOR": 2}


@dataclass(frozen=True, slots=True)
class Form:
    """One instruction's form as ``_alu.c`` runs it. ``srcs``: three sources, each an int (an
    immediate, or ``_REG | index``) or ``("UR", index)`` (a uniform register, spread to the lanes on
    each issue); ``dst``: the register written, or for ISETP the predicates (-1: PT); ``pred``: the
    predicate SEL and ISETP read, ``guard`` the instruction's (index | neg << 3; -1: none). IADD3
    with carries: ``dst2`` and ``dst3`` the carries out, ``pred`` and ``pred2`` the carries in (-1: none)."""

    code: int
    flags: int
    dst: int
    dst2: int
    srcs: tuple
    pred: int
    guard: int
    dst3: int = -1
    pred2: int = -1

    def row(self, uregs: list[int]) -> list[int]:
        """The form as a row of the int32 code ``_alu.c`` reads; a uniform register is named by its
        place in ``uregs`` (added there if new)."""
        row = [self.code, self.flags, self.dst, self.dst2, self.pred, self.guard]
        for src in self.srcs:
            if type(src) is tuple:
                if src[1] not in uregs:
                    uregs.append(src[1])
                row += [2, uregs.index(src[1])]
            elif src >= _REG:
                row += [1, src - _REG]
            else:
                row += [0, src - (1 << 32) if src >= 1 << 31 else src]
        return row + [self.dst3, self.pred2]


class _NotAForm(Exception):
    """The instruction's form is not one ``_alu.c`` runs: the table's function runs it."""


class _Sources:
    """The sources of a form being planned, and what they read."""

    def __init__(self, iss: Issue):
        self.iss, self.flags = iss, 0

    def value(self, i: int, slot: int):
        """Operand ``i`` as source ``slot`` (0, 1, 2: a, b, c) with its modifiers."""
        ops = self.iss.ins.operands
        if i >= len(ops):
            raise _NotAForm
        o = ops[i]
        if type(o) is Reg:
            if o.abs or o.sel:
                raise _NotAForm
            self.flags |= (int(o.neg) | int(o.inv) << 1) << (2 * slot)
            if o.zero:
                return 0
            if o.uniform:
                return ("UR", o.index)
            return _REG | o.index
        if type(o) is Imm:
            return o.value & MASK32
        if type(o) is FImm:
            return int(np.float32(o.value).view(np.uint32))
        if type(o) is Const and o.reg is None:
            return int(self.iss._const_word(o))  # (constant banks do not change while a block runs)
        raise _NotAForm

    def predicate(self, i: int) -> int:
        """Predicate operand ``i`` as ``_alu.c`` reads one: index | neg << 3."""
        ops = self.iss.ins.operands
        if i >= len(ops) or type(ops[i]) is not Pred or ops[i].uniform:
            raise _NotAForm
        p = ops[i]
        return p.index | int(p.neg) << 3

    def form(self, code: int, dst: int, srcs, flags: int = 0, pred: int = PT, dst2: int = -1, dst3: int = -1,
             pred2: int = -1) -> Form:
        g = self.iss.ins.guard
        if g is not None and g.uniform:
            raise _NotAForm
        guard = -1 if g is None or g.index == PT and not g.neg else g.index | int(g.neg) << 3
        return Form(code, self.flags | flags, dst, dst2, tuple(srcs) + (0,) * (3 - len(srcs)), pred, guard, dst3,
                    pred2)


def _dst(iss: Issue) -> int:
    o = iss.ins.operands[0] if iss.ins.operands else None
    if type(o) is not Reg or o.uniform or o.zero or o.sel or o.index > RZ:
        raise _NotAForm
    return o.index


def _plan_imad(iss: Issue, s: _Sources) -> Form:
    mods = iss.ins.mods
    pouts, srcs, pins = integer._operand_kinds(iss.ins)
    if pouts or "X" in mods or "WIDE" in mods or "HI" in mods or len(srcs) not in (2, 3):
        raise _NotAForm
    vals = [s.value(i, k) for k, i in enumerate(srcs)]
    return s.form(MAD, _dst(iss), vals)


def _plan_iadd3(iss: Issue, s: _Sources) -> Form:
    pouts, srcs, pins = integer._operand_kinds(iss.ins)
    carries = bool(pouts) or "X" in iss.ins.mods
    if "64" in iss.ins.mods or not 1 <= len(srcs) <= 3 or len(pouts) > 2 or carries and len(pins) > 2:
        raise _NotAForm
    dst = _dst(iss)
    vals = [s.value(i, k) for k, i in enumerate(srcs)]
    if not carries:
        return s.form(ADD3, dst, vals)
    outs = []
    for i in pouts:  # the carries out (IADD3 R2, P0, P1, ...): a write to PT is no write
        o = iss.ins.operands[i]
        if o.uniform or o.neg:
            raise _NotAForm
        outs.append(-1 if o.index == PT else o.index)
    ins = [s.predicate(i) for i in pins] if "X" in iss.ins.mods else []  # the carries in (IADD3.X ..., P0, !PT)
    outs, ins = outs + [-1] * (2 - len(outs)), ins + [-1] * (2 - len(ins))
    return s.form(ADD3C, dst, vals, pred=ins[0], dst2=outs[0], dst3=outs[1], pred2=ins[1])


def _plan_viadd(iss: Issue, s: _Sources) -> Form:
    if "16x2" in iss.ins.mods or len(iss.ins.operands) != 3:
        raise _NotAForm
    return s.form(ADD3, _dst(iss), [s.value(1, 0), s.value(2, 1)])


def _plan_mov(iss: Issue, s: _Sources) -> Form:
    ops = iss.ins.operands
    if iss.ins.base not in ("MOV", "MOV32I") or len(ops) != 2 or move._moves_to_itself(iss.ins):
        raise _NotAForm  # (a move to itself changes nothing, its taint included)
    return s.form(ADD3, _dst(iss), [s.value(1, 0)])


def _plan_lop3(iss: Issue, s: _Sources) -> Form:
    ops = iss.ins.operands
    pouts, srcs, pins = integer._operand_kinds(iss.ins)
    if type(ops[0]) is not Reg or pouts or len(srcs) != 4 or type(ops[srcs[3]]) is not Imm:
        raise _NotAForm
    vals = [s.value(i, k) for k, i in enumerate(srcs[:3])]
    return s.form(LOP3, _dst(iss), vals, (ops[srcs[3]].value & 0xFF) << 16)


def _plan_sel(iss: Issue, s: _Sources) -> Form:
    if iss.ins.base != "SEL" or len(iss.ins.operands) != 4:
        raise _NotAForm
    p = s.predicate(3)
    return s.form(SEL, _dst(iss), [s.value(1, 0), s.value(2, 1)], pred=p)


def _plan_shf(iss: Issue, s: _Sources) -> Form:
    ops, mods = iss.ins.operands, iss.ins.mods
    if len(ops) != 4:
        raise _NotAForm
    f = (SHF_LEFT * ("L" in mods) | SHF_HI * ("HI" in mods) | SHF_WRAP * ("W" in mods)
         | SHF_WIDE * ("U64" in mods or "S64" in mods) | SHF_SIGNED * ("S32" in mods or "S64" in mods)
         | SHF_S32 * ("S32" in mods))
    if type(ops[2]) is Imm and ops[2].bits < 32:  # (ops/integer.py's _funnel_short)
        f |= SHF_SHORT
    return s.form(SHF, _dst(iss), [s.value(1, 0), s.value(2, 1), s.value(3, 2)], f)


def _plan_isetp(iss: Issue, s: _Sources) -> Form:
    ops, mods = iss.ins.operands, iss.ins.mods
    cmp = next((m for m in mods if m in _CMPS), None)
    if iss.ins.base != "ISETP" or cmp is None or "EX" in mods or len(ops) != 5:
        raise _NotAForm
    dsts = []
    for o in ops[:2]:
        if type(o) is not Pred or o.uniform or o.neg:
            raise _NotAForm
        dsts.append(-1 if o.index == PT else o.index)
    combine = next((v for k, v in _COMBINE.items() if k in mods), 0)  # (ops/integer.py's combine: AND first)
    f = _CMPS.index(cmp) << 8 | _SETP_UNSIGNED * ("U32" in mods) | combine << 12
    a, b = s.value(2, 0), s.value(3, 1)
    p = s.predicate(4)
    return s.form(ISETP, dsts[0], [a, b], f, p, dsts[1])


#: the table's function -> how to plan its forms (a form stands for the function it is planned from)
PLANNERS = {integer.imad: _plan_imad, integer.iadd3: _plan_iadd3, integer.viadd: _plan_viadd, move.mov: _plan_mov,
            integer.lop3: _plan_lop3, move.sel: _plan_sel, integer.shf: _plan_shf, integer.isetp: _plan_isetp}


def plan(iss: Issue, fn) -> Form | None:
    """How ``_alu.c`` runs the instruction of ``iss`` (whose semantics are ``fn``), or None: the
    table's function runs it (not one of the forms, or the module is not built)."""
    planner = PLANNERS.get(fn)
    if planner is None or compiled.alu is None or iss.ins.base.startswith("U"):
        return None
    try:
        return planner(iss, _Sources(iss))
    except (_NotAForm, EmulationError, IndexError):
        return None


class Trace:
    """The consecutive forms from one instruction on (``m`` of them), encoded for ``_alu.c``:
    ``code``, a row each; ``uregs``: the uniform registers they read, in the order the rows name
    them; ``first``: the first instruction alone, for an issue the block's threads do not make
    together; ``straight``: an instruction follows the last (the run goes on there)."""

    __slots__ = ("code", "m", "uregs", "first", "straight")

    def __init__(self, forms: list[Form], straight: bool, first: "Trace | None" = None):
        uregs: list[int] = []
        self.code = np.array([f.row(uregs) for f in forms], np.int32)
        self.m, self.uregs, self.straight = len(forms), tuple(uregs), straight
        self.first = self if len(forms) == 1 else first or Trace(forms[:1], True)


def trace_from(run, k: int, forms: list) -> Trace | None:
    """The trace from instruction ``k`` of ``run``'s program on (None: ``k`` is not a form). Each
    instruction's form is planned once (``forms``: the run's, per instruction; :data:`UNPLANNED`
    until then)."""
    instructions, table = run.program.instructions, run.table
    found: list[Form] = []
    j = k
    while j < len(instructions) and (not found or instructions[j].pc == instructions[j - 1].pc + 16):
        f = forms[j]
        if f is UNPLANNED:
            ins = instructions[j]
            f = forms[j] = plan(Issue(run, ins, run.block.exists), table.get(ins.base))
        if f is None:
            break
        found.append(f)
        j += 1
    if not found:
        return None
    return Trace(found, instructions[j - 1].pc + 16 in run.program.index_of)


#: an instruction not looked at yet: whether the compiled module runs its form is not known
UNPLANNED = object()


def run(trace: Trace, b, S: np.ndarray) -> list[int] | None:
    """Issue the forms of ``trace`` in turn by threads ``S`` of block ``b``: each one's threads whose
    guard holds (None, having changed nothing, where a uniform register it reads is tainted, which
    is rare: then the table's functions run them)."""
    tr, tur, tp, _tup, tr1, tp1 = b.taint_flags
    uniform = ()
    if trace.uregs:
        for i in trace.uregs:
            if tur[i]:
                return None
        uniform = tuple(b.uniform_lanes(i) for i in trace.uregs)
    try:
        return compiled.alu.run(trace.code, b.R, b.P, b.RT, b.PTT, tr, tr1, tp, tp1, S, b.n, uniform)
    except (ValueError, BufferError):
        return None  # (arrays not laid out as it expects: it changed nothing)
