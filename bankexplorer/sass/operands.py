"""Typed SASS operands: what ``nvdisasm`` prints, read once so that no opcode parses text.

The names follow the disassembly: ``R5``, ``UR4``, ``P0``/``UP0``, ``c[0x0][0x210]``, ``[R2+UR4+0x10]``,
``SR_TID.X``, ``B0``. Register ``RZ`` / ``URZ`` reads as zero and ignores writes; predicate ``PT`` /
``UPT`` reads as true.
"""

from __future__ import annotations

from dataclasses import dataclass

RZ = 255  #: index of the zero register in the general register file
URZ = 63  #: index of the zero uniform register
PT = 7  #: index of the always-true predicate


@dataclass(frozen=True, slots=True)
class Reg:
    """A general (``R``) or uniform (``UR``) register, with the modifiers SASS writes on sources.

    ``sel`` keeps a register suffix: ``H0_H0``/``H1_H1``/``H1``/``F32`` (half-precision lanes),
    ``64`` (a register pair used as a 64-bit address), ``X4``... (a scaled index), ``B1``... (a byte)."""

    index: int
    uniform: bool = False
    neg: bool = False
    abs: bool = False
    inv: bool = False
    sel: str = ""

    @property
    def zero(self) -> bool:
        return self.index == (URZ if self.uniform else RZ)


@dataclass(frozen=True, slots=True)
class Pred:
    index: int
    uniform: bool = False
    neg: bool = False

    @property
    def true(self) -> bool:
        return self.index == PT and not self.neg


@dataclass(frozen=True, slots=True)
class Imm:
    """An integer immediate as printed (``0x1f``, ``-0x1``), its 32-bit pattern in ``bits``."""

    value: int

    @property
    def bits(self) -> int:
        return self.value & 0xFFFFFFFF


@dataclass(frozen=True, slots=True)
class FImm:
    """A floating-point immediate (``0.5``, ``-QNAN``, ``+INF``), as float ops print them."""

    value: float


@dataclass(frozen=True, slots=True)
class Const:
    """``c[bank][offset]`` or ``c[bank][R+offset]`` (an indexed constant load)."""

    bank: int
    offset: int
    reg: Reg | None = None
    sel: str = ""  # a suffix such as H0_H0 on a constant operand


@dataclass(frozen=True, slots=True)
class Mem:
    """A memory operand ``[R+UR+imm]``; ``wide`` when the register is a 64-bit pair (``R2.64``).
    ``scale`` multiplies the register (``R2.X4``). ``desc`` is the global-memory descriptor
    (``desc[UR4]``), which only carries cache policy here."""

    reg: Reg | None
    ureg: Reg | None
    offset: int
    wide: bool = False
    scale: int = 1
    desc: Reg | None = None


@dataclass(frozen=True, slots=True)
class Special:
    """A special register: ``SR_TID.X``, ``SR_LANEID``, ``SR_CgaCtaId``, ``SRZ``..."""

    name: str


@dataclass(frozen=True, slots=True)
class Barrier:
    """A convergence barrier ``B0``..``B15`` (BSSY/BSYNC/BREAK) or a scoreboard ``SB0``."""

    index: int
    scoreboard: bool = False


@dataclass(frozen=True, slots=True)
class Label:
    """A branch or call target, resolved to its byte offset in the kernel's code."""

    name: str
    target: int | None


@dataclass(frozen=True, slots=True)
class Other:
    """Text the decoder keeps as it is (an operand no opcode here reads: ``PR``, cache hints)."""

    text: str


Operand = Reg | Pred | Imm | FImm | Const | Mem | Special | Barrier | Label | Other
