"""Which integer instructions the compiled module (``_alu.c``) executes, and how an issue hands one over.

The semantics stay the opcode table's functions (``ops/integer.py``, ``ops/move.py``). A loop spends
most of its issues on a few forms of a few of them (``IMAD R, R, 0x4, R``, ``IADD3``, ``LOP3.LUT``,
``SEL``, ``SHF``, ``ISETP``), each a handful of numpy calls on the block's lanes plus the operand
plumbing around them. :func:`plan` looks at an instruction once, on its first issue, and where its
form is one ``_alu.c`` does (plain registers, immediates and constants as sources, ``-R`` and
``~R``, a general register or predicate as destination) says how to run it there; :func:`issue`
then runs each issue in one call (the table's function runs every other form, and everywhere
where the module was not built). ``tests/test_alu_forms.py`` holds every form to the table's function.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import compiled
from .issue import EmulationError, Issue, _clean, _with, _write_taint
from .operands import PT, RZ, Const, FImm, Imm, Pred, Reg
from .ops import integer, move

MASK32 = 0xFFFFFFFF
_REG = 1 << 32  # a source's kind: register R[value] (0: an immediate)

# the forms' codes and flags, as _alu.c reads them
ADD3, MAD, LOP3, SEL, SHF, ISETP = 1, 2, 3, 4, 5, 6
SHF_LEFT, SHF_HI, SHF_WRAP, SHF_WIDE, SHF_SIGNED, SHF_S32, SHF_SHORT = (1 << k for k in range(8, 15))
_CMPS = ("EQ", "NE", "LT", "LE", "GT", "GE", "T", "F")
_SETP_UNSIGNED = 1 << 11
_COMBINE = {"AND": 0, "OR": 1, "XOR": 2}


@dataclass(frozen=True, slots=True)
class Form:
    """One instruction's form as ``_alu.c`` runs it. ``srcs``: three sources, each an int (an
    immediate, or ``_REG | index``) or ``("UR", index)`` (a uniform register, spread to the lanes on
    each issue); ``regs``, ``uregs``, ``preds``: the registers and predicates it reads (their taint
    goes with the result); ``dst``: the register written, or for ISETP the predicates (-1: PT)."""

    code: int
    flags: int
    dst: int
    dst2: int
    srcs: tuple
    pred: int
    regs: tuple[int, ...]
    uregs: tuple[int, ...]
    preds: tuple[int, ...]


class _NotAForm(Exception):
    """The instruction's form is not one ``_alu.c`` runs: the table's function runs it."""


class _Sources:
    """The sources of a form being planned, and what they read."""

    def __init__(self, iss: Issue):
        self.iss, self.flags, self.regs, self.uregs, self.preds = iss, 0, [], [], []

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
                self.uregs.append(o.index)
                return ("UR", o.index)
            self.regs.append(o.index)
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
        if p.index != PT:
            self.preds.append(p.index)
        return p.index | int(p.neg) << 3

    def form(self, code: int, dst: int, srcs, flags: int = 0, pred: int = PT, dst2: int = -1) -> Form:
        return Form(code, self.flags | flags, dst, dst2, tuple(srcs) + (0,) * (3 - len(srcs)), pred,
                    tuple(self.regs), tuple(self.uregs), tuple(self.preds))


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
    if pouts or "X" in iss.ins.mods or "64" in iss.ins.mods or not 1 <= len(srcs) <= 3:
        raise _NotAForm
    return s.form(ADD3, _dst(iss), [s.value(i, k) for k, i in enumerate(srcs)])


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


def issue(form: Form, iss: Issue) -> bool:
    """Run one issue of ``form`` compiled, its data taint as the table's function would carry it
    (:meth:`.Issue.bits`'s reading, :meth:`.Issue.write`'s writing); False (having changed nothing)
    where a uniform register it reads is tainted (rare): then the table's function runs it."""
    b = iss.b
    t = iss.taint  # (the guard's)
    tr, tur, tp, tr1, tp1 = iss._tr, iss._tur, iss._tp, iss._tr1, iss._tp1
    for i in form.regs:
        if tr[i]:
            t = _with(t, b.RT[i], tr1[i])
    for i in form.preds:
        if tp[i]:
            t = _with(t, b.PTT[i], tp1[i])
    srcs = form.srcs
    if form.uregs:
        for i in form.uregs:
            if tur[i]:
                return False
        srcs = tuple(b.uniform_lanes(s[1]) if type(s) is tuple else s for s in srcs)
    on = iss.on
    try:
        compiled.alu.run(form.code, form.flags, b.R, b.P, on, form.dst, form.dst2, srcs[0], srcs[1], srcs[2],
                         form.pred)
    except (ValueError, BufferError):
        return False  # (arrays not laid out as it expects: it wrote nothing)
    if form.code == ISETP:
        for p in (form.dst, form.dst2):
            if p >= 0 and not _clean(t, tp, p):
                _write_taint(b.PTT, tp, tp1, p, t, on, b)
    elif not _clean(t, tr, form.dst):
        _write_taint(b.RT, tr, tr1, form.dst, t, on, b)
    return True
