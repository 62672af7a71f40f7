"""As written vs as compiled, per source line, from one engine: the emulator runs the unoptimised
build (``-G``: every access the source writes is its own instruction, on its own line) and the
optimised one, and each line lists the shared-memory instructions each build executed and their
wavefronts (fused vector accesses, atomic forms, removed or hoisted loads are what differ).

The unoptimised build reaches shared memory through generic addresses (``LD.E``), so its accesses
are named, and costed, as the shared instruction the source wrote (``LDS``, ``STS.64``, ``ATOMS``).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

import numpy as np

from ..model import hardware as hwr
from .run import KernelRun

_NAMES = {"load": "LDS", "load_generic": "LDS", "store": "STS", "ldmatrix": "LDSM", "stmatrix": "STSM"}
_SUFFIX = {1: ".U8", 2: ".U16", 8: ".64", 16: ".128"}


@dataclass(frozen=True)
class LineChange:
    line: int
    written: str  # "1,024 x LDS"
    compiled: str  # "512 x LDS + 128 x LDS.128"
    wavefronts_written: int
    wavefronts_compiled: int
    sass: tuple[str, ...]  # the line's shared-memory SASS as compiled, as disassembled

    @property
    def differs(self) -> bool:
        return self.written != self.compiled or self.wavefronts_written != self.wavefronts_compiled


def _counts(c: Counter) -> str:
    return " + ".join(f"{n:,} x {op}" for op, n in c.items() if n) or "-"


def _kind_names() -> dict[int, str]:
    names = {}
    for kind, code in hwr.KIND_CODE.items():
        names[code] = "ATOMS" if kind.startswith("atomic") else _NAMES.get(kind, kind.upper())
    return names


def written_name(kind_code: int, width: int) -> str:
    """The shared instruction an access of the unoptimised build stands for: ``LDS.64``, ``ATOMS``."""
    base = _kind_names()[int(kind_code)]
    if base in ("LDSM", "STSM"):
        return base
    if base == "ATOMS":
        return "ATOMS.64" if width == 8 else "ATOMS"
    return base + _SUFFIX.get(int(width), "")


def written_groups(acc) -> list[tuple[int, int, str, int, int, int, int]]:
    """An unoptimised run's accesses grouped by (line, instruction, the shared instruction they
    stand for): ``(line, index, name, executions, wavefronts, ideal, taint)`` per group, counted
    on whole arrays (a ``-G`` run of a CUB kernel records tens of thousands of accesses)."""
    if acc.index.size == 0:
        return []
    keys = np.stack([acc.line, acc.index, acc.kind, acc.width], axis=1).astype(np.int64)
    uniq, inv = np.unique(keys, axis=0, return_inverse=True)
    inv = inv.ravel()
    n = np.bincount(inv, minlength=len(uniq))
    wf, ideal = np.zeros(len(uniq), np.int64), np.zeros(len(uniq), np.int64)
    np.add.at(wf, inv, np.asarray(acc.wavefronts, np.int64))
    np.add.at(ideal, inv, np.asarray(acc.ideal, np.int64))
    starts = np.concatenate([[0], np.cumsum(n)[:-1]])
    taint = np.bitwise_or.reduceat(np.asarray(acc.taint, np.uint32)[np.argsort(inv, kind="stable")], starts)
    out: dict[tuple[int, int, str], list[int]] = {}  # kinds and widths that share a name, together
    for k, c, w, i, t in zip(uniq.tolist(), n.tolist(), wf.tolist(), ideal.tolist(), taint.tolist()):
        g = out.setdefault((k[0], k[1], written_name(k[2], k[3])), [0, 0, 0, 0])
        g[0], g[1], g[2], g[3] = g[0] + c, g[1] + w, g[2] + i, g[3] | t
    return [(*key, *vals) for key, vals in out.items()]


def per_line(run: KernelRun, as_written: bool | None = None) -> tuple[dict[int, Counter], Counter, dict[int, list[str]]]:
    """Per source line: how many warp instructions of each shared-memory instruction the run
    executed, their wavefronts, and (as compiled) the line's SASS. An unoptimised run's accesses
    are counted one per warp that accessed shared memory, under the name of the shared instruction
    they stand for, on the user's line (a header function's: the line that called it); an
    optimised run's as executed, by opcode."""
    as_written = (not run.optimized) if as_written is None else as_written
    counts: dict[int, Counter] = {}
    wavefronts: Counter = Counter()
    sass: dict[int, list[str]] = {}
    if as_written:
        for line, _i, name, n, wf, _ideal, _t in written_groups(run.accesses):
            counts.setdefault(line, Counter())[name] += n
            wavefronts[line] += wf
        return counts, wavefronts, sass
    for r in run.rows:
        if r.wavefronts is None:
            continue
        if r.guarded_off:
            continue
        sass.setdefault(r.line, []).append(r.sass)
        if r.executed:
            counts.setdefault(r.line, Counter())[r.opcode] += r.executed
            wavefronts[r.line] += r.wavefronts
    return counts, wavefronts, sass


def written_vs_compiled(written: KernelRun, compiled: KernelRun) -> list[LineChange]:
    """Every source line with a shared-memory access in either build, in line order."""
    w, wf_w, _ = per_line(written, as_written=True)
    c, wf_c, sass = per_line(compiled, as_written=False)
    return [LineChange(line, _counts(w.get(line, Counter())), _counts(c.get(line, Counter())), wf_w[line], wf_c[line],
                       tuple(sass.get(line, ()))) for line in sorted(set(w) | set(c))]
