"""The source as written from the unoptimised build (-G): which of its instructions are the pieces
of one source access.

At -O0 NVVM copies a value of a vector or small struct type (``float2``, ``float4``, ``int4``,
``__half2``, a by-value ``float4`` argument) member by member: ``float2 v = s[i]`` becomes two
4-byte loads from one address register, ``[%rd5]`` and ``[%rd5+4]``. The source wrote one 8-byte
access (and the optimised build makes it one ``LDS.64``), so the as-written view counts such a run
as one access. Accesses the source writes separately (``s[2 * t] + s[2 * t + 1]``) are not runs:
at -O0 each computes its own address into its own register.

The runs are read from the PTX the cubin keeps (:func:`aggregate_runs`): consecutive generic loads
(or stores) of one width from one base register whose offsets cover 4, 8 or 16 contiguous bytes.
They are matched to the SASS by order within each function, where both list the same generic
loads and stores with the same widths (a function where they do not is left as it is). At run time
(:func:`merge_runs`) a warp's consecutive accesses through a run's instructions become one access
when their active lanes agree and each lane's bytes are contiguous and aligned to the whole.
"""

from __future__ import annotations

import re

import numpy as np

from .decode import Program
from .ops.memory import width_of

_FUNC = re.compile(r"^\s*(?:\.visible\s+|\.weak\s+|\.extern\s+)*\.(?:entry|func)\s+(?:\([^)]*\)\s*)?([\w$.]+)")
_MEM = re.compile(r"^\s*(?:@!?%p\d+\s+)?(ld|st)((?:\.\w+)*)\s+(.*?);")
_SPACES = {"shared", "global", "local", "param", "const", "tex", "surf"}
_BITS = re.compile(r"^[usbf](8|16|32|64)$")
_ADDR = re.compile(r"\[\s*(%\w+)\s*(?:\+\s*(-?\d+))?\s*\]")
#: bytes a run may cover: what one shared instruction can move
RUN_BYTES = (4, 8, 16)


def _ptx_ops(ptx: str) -> dict[str, list[tuple[str, int, str | None, int]]]:
    """Per PTX function, its generic loads and stores in order: (ld|st, width, base register, offset)."""
    funcs: dict[str, list] = {}
    cur = None
    for line in ptx.splitlines():
        m = _FUNC.match(line)
        if m:
            cur = funcs.setdefault(m.group(1), [])
            continue
        m = _MEM.match(line)
        if not m or cur is None:
            continue
        mods = [x for x in m.group(2).split(".") if x]
        if set(mods) & _SPACES:
            continue
        bits = next((int(b.group(1)) for x in mods if (b := _BITS.match(x))), None)
        if bits is None:
            continue
        vec = next((int(x[1:]) for x in mods if x in ("v2", "v4", "v8")), 1)
        a = _ADDR.search(m.group(3))
        cur.append((m.group(1), bits // 8 * vec, a.group(1) if a else None, int(a.group(2) or 0) if a else 0))
    return funcs


def aggregate_runs(ptx: str, program: Program) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """The runs of the -G program's instructions that copy one value member by member: (instruction
    indices in program order, each one's byte offset in the value)."""
    ptx_funcs = _ptx_ops(ptx)
    sass: dict[str, list[int]] = {}
    for k, ins in enumerate(program.instructions):
        if ins.base in ("LD", "ST"):
            sass.setdefault(ins.function, []).append(k)
    runs = []
    for func, idx in sass.items():
        ops = ptx_funcs.get(func)
        if ops is None or len(ops) != len(idx):
            continue
        kinds = [("ld" if program.instructions[k].base == "LD" else "st", width_of(program.instructions[k].mods))
                 for k in idx]
        if kinds != [(o[0], o[1]) for o in ops]:
            continue
        i = 0
        while i < len(ops):
            j = i + 1
            while j < len(ops) and ops[j][:3] == ops[i][:3] and ops[i][2] is not None and j - i < 4:
                j += 1
            n, w = j - i, ops[i][1]
            offsets = [ops[k][3] for k in range(i, j)]
            lo = min(offsets)
            if n >= 2 and n * w in RUN_BYTES and sorted(o - lo for o in offsets) == [w * k for k in range(n)]:
                runs.append((tuple(idx[i:j]), tuple(o - lo for o in offsets)))
                i = j
            else:
                i += 1
    return runs


def merge_runs(index: np.ndarray, warp: np.ndarray, width: np.ndarray, addr: np.ndarray, active: np.ndarray,
               runs) -> np.ndarray | None:
    """Rows (one per warp and issue, in issue order) of a run's instructions that one warp issued
    back to back, as one access: the first row gets the whole width and the value's address, the
    others are dropped. Changes ``width`` and ``addr`` in place; returns the rows to keep (None:
    nothing merged)."""
    first = {r[0][0]: r for r in runs}
    if not first or index.size == 0:
        return None
    starts = np.flatnonzero(np.isin(index, list(first)))
    if starts.size == 0:
        return None
    order = np.lexsort((np.arange(index.size), warp))  # each warp's rows, in issue order
    pos = np.empty_like(order)
    pos[order] = np.arange(order.size)
    keep = np.ones(index.size, bool)
    for r in starts.tolist():
        members, offsets = first[int(index[r])]
        p = int(pos[r])
        if p + len(members) > order.size:
            continue
        rows = order[p:p + len(members)]
        if (warp[rows] != warp[r]).any() or [int(index[x]) for x in rows] != list(members) or not keep[rows].all():
            continue
        act = active[r]
        if any((active[x] != act).any() for x in rows[1:]):
            continue
        base = addr[r] - offsets[0]
        total = int(width[r]) * len(members)
        if any(((addr[x] - o) != base)[act].any() for x, o in zip(rows, offsets)) or (base[act] % total).any():
            continue
        addr[r] = np.where(act, base, addr[r])
        width[r] = total
        keep[rows[1:]] = False
    return keep if not keep.all() else None
