"""Read the shared-memory instructions out of compiled machine code (SASS), per source line.

``nvdisasm -g`` prints the SASS of a cubin with ``//## File "...", line N`` markers from the line
table NVRTC wrote (``-lineinfo``). This module only reads that text: which shared-memory
instructions exist, on which line, of which width and variant. It knows no bank rule.
"""

from __future__ import annotations

import re
import subprocess
import tempfile
from dataclasses import dataclass

from .nvrtc import INSTALL_HINT, CompilerUnavailable, find_tool

#: SASS opcodes that touch shared memory, and the kind of access in the model's words
_SHARED_OPS = {"LDS": "load", "STS": "store", "ATOMS": "atomic", "LDSM": "ldmatrix", "STSM": "stmatrix"}
_WIDTH_SUFFIX = {"U8": 1, "S8": 1, "U16": 2, "S16": 2, "64": 8, "128": 16}
#: instructions with which nvcc aggregates an atomic over the warp before one lane issues it
_AGGREGATION_OPS = ("REDUX", "POPC", "VOTE", "VOTEU", "FLO", "UFLO", "UPOPC")

_LOC = re.compile(r'"([^"]*)", line (\d+)')
_INSTR = re.compile(r"/\*(?P<off>[0-9a-f]{4,})\*/\s+(?P<pred>@!?U?P\w+\s+)?(?P<op>[A-Z][A-Z0-9_.]*)\s*(?P<args>[^;]*);")
_FUNC = re.compile(r"^\s*\.text\.(?P<name>\S+):")
_LABEL = re.compile(r"^\s*(\.L_\w+):")
_TARGET = re.compile(r"`\((\.L_\w+)\)")


@dataclass(frozen=True)
class SassInstruction:
    """One instruction of the disassembly, with the source line it was compiled from."""

    function: str
    offset: int
    line: int  # 0 when the line table says nothing
    opcode: str  # with modifiers: "LDS.128", "ATOMS.POPC.INC.32"
    operands: str
    predicate: str = ""  # "@!P0", "" when unpredicated

    @property
    def text(self) -> str:
        return f"{self.predicate + ' ' if self.predicate else ''}{self.opcode} {self.operands}".strip()

    @property
    def base(self) -> str:
        return self.opcode.split(".")[0]

    @property
    def kind(self) -> str | None:
        """load / store / atomic / ldmatrix / stmatrix for a shared-memory instruction, else None."""
        return _SHARED_OPS.get(self.base)

    @property
    def width(self) -> int:
        """Bytes per lane (16 for the matrix instructions)."""
        mods = self.opcode.split(".")[1:]
        if self.base in ("LDSM", "STSM"):
            return 16
        if self.base == "ATOMS":
            return 8 if "64" in mods else 4
        for m in mods:
            if m in _WIDTH_SUFFIX:
                return _WIDTH_SUFFIX[m]
        return 4

    @property
    def matrices(self) -> int:
        """ldmatrix/stmatrix .x1/.x2/.x4 (``LDSM.16.M88.4``)."""
        mods = self.opcode.split(".")
        return int(mods[-1]) if mods[-1] in ("1", "2", "4") else 1

    @property
    def trans(self) -> bool:
        return ".MT88" in self.opcode

    @property
    def atomic_variant(self) -> str:
        """The ATOMS operation as the hardware sees it: "POPC.INC", "CAST.SPIN", "ADD", "CAS", ..."""
        mods = [m for m in self.opcode.split(".")[1:] if m not in ("32", "64", "S32", "U32", "S64", "U64", "E")]
        return ".".join(mods)

    @property
    def uniform_address(self) -> bool:
        """The address is in a uniform register alone (``[UR4]``): the same for every lane."""
        m = re.search(r"\[([^\]]*)\]", self.operands)
        if not m:
            return False
        regs = [t.strip() for t in re.split(r"[+\-]", m.group(1))]
        return all(t.startswith("UR") or t.startswith("0x") or t == "" or t == "URZ" for t in regs) and any(
            t.startswith("UR") and t != "URZ" for t in regs)

    @property
    def offset_immediate(self) -> int:
        m = re.search(r"\[[^\]]*?([+-])\s*0x([0-9a-f]+)\]", self.operands)
        if not m:
            return 0
        v = int(m.group(2), 16)
        return -v if m.group(1) == "-" else v


@dataclass(frozen=True)
class Disassembly:
    instructions: tuple[SassInstruction, ...]
    #: (function, first offset, last offset) of every backward branch: the code a loop repeats
    loops: tuple[tuple[str, int, int], ...] = ()

    def in_loop(self, ins: SassInstruction) -> bool:
        return any(f == ins.function and a <= ins.offset <= b for f, a, b in self.loops)

    def loop_of(self, ins: SassInstruction) -> tuple[str, int, int] | None:
        inner = [lp for lp in self.loops if lp[0] == ins.function and lp[1] <= ins.offset <= lp[2]]
        return min(inner, key=lambda lp: lp[2] - lp[1]) if inner else None

    def loop_has(self, loop: tuple[str, int, int], bases: tuple[str, ...]) -> bool:
        """Does the loop's code contain one of these opcodes (a barrier, a shared store)?"""
        f, a, b = loop
        return any(i.function == f and a <= i.offset <= b and i.base in bases for i in self.instructions)

    def shared(self) -> list[SassInstruction]:
        """The shared-memory instructions that can execute (``@!PT LDS RZ, [RZ]``, a placeholder nvcc
        leaves beside ``cp.async``, never does)."""
        return [i for i in self.instructions if i.kind is not None and i.predicate != "@!PT"]

    def on_line(self, line: int) -> list[SassInstruction]:
        return [i for i in self.instructions if i.line == line]

    def aggregates_on(self, line: int) -> bool:
        """Does the code of this line reduce over the warp (REDUX, POPC of a vote ...)?"""
        return any(i.base in _AGGREGATION_OPS for i in self.on_line(line))

    def functions(self) -> list[str]:
        seen: dict[str, None] = {}
        for i in self.instructions:
            seen.setdefault(i.function, None)
        return list(seen)


def parse(text: str, main_file: str | None = None) -> Disassembly:
    """Read ``nvdisasm -g`` output. Code inlined from a header (``__hadd2``) is put on the line of
    ``main_file`` that it was inlined at."""
    out: list[SassInstruction] = []
    func, line = "", 0
    labels: dict[tuple[str, str], int] = {}
    pending: list[str] = []  # labels waiting for the next instruction's offset
    branches: list[tuple[str, int, str]] = []
    for raw in text.splitlines():
        m = _FUNC.match(raw)
        if m:
            func, line = m.group("name"), 0
            continue
        m = _LABEL.match(raw)
        if m:
            pending.append(m.group(1))
            continue
        if "//##" in raw:
            locs = _LOC.findall(raw)  # innermost first, then each "inlined at"
            if locs:
                mine = [int(n) for f, n in locs if main_file is None or f.rsplit("/", 1)[-1] == main_file]
                line = mine[0] if mine else int(locs[-1][1])
            continue
        m = _INSTR.search(raw)
        if m:
            ins = SassInstruction(func, int(m.group("off"), 16), line, m.group("op"), m.group("args").strip(),
                                  (m.group("pred") or "").strip())
            out.append(ins)
            for lb in pending:
                labels[(func, lb)] = ins.offset
            pending.clear()
            t = _TARGET.search(ins.operands)
            if ins.base == "BRA" and t:
                branches.append((func, ins.offset, t.group(1)))
    loops = tuple((f, labels[(f, lb)], off) for f, off, lb in branches
                  if (f, lb) in labels and labels[(f, lb)] < off)
    return Disassembly(tuple(out), loops)


def disassemble(cubin: bytes, main_file: str | None = None) -> Disassembly:
    """SASS of a cubin with source lines, through ``nvdisasm`` (from the nvidia-cuda-nvdisasm wheel)."""
    tool = find_tool("nvdisasm")
    if tool is None:
        raise CompilerUnavailable(INSTALL_HINT)
    with tempfile.NamedTemporaryFile(suffix=".cubin") as f:
        f.write(cubin)
        f.flush()
        p = subprocess.run([tool, "-gi", "-c", f.name], capture_output=True, text=True, timeout=60)
    if p.returncode:
        raise RuntimeError(f"nvdisasm failed: {p.stderr.strip()[:300]}")
    return parse(p.stdout, main_file)
