"""The shared-memory instructions a probe can issue: PTX text, what the model calls them, the SASS
the compiler must emit, and the Nsight Compute counter family that measures them.

Each op knows how to write one execution of itself as an ``asm volatile`` statement with a
per-lane predicate, so the compiler can neither drop, merge nor reorder the accesses.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..model.errors import BankExplorerError
from ..model.hardware import atomic_is_native


@dataclass(frozen=True)
class Op:
    ptx: str  # the instruction as the data files name it
    kind: str  # the model's kind: load, store, atomic, ldmatrix, stmatrix
    width: int  # bytes per lane (16 for the matrix kinds)
    counter: str  # which wavefront counter measures it: ld, st, atom, ldsm (stmatrix: st)
    sass: str  # SASS opcode the compiler must emit (compared up to the first '.' suffix)
    space: str = "shared"  # "shared" (32-bit shared address) or "generic" (64-bit pointer)
    matrices: int = 0
    trans: bool = False

    @property
    def ident(self) -> str:
        """A C identifier for this op's kernel."""
        return "probe_" + "".join(c if c.isalnum() else "_" for c in self.ptx)

    @property
    def is_matrix(self) -> bool:
        return self.kind in ("ldmatrix", "stmatrix")

    @property
    def emulated(self) -> bool:
        """An atomic the compiler turns into a load + compare-and-swap loop (not one instruction)."""
        return self.kind == "atomic" and not atomic_is_native(atomic_op_name(self.ptx), self.width)

    def model_fields(self) -> dict:
        """The fields a hardware-data row uses for this op (``kind`` + ``width`` or matrices)."""
        if self.is_matrix:
            return {"kind": self.kind, "matrices": self.matrices, "trans": self.trans}
        return {"kind": self.kind, "width": self.width}

    def statement(self, rep: int) -> str:
        """One execution, as C++ inside the probe kernel (variables: sa, ga, act, wact, v, acc)."""
        return _STATEMENT[self._shape()](self, rep)

    def _shape(self) -> str:
        if self.kind == "ldmatrix":
            return "ldsm"
        if self.kind == "stmatrix":
            return "stsm"
        op = self.ptx.split(".")
        if op[0] == "red":
            return "red"
        if op[0] == "atom":
            return "cas" if op[2] == "cas" else "atom"
        return op[0]  # ld / st


# register pieces of a value: (count, constraint letter, C type)
def _regs(ptx: str) -> tuple[int, str, str]:
    parts = ptx.split(".")
    n = 1
    for p in parts:
        if p.startswith("v") and p[1:].isdigit():
            n = int(p[1:])
    typ = parts[-1]
    bits = int(typ[1:])
    if typ[0] == "f":  # floating-point operands need f32/f64 registers
        return (n, "d", "double") if bits == 64 else (n, "f", "float")
    if bits == 64:
        return n, "l", "unsigned long long"
    return n, "r", "unsigned"


def _addr(op: Op) -> str:
    return '"l"(ga)' if op.space == "generic" else '"r"(sa)'


def _pred(k: int) -> str:
    return f"{{\\n\\t.reg .pred q;\\n\\tsetp.ne.b32 q, %{k}, 0;\\n\\t"


def _volatile(ptx: str) -> str:
    """``ld.shared.u32`` -> ``ld.volatile.shared.u32``: same SASS, but ptxas may neither merge
    the repeated loads nor drop the earlier of two stores to one address."""
    head, _, rest = ptx.partition(".")
    return f"{head}.volatile.{rest}"


def _ld(op: Op, rep: int) -> str:
    n, c, t = _regs(op.ptx)
    outs = ", ".join(f"%{i}" for i in range(n))
    dst = outs if n == 1 else "{" + outs + "}"
    decl = "; ".join(f"{t} r{i} = 0" for i in range(n))
    outc = ", ".join(f'"+{c}"(r{i})' for i in range(n))
    body = _pred(n + 1) + f"@q {_volatile(op.ptx)} {dst}, [%{n}];\\n\\t}}"
    acc = " + ".join(f"(unsigned long long)r{i}" for i in range(n))
    return (f"{{ {decl}; asm volatile(\"{body}\" : {outc} : {_addr(op)}, \"r\"(act) : \"memory\"); "
            f"acc += {acc}; }}")


def _st(op: Op, rep: int) -> str:
    n, c, t = _regs(op.ptx)
    ins = ", ".join(f"%{i + 2}" for i in range(n))
    src = ins if n == 1 else "{" + ins + "}"
    vals = ", ".join(f'"{c}"(({t})(v + {rep * 8 + i}u))' for i in range(n))
    body = _pred(1) + f"@q {_volatile(op.ptx)} [%0], {src};\\n\\t}}"
    return f"asm volatile(\"{body}\" :: {_addr(op)}, \"r\"(act), {vals} : \"memory\");"


def _atom(op: Op, rep: int) -> str:
    _, c, t = _regs(op.ptx)
    body = _pred(2) + f"@q {op.ptx} %0, [%1], %3;\\n\\t}}"
    return (f"{{ {t} r = 0; asm volatile(\"{body}\" : \"+{c}\"(r) : {_addr(op)}, \"r\"(act), "
            f"\"{c}\"(({t})(v | 1u)) : \"memory\"); acc += r; }}")


def _cas(op: Op, rep: int) -> str:
    _, c, t = _regs(op.ptx)
    body = _pred(2) + f"@q {op.ptx} %0, [%1], %3, %4;\\n\\t}}"
    return (f"{{ {t} r = 0; asm volatile(\"{body}\" : \"+{c}\"(r) : {_addr(op)}, \"r\"(act), "
            f"\"{c}\"(({t})acc), \"{c}\"(({t})(v + {rep}u)) : \"memory\"); acc += r; }}")


def _red(op: Op, rep: int) -> str:
    _, c, t = _regs(op.ptx)
    body = _pred(1) + f"@q {op.ptx} [%0], %2;\\n\\t}}"
    return f"asm volatile(\"{body}\" :: {_addr(op)}, \"r\"(act), \"{c}\"(({t})(v | 1u)) : \"memory\");"


def _ldsm(op: Op, rep: int) -> str:
    n = op.matrices
    outs = "{" + ", ".join(f"%{i}" for i in range(n)) + "}"
    decl = "; ".join(f"unsigned r{i} = 0" for i in range(n))
    outc = ", ".join(f'"+r"(r{i})' for i in range(n))
    body = _pred(n + 1) + f"@q {op.ptx} {outs}, [%{n}];\\n\\t}}"
    acc = " + ".join(f"r{i}" for i in range(n))
    return f"{{ {decl}; asm volatile(\"{body}\" : {outc} : \"r\"(sa), \"r\"(wact) : \"memory\"); acc += {acc}; }}"


def _stsm(op: Op, rep: int) -> str:
    n = op.matrices
    ins = "{" + ", ".join(f"%{i + 2}" for i in range(n)) + "}"
    vals = ", ".join(f'"r"(v + {rep * 4 + i}u)' for i in range(n))
    body = _pred(1) + f"@q {op.ptx} [%0], {ins};\\n\\t}}"
    return f"asm volatile(\"{body}\" :: \"r\"(sa), \"r\"(wact), {vals} : \"memory\");"


_STATEMENT = {"ld": _ld, "st": _st, "atom": _atom, "cas": _cas, "red": _red, "ldsm": _ldsm, "stsm": _stsm}


def atomic_op_name(ptx: str) -> str:
    """The model's atomic operation of a PTX atomic (``atom.shared.add.f32`` -> ``fadd``)."""
    parts = ptx.split(".")
    op = parts[2]
    return "fadd" if op == "add" and parts[-1].startswith("f") else op


def _atomic(ptx: str, width: int) -> Op:
    op = atomic_op_name(ptx)
    if not atomic_is_native(op, width):
        sass = "ATOMS.CAST.SPIN" + (".64" if width == 8 else "")
    elif ptx.startswith("red"):
        sass = "ATOMS"
    else:
        sass = "ATOMS." + {"exch": "EXCH", "cas": "CAS"}.get(op, op.upper()) + (".64" if width == 8 else "")
    return Op(ptx, "atomic", width, "atom", sass)


def _build() -> dict[str, Op]:
    ops: list[Op] = []
    for w, suf, sass in ((1, "u8", ".U8"), (2, "u16", ".U16"), (4, "u32", ""), (8, "v2.u32", ".64"),
                         (16, "v4.u32", ".128"), (8, "b64", ".64"), (16, "v2.u64", ".128")):
        ops.append(Op(f"ld.shared.{suf}", "load", w, "ld", "LDS" + sass))
        ops.append(Op(f"st.shared.{suf}", "store", w, "st", "STS" + sass))
    for suf, w in (("u8", 1), ("u16", 2), ("u32", 4), ("v2.u32", 8), ("v4.u32", 16), ("b64", 8), ("v2.u64", 16)):
        ops.append(Op(f"ld.{suf}", "load", w, "ld", "LD", space="generic"))
        ops.append(Op(f"st.{suf}", "store", w, "st", "ST", space="generic"))
    # atomics: what sm_90 has an ATOMS for is one instruction; the rest (float add, most 64-bit
    # operations) compile to a load plus an ATOMS.CAST.SPIN loop (measured; see model.hardware)
    for name, w in (("add.u32", 4), ("cas.b32", 4), ("exch.b32", 4), ("min.s32", 4), ("and.b32", 4),
                    ("or.b32", 4), ("xor.b32", 4), ("max.u32", 4), ("inc.u32", 4), ("dec.u32", 4),
                    ("add.f32", 4), ("add.u64", 8), ("cas.b64", 8), ("exch.b64", 8), ("and.b64", 8),
                    ("or.b64", 8), ("xor.b64", 8), ("min.u64", 8), ("max.s64", 8), ("add.f64", 8)):
        ops.append(_atomic(f"atom.shared.{name}", w))
    for name, w in (("add.u32", 4), ("add.u64", 8), ("and.b64", 8)):
        ops.append(_atomic(f"red.shared.{name}", w))
    for m in (1, 2, 4):
        for trans in (False, True):
            t = ".trans" if trans else ""
            ops.append(Op(f"ldmatrix.sync.aligned.m8n8.x{m}{t}.shared.b16", "ldmatrix", 16, "ldsm",
                          f"LDSM.16.M{'T' if trans else ''}88", matrices=m, trans=trans))
            ops.append(Op(f"stmatrix.sync.aligned.m8n8.x{m}{t}.shared.b16", "stmatrix", 16, "st",
                          f"STSM.16.M{'T' if trans else ''}88", matrices=m, trans=trans))
    return {o.ptx: o for o in ops}


OPS: dict[str, Op] = _build()

#: the op a pattern instruction of (kind, width) becomes by default
_DEFAULT = {("load", 1): "ld.shared.u8", ("load", 2): "ld.shared.u16", ("load", 4): "ld.shared.u32",
            ("load", 8): "ld.shared.v2.u32", ("load", 16): "ld.shared.v4.u32",
            ("store", 1): "st.shared.u8", ("store", 2): "st.shared.u16", ("store", 4): "st.shared.u32",
            ("store", 8): "st.shared.v2.u32", ("store", 16): "st.shared.v4.u32",
            ("atomic", 4): "atom.shared.add.u32", ("atomic", 8): "atom.shared.add.u64"}


_ATOMIC_PTX = {("add", 4): "add.u32", ("fadd", 4): "add.f32", ("min", 4): "min.s32", ("max", 4): "max.u32",
               ("inc", 4): "inc.u32", ("dec", 4): "dec.u32", ("and", 4): "and.b32", ("or", 4): "or.b32",
               ("xor", 4): "xor.b32", ("exch", 4): "exch.b32", ("cas", 4): "cas.b32",
               ("add", 8): "add.u64", ("fadd", 8): "add.f64", ("min", 8): "min.u64", ("max", 8): "max.s64",
               ("and", 8): "and.b64", ("or", 8): "or.b64", ("xor", 8): "xor.b64", ("exch", 8): "exch.b64",
               ("cas", 8): "cas.b64"}
_GENERIC = {1: "u8", 2: "u16", 4: "u32", 8: "v2.u32", 16: "v4.u32"}


def op_for(kind: str, width: int = 4, matrices: int = 1, trans: bool = False, space: str = "shared",
           op: str = "add") -> Op:
    """The PTX instruction that executes a pattern instruction of this kind and width."""
    if kind in ("ldmatrix", "stmatrix"):
        t = ".trans" if trans else ""
        return OPS[f"{kind}.sync.aligned.m8n8.x{matrices}{t}.shared.b16"]
    if kind in ("load", "store") and space == "generic" and width in _GENERIC:
        return OPS[f"{'ld' if kind == 'load' else 'st'}.{_GENERIC[width]}"]
    if kind == "atomic" and (op, width) in _ATOMIC_PTX:
        return OPS[f"atom.shared.{_ATOMIC_PTX[(op, width)]}"]
    name = _DEFAULT.get((kind, width))
    if name is None:
        raise BankExplorerError(f"no CUDA instruction for a {width}-byte {kind}")
    return OPS[name]


def op_named(ptx: str) -> Op:
    try:
        return OPS[ptx]
    except KeyError:
        raise BankExplorerError(f"unknown instruction {ptx!r} (known: {', '.join(OPS)})") from None
