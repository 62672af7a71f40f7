"""As written vs as compiled, per source line: what reading the source one access at a time
predicts next to what the compiled code executed (fused vector accesses, atomic forms, removed
loads). The "as written" side is the source-level import; a line it cannot read is left out."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from .run import KernelRun

_OPS = {"load": "LDS", "store": "STS", "atomic": "ATOMS", "ldmatrix": "LDSM", "stmatrix": "STSM"}
_SUFFIX = {1: ".U8", 2: ".U16", 8: ".64", 16: ".128"}


@dataclass(frozen=True)
class LineChange:
    line: int
    written: str  # "128 x LDS"
    compiled: str  # "16 x LDS.128 + 64 x LDS"
    wavefronts_written: int
    wavefronts_compiled: int
    sass: tuple[str, ...]  # the line's shared-memory SASS, as disassembled

    @property
    def differs(self) -> bool:
        return self.written != self.compiled or self.wavefronts_written != self.wavefronts_compiled


def _counts(c: Counter) -> str:
    return " + ".join(f"{n:,} x {op}" for op, n in c.items() if n) or "-"


def written_vs_compiled(text: str, run: KernelRun, block, defines: dict, extern: int | None, path: str | None,
                        include_dirs: list[str]) -> list[LineChange]:
    from ..cudaimport import ImportOptions, import_cuda
    from ..model.analysis import analyze

    opts = ImportOptions(block=tuple(block), defines={k: int(v) for k, v in defines.items() if float(v).is_integer()},
                         extern_bytes=extern, path=path, include_dirs=list(include_dirs))
    try:
        res = import_cuda(text, opts)
        an = analyze(res.pattern, detail=False)
    except Exception:  # noqa: BLE001 - the comparison is a courtesy: the compiled numbers stand alone
        return []
    if any(d.severity == "error" for d in res.diagnostics):
        return []
    arrays = res.pattern.array_map()
    written: dict[int, Counter] = {}
    wf_written: Counter = Counter()
    for k, ins in enumerate(res.pattern.instructions):
        line = res.sources[k].line if k < len(res.sources) else 0
        rows = an.rows_of(k)
        if k in an.instruction_errors or not rows.size:
            continue
        w = ins.lane_width(arrays)
        name = _OPS[ins.kind] + ("" if ins.kind in ("atomic", "ldmatrix", "stmatrix") else _SUFFIX.get(w, ""))
        written.setdefault(line, Counter())[name] += int(rows.size)
        wf_written[line] += int(an.result.wavefronts[rows].sum())
    compiled: dict[int, Counter] = {}
    wf_compiled: Counter = Counter()
    sass: dict[int, list[str]] = {}
    for r in run.rows:
        if r.wavefronts is None:
            continue
        sass.setdefault(r.line, []).append(r.sass)
        if r.executed:
            op = r.sass.split()[0] if not r.sass.startswith("@") else r.sass.split()[1]
            compiled.setdefault(r.line, Counter())[op] += r.executed
            wf_compiled[r.line] += r.wavefronts
    out = []
    for line in sorted(set(written) | set(compiled)):
        out.append(LineChange(line, _counts(written.get(line, Counter())), _counts(compiled.get(line, Counter())),
                              wf_written[line], wf_compiled[line], tuple(sass.get(line, ()))))
    return out
