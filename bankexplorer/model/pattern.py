"""A pattern: hardware, shared arrays, a thread block and the instructions its warps execute.

Everything here is an immutable value: an edit makes a new Pattern (``dataclasses.replace``),
which is what lets the window keep an undo stack of whole states and compare them.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Iterator

import numpy as np

from .hardware import ATOMIC_OPS, KINDS, MATRIX_KINDS, NVIDIA_SM70_SM90, SPACES, WIDTHS, Hardware, atomic_is_native, kind_code
from .layout import SharedArray

MAX_THREADS = 1024
FLOAT_TYPES = frozenset({"float", "double", "half", "__half", "bf16", "__nv_bfloat16", "half2", "__half2",
                         "float2", "float4", "double2"})
MAX_LOOP_ITERATIONS = 4096
#: warp instructions in one pass of the block (instructions x iterations x warps): about half a
#: second of analysis; a 1,024-thread block with two instructions in a 1,024-step loop is 65,536
MAX_WARP_INSTRUCTIONS = 1 << 16
MAX_REPEAT = 10**12
RESERVED_NAMES = {
    "threadIdx.x", "threadIdx.y", "threadIdx.z", "blockDim.x", "blockDim.y", "blockDim.z",
    "tid", "lane", "warp", "laneid", "warpSize",
}


@dataclass(frozen=True)
class Loop:
    """``for (var = start; var < stop; var += step)``: one instruction per value."""

    var: str = "k"
    start: int = 0
    stop: int = 1
    step: int = 1

    def values(self) -> range:
        return range(self.start, self.stop, self.step)


#: recorded executions a pattern may hold (all instructions together): an imported kernel's every
#: executed shared-memory warp instruction, kept interactive (about 130 MB at the limit)
MAX_RECORDED_ROWS = 500_000


@dataclass(frozen=True, eq=False)
class Recorded:
    """What one instruction of an executed kernel did, execution by execution: the warp, and per
    lane the element of the instruction's array it accessed (a flat, row-major index; -1 where the
    lane was inactive or its address lies in no array) with the byte offset of the access inside
    that element, and the byte address as compiled (-1 inactive). Addresses are recomputed from the
    elements through the array's layout, so a padding or swizzle edit is answered at once (a
    what-if: the compiled code used the layout it was compiled with)."""

    warp: np.ndarray  # (n,) int32
    element: np.ndarray  # (n, W) int32
    offset: np.ndarray  # (n, W) int16
    address: np.ndarray  # (n, W) int32

    def __len__(self) -> int:
        return int(self.warp.shape[0])

    def __eq__(self, other) -> bool:
        return isinstance(other, Recorded) and all(
            np.array_equal(getattr(self, f), getattr(other, f)) for f in ("warp", "element", "offset", "address"))

    def __hash__(self) -> int:
        return hash((len(self), self.address.tobytes()[:256]))


@dataclass(frozen=True)
class KernelSource:
    """Where an imported kernel's pattern came from, so it can be shown and run again: the CUDA
    text, how it was launched (the names of the data files, not their bytes), the arrays as
    compiled (an edit to them is a what-if), and every SASS instruction's counts from the run."""

    text: str
    file: str = ""  # the source file's name (no folder)
    arch: str = "sm_90"
    block_index: tuple[int, int, int] = (0, 0, 0)
    grid: tuple[int, int, int] = (1, 1, 1)
    defines: tuple[tuple[str, float], ...] = ()
    inputs: tuple[tuple[str, str], ...] = ()  # pointer parameter -> data file name
    compiled_arrays: tuple = ()  # the SharedArrays as declared and compiled
    #: per SASS instruction: (pc, sass, line, executed, threads, pred_on_threads, wavefronts or -1,
    #: ideal or -1, the parameters its addresses depend on, whether they depend on timing)
    sass: tuple[tuple, ...] = ()
    notes: tuple[tuple[int, str], ...] = ()
    timing_dependent: bool = False
    warp_instructions: int = 0

    def what_if(self, arrays) -> list[str]:
        """The arrays whose layout differs from the compiled one (their names)."""
        compiled = {a.name: a for a in self.compiled_arrays}
        return [a.name for a in arrays if a.name in compiled and
                (a.padding, a.transform, a.dims, a.dtype, a.base) != (compiled[a.name].padding,
                 compiled[a.name].transform, compiled[a.name].dims, compiled[a.name].dtype, compiled[a.name].base)]


@dataclass(frozen=True)
class Instruction:
    """One shared-memory instruction in the kernel, executed by every warp of the block.

    Either ``array`` + ``index`` (one expression per dimension, in terms of the thread) or
    ``addresses`` (32 explicit byte offsets, ``None`` = inactive lane, as the hardware data).
    """

    kind: str = "load"
    width: int | None = None  # bytes per lane; None = the array's element size
    matrices: int = 1  # ldmatrix/stmatrix .x1/.x2/.x4
    trans: bool = False
    array: str | None = None
    index: tuple[str, ...] = ()
    loops: tuple[Loop, ...] = ()
    active: str = ""  # condition; empty = every thread
    repeat: int = 1
    addresses: tuple[int | None, ...] | None = None
    label: str = ""
    space: str = "shared"  # loads/stores: "generic" = through a generic pointer (SASS LD/ST)
    op: str = "add"  # atomics: add (a float add on float arrays), min, max, ..., exch, cas, popc_inc
    aggregate: bool = False  # atomics: warp-aggregated by the compiler, one lane per warp issues it
    pc: int | None = None  # explicit-address traces: the program counter of the instruction (for per-pc totals)
    #: an executed kernel's instruction: its recorded executions (instead of index expressions)
    recorded: Recorded | None = None

    @property
    def explicit(self) -> bool:
        return self.addresses is not None

    @property
    def is_matrix(self) -> bool:
        return self.kind in MATRIX_KINDS

    def lane_width(self, arrays: dict[str, SharedArray]) -> int:
        if self.is_matrix:
            return 16
        if self.width is not None:
            return self.width
        if self.array in arrays:
            return arrays[self.array].elem_size
        return 4

    def atomic_op(self, arrays: dict[str, SharedArray]) -> str:
        """The operation the hardware sees: ``atomicAdd`` on a float array is a float add."""
        if self.op == "add" and self.array in arrays and arrays[self.array].dtype in FLOAT_TYPES:
            return "fadd"
        return self.op

    def engine_kind(self, arrays: dict[str, SharedArray]) -> int:
        """The engine's code for this instruction (see :func:`hardware.kind_code`)."""
        return kind_code(self.kind, self.lane_width(arrays), self.space, self.atomic_op(arrays))

    def note(self, arrays: dict[str, SharedArray]) -> str:
        """What a user should know about how this instruction compiles, or ""."""
        if self.kind != "atomic":
            return ""
        op, w = self.atomic_op(arrays), self.lane_width(arrays)
        if self.aggregate:
            return "warp-aggregated by the compiler: one lane per warp issues the atomic"
        if op == "cas":
            return "compare-and-swap goes through the banks twice"
        if op == "popc_inc":
            return "ATOMS.POPC.INC (atomicAdd(p, 1), result unused): lanes on one word merge, it costs like a load"
        if not atomic_is_native(op, w):
            return (f"no {w * 8}-bit {op} instruction: compiled to a load plus a compare-and-swap loop "
                    "(ATOMS.CAST.SPIN) that serves one lane per bank per iteration; the loop's loads are counted "
                    "with it, each with its own ideal (a conflict-free loop has no excess); warps looping on the same word at the same time retry a little more (not counted)"
                    + ("; lanes sharing a 64-bit address retried more often on the GPU" if w == 8 else ""))
        return ""

    def iterations(self) -> int:
        if self.recorded is not None:
            return 0  # counted by MAX_RECORDED_ROWS, not expanded per warp
        n = 1
        for lp in self.loops:
            n *= len(lp.values())
        return n

    def loop_values(self) -> Iterator[dict[str, int]]:
        """Every combination of loop values, outer loop first."""

        def rec(k: int, acc: dict[str, int]):
            if k == len(self.loops):
                yield dict(acc)
                return
            lp = self.loops[k]
            for v in lp.values():
                acc[lp.var] = v
                yield from rec(k + 1, acc)

        yield from rec(0, {})

    def title(self) -> str:
        """How the instruction reads in lists: ``load.v4 tile[y][x]`` / ``ldmatrix.x4.trans``."""
        if self.label:
            return self.label
        if self.is_matrix:
            head = f"{self.kind}.x{self.matrices}{'.trans' if self.trans else ''}"
        else:
            head = f"{self.kind}" + (f".{self.op}" if self.kind == "atomic" and self.op != "add" else "")
            head += " (generic)" if self.space == "generic" else ""
            head += f" {self.width}B" if self.width else ""
        if self.explicit:
            return f"{head} (explicit addresses)"
        idx = "".join(f"[{e}]" for e in self.index)
        return f"{head} {self.array}{idx}"

    def validate(self, arrays: dict[str, SharedArray]) -> list[tuple[str, str]]:
        p: list[tuple[str, str]] = []
        if self.kind not in KINDS:
            p.append(("kind", f"must be one of {', '.join(KINDS)}"))
            return p
        if self.is_matrix:
            if self.matrices not in (1, 2, 4):
                p.append(("matrices", "must be one of 1, 2, 4"))
        elif self.width is not None and self.width not in WIDTHS:
            p.append(("width", f"must be one of {', '.join(map(str, WIDTHS))}"))
        if self.kind == "atomic" and self.width not in (None, 4, 8) and not self.explicit:
            p.append(("width", "atomics are 4 or 8 bytes"))
        if self.kind == "atomic" and self.explicit and self.width not in (4, 8):
            p.append(("width", "atomics are 4 or 8 bytes"))
        if self.space not in SPACES:
            p.append(("space", f"must be one of {', '.join(SPACES)}"))
        elif self.space != "shared" and self.kind not in ("load", "store"):
            p.append(("space", f"only loads and stores can go through a generic address, not {self.kind}"))
        if self.op not in ATOMIC_OPS:
            p.append(("op", f"must be one of {', '.join(ATOMIC_OPS)}"))
        elif self.op != "add" and self.kind != "atomic":
            p.append(("op", f"only atomics have an operation, not {self.kind}"))
        if self.aggregate and self.kind != "atomic":
            p.append(("aggregate", f"only atomics can be warp-aggregated, not {self.kind}"))
        if not 1 <= self.repeat <= MAX_REPEAT:
            p.append(("repeat", f"must be from 1 to {MAX_REPEAT:,}"))
        if self.explicit:
            if not self.is_matrix and self.width is None:
                p.append(("width", "explicit addresses need a width"))
            return p
        if self.recorded is not None:
            if not self.is_matrix and self.width is None:
                p.append(("width", "recorded executions need a width"))
            if self.array is not None and self.array not in arrays:
                p.append(("array", f"unknown array {self.array!r}"))
            elif self.array is not None:
                el = self.recorded.element
                if el.size and int(el.max()) >= arrays[self.array].numel:
                    p.append(("recorded", f"an element index past the end of {self.array}"))
            return p
        if self.array not in arrays:
            known = ", ".join(arrays) or "none defined"
            p.append(("array", f"unknown array {self.array!r} (arrays: {known})"))
        elif len(self.index) != arrays[self.array].ndim:
            a = arrays[self.array]
            p.append(("index", f"{a.name} has {a.ndim} dimension(s), got {len(self.index)} index expression(s)"))
        total = 1
        names = set()
        for k, lp in enumerate(self.loops):
            if not lp.var.isidentifier() or lp.var in RESERVED_NAMES or lp.var in names:
                p.append((f"loops[{k}].var", f"{lp.var!r} cannot be a loop variable"))
            names.add(lp.var)
            if lp.step == 0:
                p.append((f"loops[{k}].step", "must not be 0"))
                continue
            if not len(lp.values()):  # else its index would name a loop variable that has no value
                p.append((f"loops[{k}]", f"'{lp.var}' takes no value (start {lp.start}, stop {lp.stop}, step "
                                         f"{lp.step}): the instruction would never execute"))
                continue
            total *= len(lp.values())
        if total > MAX_LOOP_ITERATIONS:
            p.append(("loops", f"{total:,} iterations is too many (at most {MAX_LOOP_ITERATIONS:,})"))
        return p


@dataclass(frozen=True)
class Figure:
    """How exported figures of this pattern look (saved with it, so a re-export matches)."""

    style: str = "default"  # default (the window's colours) | slide | dark
    title: str = ""  # empty: the pattern's name


@dataclass(frozen=True)
class Pattern:
    """Everything a file holds: hardware, block, arrays and the instructions that access them.
    Immutable: an edit is a new Pattern, which makes undo a swap."""

    name: str = "untitled"
    description: str = ""
    hardware: Hardware = NVIDIA_SM70_SM90
    arrays: tuple[SharedArray, ...] = ()
    block: tuple[int, int, int] = (32, 1, 1)
    constants: tuple[tuple[str, int], ...] = ()
    instructions: tuple[Instruction, ...] = ()
    figure: Figure = field(default_factory=Figure)
    kernel: KernelSource | None = None  # an imported kernel: its source, launch and run

    @property
    def threads(self) -> int:
        return self.block[0] * self.block[1] * self.block[2]

    @property
    def warps(self) -> int:
        W = self.hardware.warp_size
        return (self.threads + W - 1) // W

    def array_map(self) -> dict[str, SharedArray]:
        return {a.name: a for a in self.arrays}

    def shared_bytes(self) -> int:
        """Bytes of shared memory the arrays need (the end of the furthest array)."""
        return max((a.base + a.nbytes for a in self.arrays), default=0)

    def constant_map(self) -> dict[str, int]:
        return dict(self.constants)

    def validate(self) -> list[tuple[str, str]]:
        """Every structural problem, as (path, message); expressions are checked at analysis."""
        p: list[tuple[str, str]] = [(f"hardware.{w}", m) for w, m in self.hardware.validate()]
        if self.hardware.row_bytes < 16:
            p.append(("hardware", "banks x bank width must be at least 16 bytes"))
        for k, d in enumerate(self.block):
            if not isinstance(d, int) or d < 1:
                p.append((f"block[{k}]", "must be a positive integer"))
        if not p and self.threads > MAX_THREADS:
            p.append(("block", f"{self.threads:,} threads is more than a block can have ({MAX_THREADS})"))
        seen = set()
        for k, a in enumerate(self.arrays):
            p += [(f"arrays[{k}].{w}", m) for w, m in a.validate()]
            if a.name in seen:
                p.append((f"arrays[{k}].name", f"array {a.name!r} is defined twice"))
            seen.add(a.name)
        for name, _ in self.constants:
            if not name.isidentifier() or name in RESERVED_NAMES:
                p.append((f"constants.{name}", "is not a usable constant name"))
        arrays = self.array_map()
        for k, ins in enumerate(self.instructions):
            p += [(f"instructions[{k}].{w}", m) for w, m in ins.validate(arrays)]
        recorded = sum(len(ins.recorded) for ins in self.instructions if ins.recorded is not None)
        if recorded > MAX_RECORDED_ROWS:
            p.append(("instructions", f"{recorded:,} recorded warp instructions is too many for one pattern (at most "
                                      f"{MAX_RECORDED_ROWS:,})"))
        if not p:
            n = self.warps * sum(ins.iterations() for ins in self.instructions)
            if n > MAX_WARP_INSTRUCTIONS:
                p.append(("instructions", f"{n:,} warp instructions in one pass of the block is too many (at most "
                          f"{MAX_WARP_INSTRUCTIONS:,}): fewer threads, loop iterations or instructions"))
        return p

    def with_instruction(self, k: int, ins: Instruction) -> "Pattern":
        lst = list(self.instructions)
        lst[k] = ins
        return replace(self, instructions=tuple(lst))

    def with_array(self, k: int, arr: SharedArray) -> "Pattern":
        lst = list(self.arrays)
        old = lst[k]
        lst[k] = arr
        instrs = self.instructions
        if arr.name != old.name:  # a rename follows through to the instructions that use it
            instrs = tuple(replace(i, array=arr.name) if i.array == old.name else i for i in instrs)
        return replace(self, arrays=tuple(lst), instructions=instrs)
