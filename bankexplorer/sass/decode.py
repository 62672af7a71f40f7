"""Decode: ``nvdisasm -gi`` text -> typed instructions, once, before anything runs.

The disassembler already names every field; this module only cuts the text into an opcode, its
modifiers, a guard predicate and typed operands (:mod:`.operands`), resolves branch labels to code
offsets and keeps each instruction's source line. Nothing here knows what an opcode means.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from functools import cached_property

from .operands import (PT, RZ, URZ, Barrier, Const, FImm, Imm, Label, Mem, Operand, Other, Pred, Reg,
                       Special)

_LOC = re.compile(r'"([^"]*)", line (\d+)')
_INSTR = re.compile(r"/\*(?P<off>[0-9a-f]{4,})\*/\s+(?P<body>[^;]*);")
_SECTION = re.compile(r"^\s*\.section\s+\.text\.(?P<name>[^,\s]+)")
_FUNC_START = re.compile(r"^(?P<name>[^\s.:][^\s:]*):\s*$")
_LABEL = re.compile(r"^\s*(?P<name>\.L_\w+):")
_ENTRY = re.compile(r'\.other\s+(?P<name>\S+),@"STO_CUDA_ENTRY')
_GUARD = re.compile(r"^@(?P<neg>!)?(?P<name>U?P(?:T|\d))\s+")
#: ``32@lo((func + .L_x_0@srel))``: half of a code address, the return address of an absolute call
_CODE_ADDRESS = re.compile(r"^32@(?P<half>lo|hi)\(\((?P<func>[^\s+()]+)\s*\+\s*(?P<label>[.\w$]+)@srel\)\)$")
#: ``32@lo(sym)``, ``32@hi((sym + 0x10))``: half of a global variable's address
_DATA_ADDRESS = re.compile(r"^32@(?P<half>lo|hi)\(\(?(?P<sym>[^\s+()]+)(?:\s*\+\s*(?P<off>0x[0-9a-f]+|\d+))?\)?\)$")
_FLOAT = re.compile(r"^[-+]?(?:\d+\.\d*(?:e[-+]?\d+)?|\d+e[-+]?\d+|\d+|QNAN|INF|NAN)$", re.I)


class DecodeError(ValueError):
    """An operand or line the decoder cannot read (it names the text)."""


@functools.lru_cache(maxsize=4096)
def _parts(opcode: str) -> tuple[str, tuple[str, ...]]:
    """``IMAD.WIDE.U32`` -> ("IMAD", ("WIDE", "U32")), split once per opcode spelling: the opcodes'
    semantics ask for them on every issue."""
    base, *mods = opcode.split(".")
    return base, tuple(mods)


@dataclass(frozen=True, slots=True)
class Instruction:
    """One SASS instruction: ``opcode`` with its modifiers (``IMAD.WIDE.U32``), typed operands."""

    pc: int
    opcode: str
    guard: Pred | None
    operands: tuple[Operand, ...]
    text: str  # as the disassembler printed it (guard included, no trailing ';')
    line: int  # source line in the user's file; 0 when the line table says nothing
    function: str  # the function (section symbol) the code sits in
    #: the line is the user's file's (False: a header function's own line, as in code built without
    #: inlining, -G, where the line that matters is that of the user's call: :mod:`.simt` tracks it)
    own_line: bool = True
    #: the opcode without and its modifiers (``IMAD``, ``("WIDE", "U32")``): plain fields, set from
    #: ``opcode`` once, since the opcodes' semantics read them on every issue
    base: str = field(init=False, repr=False, compare=False)
    mods: tuple[str, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        base, mods = _parts(self.opcode)
        object.__setattr__(self, "base", base)
        object.__setattr__(self, "mods", mods)

    def has(self, *mods: str) -> bool:
        m = self.mods
        return any(x in m for x in mods)


@dataclass(frozen=True)
class Program:
    """The code of one kernel: its section (the kernel and the subroutines ptxas put after it) and
    the sections of the functions it calls (code built without inlining, -G, calls them; each is
    placed after the previous one, so every instruction has its own pc)."""

    kernel: str
    instructions: tuple[Instruction, ...]
    labels: dict[str, int] = field(default_factory=dict)

    @cached_property
    def index_of(self) -> dict[int, int]:
        return {ins.pc: i for i, ins in enumerate(self.instructions)}

    def at(self, pc: int) -> Instruction:
        return self.instructions[self.index_of[pc]]


def _num(text: str) -> int:
    t = text.strip()
    neg = t.startswith("-")
    t = t.lstrip("+-")
    v = int(t, 16) if t.lower().startswith("0x") else int(t)
    return -v if neg else v


def _reg(tok: str) -> Reg | None:
    m = re.fullmatch(r"(?P<neg>-)?(?P<inv>~)?(?P<abs>\|)?(?P<u>U)?R(?P<n>Z|\d+)(?P<sel>(?:\.[A-Za-z0-9_]+)*)\|?", tok)
    if not m:
        return None
    uniform = bool(m.group("u"))
    n = m.group("n")
    index = (URZ if uniform else RZ) if n == "Z" else int(n)
    sels = [s for s in m.group("sel").split(".") if s and s != "reuse"]
    return Reg(index, uniform, bool(m.group("neg")), bool(m.group("abs")), bool(m.group("inv")), ".".join(sels))


def _pred(tok: str) -> Pred | None:
    m = re.fullmatch(r"(?P<neg>!)?(?P<u>U)?P(?P<n>T|\d)", tok)
    if not m:
        return None
    return Pred(PT if m.group("n") == "T" else int(m.group("n")), bool(m.group("u")), bool(m.group("neg")))


def _address(inner: str, text: str) -> tuple[Reg | None, Reg | None, int, bool, int]:
    reg = ureg = None
    off, wide, scale = 0, False, 1
    for part in re.findall(r"[+-]?[^+-]+", inner.replace("+-", "-")):
        p = part.strip()
        sign = -1 if p.startswith("-") else 1
        p = p.lstrip("+-").strip()
        if p.lower().startswith("0x") or p.isdigit():
            off += sign * _num(p)
            continue
        r = _reg(p)
        if r is None:
            raise DecodeError(f"cannot read the address {text!r}")
        if "64" in r.sel.split("."):
            wide = True
        sm = re.search(r"X(\d+)", r.sel)
        if sm:
            scale = int(sm.group(1))
        r = Reg(r.index, r.uniform)
        if r.uniform:
            ureg = r
        else:
            reg = r
    return reg, ureg, off, wide, scale


def operand(tok: str) -> Operand:
    """One operand's text -> its typed form."""
    t = tok.strip().replace(".reuse", "")
    if t.startswith("`("):
        return Label(t[2:-1].strip(), None)
    if t.startswith("desc["):
        m = re.fullmatch(r"desc\[(?P<d>[^\]]*)\]\[(?P<a>[^\]]*)\]", t)
        if not m:
            raise DecodeError(f"cannot read the memory operand {t!r}")
        reg, ureg, off, wide, scale = _address(m.group("a"), t)
        return Mem(reg, ureg, off, wide, scale, _reg(m.group("d")))
    if t.startswith("["):
        reg, ureg, off, wide, scale = _address(t[1:-1], t)
        return Mem(reg, ureg, off, wide, scale)
    m = re.fullmatch(r"(?P<neg>-)?c\[(?P<b>0x[0-9a-f]+)\]\[(?P<a>[^\]]*)\](?P<sel>(?:\.[A-Z0-9_]+)*)", t)
    if m:
        reg, _u, off, _w, _s = _address(m.group("a"), t)
        if reg is not None and reg.zero:
            reg = None
        return Const(int(m.group("b"), 16), off, reg, m.group("sel").lstrip("."))
    r = _reg(t)
    if r is not None:
        return r
    p = _pred(t)
    if p is not None:
        return p
    if t.startswith("SR"):
        return Special(t)
    m = re.fullmatch(r"(S?)B(\d+)", t)
    if m:
        return Barrier(int(m.group(2)), bool(m.group(1)))
    if re.fullmatch(r"[-+]?0x[0-9a-f]+", t, re.I):
        return Imm(_num(t))
    if _FLOAT.match(t):
        return FImm(float(t.replace("QNAN", "nan").replace("NAN", "nan")))
    return Other(t)


def split_top(args: str, opens: str = "[(", closes: str = "])") -> list[str]:
    """``args`` cut at the commas outside any bracket (operands; a C parameter list with "<([")."""
    out, depth, cur = [], 0, ""
    for ch in args:
        if ch in opens:
            depth += 1
        elif ch in closes:
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur)
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur)
    return [o.strip() for o in out]


def decode_line(pc: int, body: str, line: int = 0, function: str = "", own_line: bool = True) -> Instruction:
    """``/*0050*/ @P0 BRA `(.L_x_1) ;`` without the offset and ';' -> an Instruction."""
    text = re.sub(r"\s+", " ", re.sub(r"\(\*.*?\*\)", "", body)).strip()  # no (*"BRANCH_TARGETS ..."*) notes
    guard = None
    rest = text
    m = _GUARD.match(rest)
    if m:
        guard = _pred(("!" if m.group("neg") else "") + m.group("name"))
        rest = rest[m.end():]
    op, _, args = rest.partition(" ")
    if op.split(".")[0] in ("BRX", "JMX") and "," not in args:  # BRX R4 -0x230: a register and an offset
        args = ", ".join(args.split())
    operands = []
    for tok in split_top(args):
        # a RET names its function after the register (``R20 `(kernel)``): two operands
        if " `(" in tok:
            a, b = tok.split(" `(", 1)
            operands += [operand(a), operand("`(" + b)]
        elif re.fullmatch(r"U?R(?:Z|\d+) [-+]?0x[0-9a-f]+", tok):  # RET.ABS.NODEC R20 0x0: register, offset
            a, b = tok.split(" ", 1)
            operands += [operand(a), operand(b)]
        else:
            operands.append(operand(tok))
    return Instruction(pc, op, guard, tuple(operands), text.replace(".reuse", ""), line, function, own_line)


def decode(text: str, kernel: str | None = None, main_file: str | None = None,
           symbols: dict[str, int] | None = None) -> Program:
    """The kernel's section of ``nvdisasm -gi`` output (the first entry function when ``kernel``
    is None) and those of the functions it calls. ``main_file``: code inlined from headers is put
    on the line of this file that it was inlined at. ``symbols``: the addresses of global
    variables, for the instructions that load them (``MOV R2, 32@lo(table)``)."""
    symbols = symbols or {}
    sections: dict[str, list[Instruction]] = {}
    labels: dict[str, dict[str, int]] = {}
    entries: list[str] = []
    section = func = ""
    line, own = 0, True
    pending: list[str] = []
    for raw in text.splitlines():
        m = _SECTION.match(raw)
        if m:
            section = func = m.group("name")
            sections.setdefault(section, [])
            labels.setdefault(section, {})
            line, own = 0, main_file is None
            continue
        m = _ENTRY.search(raw)
        if m:
            entries.append(m.group("name"))
            continue
        if not section:
            continue
        m = _LABEL.match(raw)
        if m:
            pending.append(m.group("name"))
            continue
        m = _FUNC_START.match(raw.strip())
        if m and not raw.strip().startswith("/*"):
            pending.append(m.group("name"))
            func = m.group("name")
            continue
        if "//##" in raw:
            locs = _LOC.findall(raw)  # innermost first, then each "inlined at"
            if locs:
                mine = [int(n) for f, n in locs if main_file is None or f.rsplit("/", 1)[-1] == main_file]
                line = mine[0] if mine else int(locs[-1][1])
                own = bool(mine)
            continue
        m = _INSTR.search(raw)
        if m:
            pc = int(m.group("off"), 16)
            for lb in pending:
                labels[section][lb] = pc
            pending.clear()
            sections[section].append(decode_line(pc, m.group("body"), line, func, own))
    if not sections:
        raise DecodeError("the disassembly has no code")
    name = kernel or (entries[0] if entries else next(iter(sections)))
    if name not in sections:
        raise DecodeError(f"no kernel named {name!r} in the code (kernels: {', '.join(entries) or 'none'})")
    # the kernel's section first, then every section it calls (transitively), one after the other
    size = {k: (v[-1].pc + 16 if v else 0) for k, v in sections.items()}
    order, base, end = [name], {name: 0}, size[name]
    for sec in order:
        for ins in sections[sec]:
            for o in ins.operands:
                if isinstance(o, Label) and o.name not in labels[sec] and o.name in sections and o.name not in base:
                    base[o.name] = -(-end // 0x100) * 0x100
                    order.append(o.name)
                    end = base[o.name] + size[o.name]

    def resolve(sec: str, o):
        if isinstance(o, Label):
            if o.name in labels[sec]:
                return Label(o.name, base[sec] + labels[sec][o.name])
            if o.name in base:
                return Label(o.name, base[o.name] + labels[o.name].get(o.name, 0))
            return Label(o.name, None)
        if isinstance(o, Other):
            m = _CODE_ADDRESS.match(o.text)
            if m and m.group("func") in base and m.group("label") in labels[m.group("func")]:
                addr = base[m.group("func")] + labels[m.group("func")][m.group("label")]
                return Imm(addr & 0xFFFFFFFF if m.group("half") == "lo" else addr >> 32)
            m = _DATA_ADDRESS.match(o.text)
            if m and m.group("sym") in symbols:
                addr = symbols[m.group("sym")] + (_num(m.group("off")) if m.group("off") else 0)
                return Imm(addr & 0xFFFFFFFF if m.group("half") == "lo" else addr >> 32)
        return o

    code = []
    lbl: dict[str, int] = {}
    for sec in order:
        b = base[sec]
        lbl.update({k: v + b for k, v in labels[sec].items() if sec == name or k not in lbl})
        for ins in sections[sec]:
            if b or any(isinstance(o, Label | Other) for o in ins.operands):
                ins = Instruction(ins.pc + b, ins.opcode, ins.guard, tuple(resolve(sec, o) for o in ins.operands),
                                  ins.text, ins.line, ins.function, ins.own_line)
            code.append(ins)
    return Program(name, tuple(code), lbl)


def entry_names(text: str) -> list[str]:
    """The kernels (entry functions) of a disassembly, in order."""
    return _ENTRY.findall(text)
