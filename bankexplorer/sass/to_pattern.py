"""An executed kernel as a pattern: its shared-memory SASS instructions, each with every execution
recorded (warp, and per lane the element of its array and the byte within it), the arrays as the
source declares them, and the kernel's source, launch and per-SASS counts.

The pattern reopens to the same numbers with no compiler, and ``analyze``, ``export``, the advisor
and the window work on it like on any pattern. Editing an array's padding or swizzle recomputes
the recorded elements' addresses through the new layout at once: a what-if, which the analysis
says, until the kernel is run again as compiled.
"""

from __future__ import annotations

import os
import re

import numpy as np

from ..model import hardware as hwr
from ..model.layout import DTYPES, SharedArray
from ..model.pattern import MAX_RECORDED_ROWS, Instruction, KernelSource, Pattern, Recorded
from .launch import SHARED_RESERVED, LaunchConfig, constants
from .run import KernelRun

_KIND_NAMES = {v: k for k, v in hwr.KIND_CODE.items()}
_DECL = re.compile(r"__shared__\s+(?:(?:__align__|alignas)\s*\(\s*\d+\s*\)\s+)?(?:const\s+|volatile\s+)*"
                   r"([A-Za-z_][\w:]*(?:\s+[A-Za-z_]\w*)?)\s+(?:__align__\s*\(\s*\d+\s*\)\s+)?([A-Za-z_]\w*)\s*((?:\[[^\]]*\])*)")


class PatternTooLarge(ValueError):
    pass


def _source_types(text: str) -> dict[str, tuple[str, list[str]]]:
    """name -> (element type, dimension texts) of the text's __shared__ declarations."""
    out = {}
    for m in _DECL.finditer(re.sub(r"//[^\n]*|/\*.*?\*/", " ", text, flags=re.S)):
        dims = re.findall(r"\[([^\]]*)\]", m.group(3))
        out.setdefault(m.group(2), (" ".join(m.group(1).split()), dims))
    return out


def _dims(texts: list[str], numel: int, names: dict[str, str]) -> tuple[int, ...]:
    """The declared dimensions (numbers or the text's integer constants) when they multiply to the
    array's size, else 1-D."""
    from .launch import _value

    vals = [_value(t, names) for t in texts]
    dims = tuple(vals) if vals and all(v is not None for v in vals) else ()
    if dims and int(np.prod(dims)) == numel and all(d > 0 for d in dims):
        return dims
    if len(vals) >= 2 and vals[-1] and numel % vals[-1] == 0:  # keep the row length when it is known
        return (numel // vals[-1], vals[-1])
    return (numel,)


#: the unsigned type of each word size a byte array can be drawn in
WORD_TYPES = {2: "unsigned short", 4: "uint32", 8: "uint64"}


def accessed_word(run: KernelRun, offset: int, size: int) -> int:
    """The word the instructions read and write a byte array in: the access width most of its warp
    instructions use (a wider vector taken as 8 bytes), halved until it divides the array's size
    and offset; 1 when bytes are what it is read in. A ``uint8 temp[4640]`` that the code uses
    as 32-bit words is drawn as 1,160 words, not 4,640 one-byte cells."""
    acc = run.accesses
    if acc.index.size == 0:
        return 1
    inside = acc.active & (acc.addr >= offset) & (acc.addr < offset + size)
    widths = acc.width[inside.any(axis=1)]
    widths = widths[widths > 0]
    if widths.size == 0:
        return 1
    sizes, counts = np.unique(np.minimum(widths, 8), return_counts=True)
    word = int(sizes[counts.argmax()])  # the width most of its warp instructions use (ties: the narrower)
    while word > 1 and (size % word or offset % word):
        word //= 2
    return word if word in WORD_TYPES else 1


def kernel_arrays(run: KernelRun, text: str) -> list[SharedArray]:
    """The shared arrays as the source declares them (element type and dimensions), at the offsets
    the compiled code uses them (0 = the first byte a kernel's arrays can have)."""
    from ..model.cuda_types import dtype_of

    arrays = []
    decls = _source_types(text)
    names = constants(text)
    for a in run.arrays or []:
        ctype, dim_texts = decls.get(a.name, ("", []))
        dtype = dtype_of(ctype) if ctype else None
        if dtype is None or a.size % DTYPES[dtype]:
            dtype = {8: "uint64", 4: "uint32", 2: "unsigned short"}.get(a.align, "uint8") \
                if a.size % max(a.align, 1) == 0 else "uint8"
        if DTYPES[dtype] == 1:  # storage of bytes (CUB's TempStorage, a char buffer): in its words
            word = accessed_word(run, a.offset, a.size)
            if word > 1:
                dtype, dim_texts = WORD_TYPES[word], []
        es = DTYPES[dtype]
        numel = max(a.size // es, 1)
        arrays.append(SharedArray(name=a.name, dtype=dtype, dims=_dims(dim_texts, numel, names),
                                  base=a.offset - SHARED_RESERVED))
    return arrays


def kernel_pattern(run: KernelRun, text: str, name: str, block_origin: str = "", cfg: LaunchConfig | None = None,
                   inputs: dict[str, str] | None = None, path: str | None = None) -> Pattern:
    arrays = kernel_arrays(run, text)
    acc = run.accesses
    if acc.index.size > MAX_RECORDED_ROWS:
        raise PatternTooLarge(f"the kernel executed {acc.index.size:,} shared-memory warp instructions: a pattern holds "
                              f"at most {MAX_RECORDED_ROWS:,} (a smaller block or loop, or --sass-json for the counts)")
    starts = np.array([a.base for a in arrays], np.int64)
    order = np.argsort(starts)
    addr = np.where(acc.active, acc.addr - SHARED_RESERVED, -1)
    # which array each lane's address lies in
    which = np.full(addr.shape, -1, np.int64)
    if arrays:
        pos = np.searchsorted(starts[order], addr, side="right") - 1
        cand = order[np.maximum(pos, 0)]
        ends = np.array([a.base + a.nbytes for a in arrays], np.int64)
        inside = (pos >= 0) & (addr >= 0) & (addr < ends[cand])
        which = np.where(inside, cand, -1)
    instructions = []
    for k in np.unique(acc.index):
        rows = np.flatnonzero(acc.index == k)
        srow = run.rows[int(k)]
        w = which[rows]
        hits = w[w >= 0]
        arr_i = int(np.bincount(hits).argmax()) if hits.size else -1
        a = arrays[arr_i] if arr_i >= 0 else None
        el = np.full(w.shape, -1, np.int64)
        off = np.zeros(w.shape, np.int64)
        if a is not None:
            mine = w == arr_i
            rel = addr[rows] - a.base
            el = np.where(mine, rel // a.elem_size, -1)
            off = np.where(mine, rel % a.elem_size, 0)
        kind = _KIND_NAMES[int(acc.kind[rows[0]])]
        op, space = "add", "shared"
        if kind == "load_generic":
            kind, space = "load", "generic"
        elif kind in ("atomic_cas", "atomic_cas_loop"):
            kind, op = "atomic", "cas"
        elif kind == "atomic_merged":
            kind, op = "atomic", "popc_inc"
        elif kind == "atomic":
            m = re.search(r"ATOMS\.(\w+)", srow.sass)
            op = {"ADD": "add", "MIN": "min", "MAX": "max", "INC": "inc", "DEC": "dec", "AND": "and", "OR": "or",
                  "XOR": "xor", "EXCH": "exch"}.get(m.group(1) if m else "", "add")
        rec = Recorded(acc.warp[rows].astype(np.int32), el.astype(np.int32), off.astype(np.int16),
                       addr[rows].astype(np.int32))
        matrices = int(acc.matrices[rows[0]]) or 1
        instructions.append(Instruction(
            kind=kind, width=None if kind in hwr.MATRIX_KINDS else int(acc.width[rows[0]]), matrices=matrices,
            array=a.name if a is not None else None, label=f"L{srow.line} {srow.sass}", space=space, op=op,
            pc=srow.pc, recorded=rec))
    src = KernelSource(
        text=text, file=os.path.basename(path) if path else "", arch=run.arch, block_index=tuple(run.block_index),
        grid=tuple(cfg.grid) if cfg else tuple(i + 1 for i in run.block_index),
        defines=tuple(sorted((k, v) for k, v in (cfg.scalars if cfg else {}).items())),
        inputs=tuple(sorted((inputs or {}).items())), compiled_arrays=tuple(arrays),
        sass=tuple((r.pc, r.sass, r.line, r.executed, r.threads, r.pred_on_threads,
                    -1 if r.wavefronts is None else r.wavefronts, -1 if r.ideal is None else r.ideal,
                    tuple(r.data), r.timing) for r in run.rows),
        notes=tuple(run.notes), timing_dependent=run.timing_dependent, warp_instructions=run.warp_instructions)
    return Pattern(name=name, block=run.block, arrays=tuple(arrays), instructions=tuple(instructions), kernel=src)
