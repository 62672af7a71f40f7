"""An executed kernel as a pattern: every shared-memory warp instruction it executed, with its
lanes' addresses, source line and SASS; the arrays as the source declares them.

The pattern reopens to the same numbers with no compiler (its instructions are explicit
addresses), and ``analyze``, ``export`` and the window work on it like on any pattern.
"""

from __future__ import annotations

import re

import numpy as np

from ..model import hardware as hwr
from ..model.layout import DTYPES, SharedArray
from ..model.pattern import Instruction, Pattern
from .launch import SHARED_RESERVED
from .run import KernelRun

_KIND_NAMES = {v: k for k, v in hwr.KIND_CODE.items()}
_DECL = re.compile(r"__shared__\s+(?:__align__\s*\(\s*\d+\s*\)\s+)?(?:const\s+|volatile\s+)*"
                   r"([A-Za-z_][\w:]*(?:\s+[A-Za-z_]\w*)?)\s+(?:__align__\s*\(\s*\d+\s*\)\s+)?([A-Za-z_]\w*)\s*((?:\[[^\]]*\])*)")


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


def kernel_pattern(run: KernelRun, text: str, name: str, block_origin: str = "") -> Pattern:
    from ..cudaimport.types import dtype_of

    from .launch import constants

    arrays = []
    decls = _source_types(text)
    names = constants(text)
    for a in run.arrays or []:
        ctype, dim_texts = decls.get(a.name, ("", []))
        dtype = dtype_of(ctype) if ctype else None
        if dtype is None:
            dtype = {8: "double", 4: "int", 2: "short", 1: "char"}.get(a.align, "char") if a.size % max(a.align, 1) == 0 \
                else "char"
        es = DTYPES[dtype]
        numel = max(a.size // es, 1)
        arrays.append(SharedArray(name=a.name, dtype=dtype, dims=_dims(dim_texts, numel, names), base=a.offset - SHARED_RESERVED))
    acc = run.accesses
    rows = run.rows
    instructions = []
    for r in range(acc.index.size):
        k = int(acc.index[r])
        row = rows[k]
        kind = _KIND_NAMES[int(acc.kind[r])]
        op = "add"
        space = "shared"
        if kind == "load_generic":
            kind, space = "load", "generic"
        elif kind in ("atomic_cas", "atomic_cas_loop"):
            kind, op = "atomic", "cas"
        elif kind == "atomic_merged":
            kind, op = "atomic", "popc_inc"
        addrs = tuple(int(x) - SHARED_RESERVED if on else None for x, on in zip(acc.addr[r], acc.active[r]))
        mats = int(acc.matrices[r]) or 1
        instructions.append(Instruction(kind=kind, width=int(acc.width[r]) if kind not in hwr.MATRIX_KINDS else None,
                                        matrices=mats, addresses=addrs, label=f"L{row.line} {row.sass} (warp {int(acc.warp[r])})",
                                        space=space, op=op, pc=row.pc))
    return Pattern(name=name, block=run.block, arrays=tuple(arrays), instructions=tuple(instructions))
