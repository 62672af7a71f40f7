"""As compiled: make the imported pattern execute what nvcc's code executes.

The importer reads the source one access at a time ("as written"). The GPU runs what the compiler
emitted, which differs in three ways that change the numbers (measured on an H100 in
``resources/hardware/kernels/``):

* neighbouring accesses of unrolled code are fused into one wider ``LDS.64``/``LDS.128``
  (``STS`` too): iterations of the innermost loop, or several accesses on one line;
* atomics change form: ``ATOMS.POPC.INC`` for ``atomicAdd(p, 1)`` with the result unused, a
  warp-aggregated ``ATOMS`` (one lane) for a warp-uniform address, a compare-and-swap loop;
* accesses disappear (loads of memory nothing wrote, a load repeated on one line).

This stage compiles the text with NVRTC (``bankexplorer.compiler``), reads which shared-memory
instructions each source line has in the SASS, and adjusts the line's instructions until their
widths and counts are exactly the SASS's: it searches which fusions of the accesses (each checked
lane by lane for contiguity and alignment) give the compiled widths. Lines it cannot reconcile
stay as written and say so.
"""

from __future__ import annotations

import itertools
import os
import re
from collections import Counter
from dataclasses import dataclass, replace

import numpy as np

from ..compiler import nvrtc
from ..compiler.sass import Disassembly, SassInstruction
from ..model.hardware import AGGREGATABLE_OPS
from ..model.pattern import Instruction
from ..compiler.diagnostics import compiler_diagnostics
from ..compiler.kernel import compile_text
from .includes import IncludeError
from .result import Diagnostic, ImportResult, SourceSpan

#: SASS class of each model kind, as the profiler counts them
_CLASS = {"load": "ld", "ldmatrix": "ld", "store": "st", "stmatrix": "st", "atomic": "atom"}
_OPNAME = {"load": "LDS", "store": "STS", "atomic": "ATOMS", "ldmatrix": "LDSM", "stmatrix": "STSM"}
_WIDTH_SUFFIX = {1: ".U8", 2: ".U16", 4: "", 8: ".64", 16: ".128"}
MAX_POOL = 48  # accesses of the lines matched together (a fully unrolled loop of several lines)
MAX_SEARCH = 20000  # fusion choices tried per line before giving up (lines have a handful of accesses)


@dataclass(frozen=True)
class LineChange:
    """What one source line does as written and as compiled (shown by the CLI and the dialog)."""

    line: int
    written: str  # "16 x LDS"
    compiled: str  # "4 x LDS.128"
    wavefronts_written: int = 0
    wavefronts_compiled: int = 0
    note: str = ""
    sass: tuple[str, ...] = ()

    @property
    def differs(self) -> bool:
        """Does the compiler change what this line costs? A line that only hosts instructions of
        accesses written on other lines (an inlined function's body, a load sunk to its use) does not:
        those lines say what changed."""
        if self.written == "-":
            return False
        return self.written != self.compiled or self.wavefronts_written != self.wavefronts_compiled


@dataclass(frozen=True)
class Compiled:
    """The compile step's outcome, attached to the as-compiled ImportResult."""

    arch: str
    status: str  # "compiled" | "failed" | "unavailable" | "snippet" (no __global__ function to compile)
    message: str = ""
    sass: Disassembly | None = None
    changes: tuple[LineChange, ...] = ()
    written: ImportResult | None = None  # the import as written, for the comparison

    @property
    def measured_arch(self) -> bool:
        return self.arch in nvrtc.MEASURED_ARCHITECTURES


@dataclass
class _Acc:
    """One instruction of the as-written pattern while it is being adjusted."""

    k: int
    ins: Instruction
    span: SourceSpan
    iterations: int
    width: int
    addr: np.ndarray | None = None  # (L, warps, W)
    active: np.ndarray | None = None
    removed: bool = False
    merged_into: int | None = None
    new: Instruction | None = None
    forwardable: bool = False  # a load of values this thread loaded or stored just before (nothing between)
    copies: int = 1  # instructions the compiled code has for it (a vector load narrowed to some parts)
    written: int = 0  # iterations as written (``iterations`` may shrink while the line is matched)
    expanded: tuple[Instruction, ...] = ()  # the compiled code's instructions for it, one per chunk of iterations
    #: names in its index or condition: where some are the launch's values (``runtime_names``), nvcc
    #: sees only what the expressions say, not what they come to for the values the import took
    names: frozenset[str] = frozenset()
    runtime: bool = False

    def __post_init__(self) -> None:
        self.written = self.iterations


def import_compiled(text: str, options=None, arch: str = nvrtc.DEFAULT_ARCH, path: str | None = None) -> ImportResult:
    """Import ``text`` as compiled for ``arch``. Without NVRTC, or when the text does not compile,
    the as-written import comes back with ``compiled.status`` saying why."""
    from . import ImportOptions, import_cuda

    opts = options or ImportOptions()
    written = import_cuda(text, opts)
    if "__global__" not in text:
        return replace(written, compiled=Compiled(arch, "snippet", "compiling needs a whole kernel (a __global__ "
                                                                   "function)", written=written))
    if not nvrtc.available():
        return replace(written, compiled=Compiled(arch, "unavailable", nvrtc.INSTALL_HINT, written=written))
    try:
        dis, log = compile_text(text, arch, dict(opts.defines), path or opts.path, list(opts.include_dirs))
    except IncludeError as e:  # refused before anything reached the compiler
        said = any(d.line == e.line and d.severity == "error" for d in written.diagnostics)
        diags = tuple(written.diagnostics) + (() if said else (Diagnostic(e.line, 1, f"not compiled: {e.message}",
                                                                            "warning"),))
        return replace(written, diagnostics=diags,
                       compiled=Compiled(arch, "failed", f"not compiled: {e.message}", written=written))
    except Exception as e:  # a broken toolchain must not cost the import
        return replace(written, compiled=Compiled(arch, "failed", f"could not compile: {e}", written=written))
    if dis is None:
        diags = tuple(written.diagnostics) + tuple(compiler_diagnostics(log))
        return replace(written, diagnostics=diags,
                       compiled=Compiled(arch, "failed", "the text does not compile", written=written))
    if not dis.functions():
        return replace(written, compiled=Compiled(
            arch, "failed", "the compiler generated no code: give a template kernel's parameters values (-D NAME=VALUE, "
                            "or defaults in the template)", written=written))
    try:
        return adjust(written, dis, arch)
    except Exception as e:  # a case the matching does not handle must not cost the import
        return replace(written, compiled=Compiled(arch, "failed", f"could not follow the compiled code "
                                                                  f"({type(e).__name__}: {e})", dis, written=written))


def adjust(written: ImportResult, dis: Disassembly, arch: str = nvrtc.DEFAULT_ARCH) -> ImportResult:
    """The as-compiled ImportResult: ``written``'s instructions fused, re-formed or removed so that
    each source line has the shared-memory instructions the SASS has."""
    from ..model.analysis import analyze

    pat = written.pattern
    if written.twins:  # the same access in both branches of an if: nvcc makes it once, for all lanes
        merged = list(pat.instructions)
        for i, _j, outer in written.twins:
            merged[i] = replace(merged[i], active=outer)
        pat = replace(pat, instructions=tuple(merged))
    arrays = pat.array_map()
    accs: list[_Acc] = []
    for k, (ins, span) in enumerate(zip(pat.instructions, written.sources)):
        accs.append(_Acc(k, ins, span, ins.iterations(), ins.lane_width(arrays)))
        accs[-1].names = _names(ins)
        accs[-1].runtime = bool(accs[-1].names & set(written.runtime_names))
    for i, j, _outer in written.twins:
        accs[j].merged_into = i
    if pat.instructions:
        an = analyze(pat, detail=False)
        W = pat.hardware.warp_size
        for a in accs:
            rows = an.rows_of(a.k)
            if a.ins.explicit or rows.size == 0 or a.k in an.instruction_errors:
                continue
            a.addr = np.asarray(an.batch.addr[rows], np.int64).reshape(a.iterations, -1, W)
            a.active = an.batch.active[rows].reshape(a.iterations, -1, W)
        _mark_forwardable(accs, set(written.barriers))

    shared = dis.shared()
    by_line: dict[int, dict[str, list[SassInstruction]]] = {}
    for s in shared:
        by_line.setdefault(s.line, {}).setdefault(_CLASS[s.kind], []).append(s)
    src_lines: dict[int, dict[str, list[_Acc]]] = {}  # what each line's code must match
    all_lines: dict[int, dict[str, list[_Acc]]] = {}  # and what each line wrote (for the descriptions)
    for a in accs:
        all_lines.setdefault(a.span.code_line, {}).setdefault(_CLASS[a.ins.kind], []).append(a)
        if a.merged_into is None:
            src_lines.setdefault(a.span.code_line, {}).setdefault(_CLASS[a.ins.kind], []).append(a)

    # the loads of a compare-and-swap loop belong to its atomic, not to a source load
    for c in by_line.values():
        for _ in range(sum(1 for x in c.get("atom", []) if x.atomic_variant == "CAST.SPIN")):
            cand = [x for x in c.get("ld", []) if x.kind == "load"]
            if cand:
                c["ld"].remove(cand[0])
    line_notes: dict[int, list[str]] = {}
    for cls in ("ld", "st"):
        _reconcile_class(cls, src_lines, by_line, dis, line_notes)
    for line, c in src_lines.items():
        if c.get("atom"):
            line_notes.setdefault(line, []).extend(_atomics(c["atom"], by_line.get(line, {}).get("atom", []),
                                                            dis.aggregates_on(line)))
            spins = any(x.atomic_variant.startswith("CAST.SPIN") for x in by_line.get(line, {}).get("atom", []))
            if spins and any(_across_warps(a) for a in c["atom"]):
                line_notes[line].append(CONTENDED_LOOP)
    diags: list[Diagnostic] = []
    changes: list[LineChange] = []
    for line in sorted(set(all_lines) | {ln for ln in by_line if ln}):
        sass_here = by_line.get(line, {})
        src_here = all_lines.get(line, {})
        notes = line_notes.get(line, [])
        for n in notes:
            diags.append(Diagnostic(line, 1, f"as compiled: {n}", "note"))
        if src_here or any(sass_here.values()):
            changes.append(LineChange(line, _describe_written(src_here), _describe_compiled(src_here, sass_here),
                                      note="; ".join(notes), sass=tuple(x.text for c in sass_here.values() for x in c)))

    new_ins: list[Instruction] = []
    new_src: list[SourceSpan] = []
    for a in accs:
        if a.removed or a.merged_into is not None:
            continue
        if a.expanded:
            new_ins += a.expanded
            new_src += [a.span] * len(a.expanded)
            continue
        new_ins += [a.new or a.ins] * a.copies
        new_src += [a.span] * a.copies
    compiled_pat = replace(pat, instructions=tuple(new_ins))
    comp = Compiled(arch, "compiled", "", dis, tuple(changes), written)
    res = ImportResult(compiled_pat, tuple(new_src), tuple(written.diagnostics) + tuple(diags), written.block_origin,
                       compiled=comp)
    return _with_wavefronts(res)


def _with_wavefronts(res: ImportResult) -> ImportResult:
    """Fill each line's wavefronts as written and as compiled (one analysis of each pattern)."""
    from ..model.analysis import analyze

    comp = res.compiled
    if comp is None or comp.written is None:
        return res

    def per_line(r: ImportResult) -> Counter:
        c: Counter = Counter()
        if not r.pattern.instructions:
            return c
        an = analyze(r.pattern, detail=False)
        ok = an.ok
        wf = np.where(ok, an.result.wavefronts, 0) + np.where(ok, an.result.loop_load_wavefronts, 0)
        for k, span in enumerate(r.sources):
            c[span.code_line] += int(wf[an.source == k].sum())
        return c

    before, after = per_line(comp.written), per_line(res)
    changes = tuple(replace(ch, wavefronts_written=before.get(ch.line, 0), wavefronts_compiled=after.get(ch.line, 0))
                    for ch in comp.changes)
    return replace(res, compiled=replace(comp, changes=changes))


def _reconcile_class(cls: str, src_lines: dict[int, dict[str, list[_Acc]]],
                     by_line: dict[int, dict[str, list[SassInstruction]]], dis: Disassembly,
                     notes: dict[int, list[str]]) -> None:
    """Loads (or stores) of the whole kernel: line by line first; then the lines that did not add up,
    the lines whose SASS is missing and the SASS on lines with no access are pooled and matched
    together (the line table puts an instruction where the compiler placed it: a load sunk to its
    use, two lines fused into one LDS.64, a load hoisted out of its loop)."""
    unresolved: list[int] = []
    missing: list[int] = []
    orphans: list[SassInstruction] = []
    hoisted: Counter = Counter()
    changed: dict[int, Counter] = {}  # lines matched only by changing their accesses (and what they hoisted)
    lines = sorted({ln for ln, c in src_lines.items() if c.get(cls)} | {ln for ln, c in by_line.items() if c.get(cls)})
    before = {id(a): _state(a) for ln in lines for a in src_lines.get(ln, {}).get(cls, [])}
    for ln in lines:
        srcs = src_lines.get(ln, {}).get(cls, [])
        sas = by_line.get(ln, {}).get(cls, [])
        if not srcs:
            orphans += sas
        elif not sas:
            missing.append(ln)
        else:
            ok, more, need = _match(srcs, sas, dis)
            notes.setdefault(ln, []).extend(more)
            hoisted += need
            if not ok:
                unresolved.append(ln)
            elif any(_changed(a, before[id(a)]) for a in srcs):
                changed[ln] = need
    for w, n in hoisted.items():  # a hoisted load's instruction sits before its loop, on another line
        for _ in range(n):
            o = next((x for x in orphans if x.width == w and not dis.in_loop(x)), None)
            if o is not None:
                orphans.remove(o)
    if (unresolved or missing) and (orphans or unresolved):
        if _pooled(unresolved + missing, unresolved, orphans, src_lines, by_line, cls, dis, notes):
            unresolved, missing, orphans = [], [], []
        else:
            # one line that cannot add up (a loop unrolled generically) must not keep its neighbours
            # from matching: each run of nearby lines, with the orphans near it, on its own
            for run in _runs(sorted(unresolved + missing)):
                if len(run) < 2:
                    continue
                near = [o for o in orphans if run[0] - 3 <= o.line <= run[-1] + 3]
                if _pooled(run, [ln for ln in run if ln in unresolved], near, src_lines, by_line, cls, dis, notes):
                    unresolved = [ln for ln in unresolved if ln not in run]
                    missing = [ln for ln in missing if ln not in run]
                    orphans = [o for o in orphans if o not in near]
    if unresolved and changed:
        # a neighbour that matched alone may have matched for a wrong reason (a load taken as kept in
        # a register where nvcc fused it with this line's): reopen the changed lines next to the
        # ones that did not add up, and match them together
        near = sorted(ln for ln in changed if any(abs(ln - u) <= 3 for u in unresolved + missing))
        group = sorted(set(unresolved + missing + near))
        if near and sum(len(src_lines[ln][cls]) for ln in group) <= MAX_POOL:
            kept = {id(a): _state(a) for ln in near for a in src_lines[ln][cls]}
            for ln in near:
                for a in src_lines[ln][cls]:
                    _restore(a, before[id(a)])
            if _pooled(group, sorted(set(unresolved) | set(near)), orphans, src_lines, by_line, cls, dis, notes):
                for ln in near:
                    notes[ln] = [n for n in notes[ln] if n.startswith("compiled together")]
                unresolved, missing, orphans = [], [], []
            else:
                for ln in near:
                    for a in src_lines[ln][cls]:
                        _restore(a, kept[id(a)])
    for ln in unresolved:
        # a line whose loop nvcc unrolled generically (its counts say nothing) may still have had a
        # loop-invariant load moved before the loop, where its instruction is an orphan: hoist it
        for a in src_lines[ln][cls]:
            if a.ins.kind != "load" or a.new is not None or not _invariant(a):
                continue
            o = next((x for x in orphans if x.width == a.width and not dis.in_loop(x)), None)
            if o is None:
                continue
            orphans.remove(o)
            _apply([(a, ("hoist",), [])])
            notes.setdefault(ln, []).append(f"nvcc loads {a.ins.array}[{', '.join(a.ins.index)}] once, before the "
                                            f"loop (its instruction is on line {o.line})")
    for ln in missing:
        accs = src_lines[ln][cls]
        for a in accs:
            a.removed = True
        what = "loads" if cls == "ld" else "stores"
        notes.setdefault(ln, []).append(f"nvcc removed the {what} of this line ({sum(a.iterations for a in accs)} per "
                                        f"thread): their values are never used, or the memory is never written")
    if orphans:
        by: dict[int, list[SassInstruction]] = {}
        for o in orphans:
            by.setdefault(o.line, []).append(o)
        for ln, xs in by.items():
            notes.setdefault(ln, []).append(f"{_summary(xs)} that the import did not model")


def _runs(lines: list[int], gap: int = 3) -> list[list[int]]:
    """Sorted line numbers cut where two are more than ``gap`` apart."""
    out: list[list[int]] = []
    for ln in lines:
        if out and ln - out[-1][-1] <= gap:
            out[-1].append(ln)
        else:
            out.append([ln])
    return out


def _pooled(group: list[int], with_code: list[int], orphans: list[SassInstruction],
            src_lines: dict[int, dict[str, list[_Acc]]], by_line: dict[int, dict[str, list[SassInstruction]]],
            cls: str, dis: Disassembly, notes: dict[int, list[str]]) -> bool:
    """Match the accesses of the lines ``group`` against the SASS of the lines ``with_code`` and
    the orphans, together; on success each line's note says so."""
    pool = [a for ln in group for a in src_lines[ln][cls]]
    sas = [x for ln in with_code for x in by_line[ln][cls]] + orphans
    if len(pool) > MAX_POOL:
        return False
    # a line with no code of its own whose every load reads what the thread just loaded or stored:
    # kept in registers (``temp[bi] += t`` after ``temp[ai] = temp[bi]``), not a choice to search
    regs = [a for ln in group if ln not in with_code and all(a.forwardable for a in src_lines[ln][cls])
            for a in src_lines[ln][cls]]
    for a in regs:
        a.removed = True
    ok, _more, _need = _match([a for a in pool if not a.removed], sas, dis)
    if not ok:
        for a in regs:
            a.removed = False
        return False
    for ln in group:
        notes[ln] = [n for n in notes.get(ln, []) if not n.startswith("the compiled code has")]
        notes[ln].append("compiled together with line(s) " + ", ".join(str(x) for x in sorted(group) if x != ln)
                         if len(group) > 1 else "its instructions sit on another line of the compiled code")
    return True


def _state(a: _Acc) -> tuple:
    """What a match may change of an access (the arrays by identity: a match replaces, never edits them)."""
    return (a.ins, a.iterations, a.removed, a.merged_into, a.new, a.copies, a.expanded, a.addr, a.active)


def _changed(a: _Acc, state: tuple) -> bool:
    now = _state(a)
    return now[:7] != state[:7] or now[7] is not state[7] or now[8] is not state[8]


def _restore(a: _Acc, state: tuple) -> None:
    """Undo a line's match (``state`` from ``_state``)."""
    a.ins, a.iterations, a.removed, a.merged_into, a.new, a.copies, a.expanded, a.addr, a.active = state


def _summary(sas: list[SassInstruction]) -> str:
    c = Counter(s.opcode.split(" ")[0] for s in sas)
    return " + ".join(f"{n} x {op}" if n > 1 else op for op, n in c.items())


def _op_text(kind: str, width: int) -> str:
    if kind in ("ldmatrix", "stmatrix"):
        return _OPNAME[kind]
    return _OPNAME[kind] + (_WIDTH_SUFFIX.get(width, "") if kind != "atomic" else "")


def _describe_written(src_here: dict[str, list[_Acc]]) -> str:
    c: Counter = Counter()
    for accs in src_here.values():
        for a in accs:
            c[_op_text(a.ins.kind, a.width)] += a.written
    return " + ".join(f"{n} x {op}" for op, n in c.items()) or "-"


def _describe_compiled(src_here: dict[str, list[_Acc]], sass_here: dict[str, list[SassInstruction]]) -> str:
    c: Counter = Counter()
    fused = 0
    if not src_here:  # instructions the line table puts here for accesses written elsewhere
        return " + ".join(f"{n} x {op}" for op, n in Counter(x.opcode for v in sass_here.values() for x in v).items()) \
            + " (of accesses on other lines)"
    for accs in src_here.values():
        for a in accs:
            if a.merged_into is not None:
                fused += a.iterations
                continue
            if a.removed:
                continue
            if a.expanded:
                for x in a.expanded:
                    c[_op_text(x.kind, x.width or a.width)] += 1
                continue
            ins = a.new or a.ins
            name = _op_text(ins.kind, ins.width or a.width)
            if ins.kind == "atomic":
                name = "ATOMS.POPC.INC" if ins.op == "popc_inc" else ("ATOMS (1 lane, aggregated)" if ins.aggregate
                                                                      else "ATOMS")
            c[name] += ins.iterations() * a.copies
    spins = [s for s in sass_here.get("atom", []) if s.atomic_variant == "CAST.SPIN"]
    if spins:
        c["LDS + ATOMS.CAST.SPIN loop"] += len(spins)
        c.pop("ATOMS", None)
    if not c and fused:
        return f"fused into an access of another line ({fused} per thread)"
    text = " + ".join(f"{n} x {op}" for op, n in c.items()) or "removed"
    return text + (f" ({fused} access{'es' if fused > 1 else ''} fused into another)" if fused else "")


# ---- loads and stores -------------------------------------------------------------------------
def _match(srcs: list[_Acc], sas: list[SassInstruction], dis: Disassembly) -> tuple[bool, list[str], Counter]:
    """Fuse, hoist or drop ``srcs`` until their widths and counts are the SASS's. Returns whether it
    worked, notes, and the hoisted instances whose instruction is expected on another line."""
    if any(a.ins.is_matrix for a in srcs):  # ldmatrix/stmatrix are never fused: nothing to reconcile
        return True, [], Counter()
    live = [a for a in srcs if a.addr is not None]
    if len(live) != len(srcs):
        return False, ["some accesses of this line could not be evaluated: shown as written"], Counter()
    out, inside = Counter(), Counter()
    loops = set()
    for x in sas:
        if x.kind in ("load", "store"):
            if dis.in_loop(x):
                inside[x.width] += 1
                loops.add(dis.loop_of(x))
            else:
                out[x.width] += 1
    # inside a compiled loop without a barrier or a shared store, an invariant load is hoisted out
    hoist_only = bool(inside) and not any(dis.loop_has(lp, ("BAR", "STS", "ATOMS")) for lp in loops if lp)
    notes: list[str] = []
    saved = [(a, a.ins, a.addr, a.active, a.iterations) for a in live]
    for attempt in ("as is", "dedupe", "collapse"):
        if attempt == "dedupe":
            dup = _dedupe(live)
            if not dup:
                continue
            notes.append(f"nvcc loads {dup} repeated access(es) of this line once")
        if attempt == "collapse":
            if inside:  # the compiled code loops: the loop-invariant case is the hoist above
                break
            col = sum(_collapse(a) for a in live if not a.removed)
            if not col:
                break
            notes.append(f"nvcc loads {col} access(es) once for all iterations of a loop their address does "
                         f"not depend on")
        found = _search([a for a in live if not a.removed], out, inside, hoist_only)
        if found is not None:
            plan, elsewhere = found
            _apply(plan)
            n_h = sum(1 for _a, op, _m in plan if op[0] == "hoist")
            if n_h:
                notes.append(f"nvcc loads {n_h} loop-invariant access(es) once, before the loop")
            return True, notes, elsewhere
    for a, ins, addr, active, iterations in saved:
        a.removed, a.ins, a.addr, a.active, a.iterations = False, ins, addr, active, iterations
    have = Counter()
    for a in srcs:
        have[a.width] += a.iterations
    widths = {x.width for x in sas if x.kind in ("load", "store")}
    generic = len(sas) > sum(have.values()) and all(a.ins.loops for a in srcs)
    if len(sas) > sum(have.values()) and len(have) == 1:  # (the walker may have unrolled the loop itself)
        # the same loop, its neighbouring accesses fused (s[x][2r] and s[x][2r + 1] as one LDS.64):
        # the wider width is nearly all of the code (the rest is the remainder's fallback)
        w = next(iter(have))
        main = Counter(x.width for x in sas if x.kind in ("load", "store")).most_common(1)[0][0]
        if main > w and main % w == 0:
            pairs = _cover_by_groups(live, main // w)
            if pairs is not None:
                _apply([(live[g[0]], ("group", g), [live[j] for j in g]) for g in pairs])
                return True, [f"the compiled code has {_summary(sas)} for a loop whose trip count depends on the "
                              f"thread (unrolled, with a remainder); each thread executes its accesses fused "
                              f"{main // w} by {main // w} into {main}-byte ones"], Counter()
    if len(have) == 1 and widths == set(have) and generic:
        # a loop whose trip count depends on the thread (``for (c = tid; c < 512; c += 128)``):
        # nvcc unrolls it with a remainder; each thread runs as many as the source says
        return False, [f"the compiled code has {_summary(sas)} for a loop whose trip count depends on the thread "
                       f"(unrolled, with a remainder); each thread executes "
                       f"{sum(have.values())} x {next(iter(have))}-byte, as written"], Counter()
    return False, [f"the compiled code has {_summary(sas)} where the source has "
                   + " + ".join(f"{n} x {w}-byte" for w, n in have.items()) + ": shown as written"], Counter()


def _cover_by_groups(accs: list[_Acc], f: int) -> list[list[int]] | None:
    """Groups of ``f`` accesses, each one contiguous aligned access (``_group_fusions``), that use
    every access exactly once; None if there are none."""
    left, out = set(range(len(accs))), []
    for i in range(len(accs)):
        if i not in left:
            continue
        g = next((g for g in _group_fusions(accs, i) if len(g) == f and set(g) <= left), None)
        if g is None:
            continue
        out.append(g)
        left -= set(g)
    return out if not left and out else None


def _mark_forwardable(accs: list[_Acc], barriers: set[int] = frozenset()) -> None:
    """Loads whose every lane reads what the same lane loaded or stored at the same address shortly
    before, with no store of that thread to those bytes and no barrier in between: nvcc may keep
    the value in a register instead (it proves it for some such loads, not all; the SASS count
    says how many)."""
    for i, a in enumerate(accs):
        if a.ins.kind != "load" or a.addr is None:
            continue
        for j in range(i - 1, max(i - 8, -1), -1):
            if j + 1 in barriers:  # other threads' stores are visible after it: the load must happen
                break
            b = accs[j]
            if b.addr is None or b.addr.shape != a.addr.shape:
                break
            if b.ins.kind in ("load", "store") and b.width == a.width and (b.active | ~a.active).all() \
                    and np.where(a.active, a.addr == b.addr, True).all():
                between = accs[j + 1:i]
                if all(c.ins.kind == "load" or (c.addr is not None and c.addr.shape == a.addr.shape and not (
                        c.active & a.active & (np.abs(c.addr - a.addr) < max(c.width, a.width))).any())
                       for c in between):
                    a.forwardable = True
                break


def _names(ins: Instruction) -> frozenset[str]:
    return frozenset(re.findall(r"[A-Za-z_]\w*", " ".join(ins.index) + " " + ins.active))


def _visibly_invariant(a: _Acc, var: str) -> bool:
    """Whether nvcc can see that the access does not change with loop ``var``: always, when the
    index uses no value of the launch (the addresses the import evaluated are the compiler's too);
    with one, only when the loop variable is not in the expressions at all."""
    return not a.runtime or var not in a.names


def _collapse(a: _Acc) -> int:
    """Unrolled code loads once what every iteration of a loop loads alike (``As[ty][k]`` inside a
    ``j`` loop it does not use): such loops of a load become one iteration. 1 if it changed."""
    if a.ins.kind != "load" or not a.ins.loops or a.addr is None:
        return 0
    dims = [len(lp.values()) for lp in a.ins.loops]
    rest = a.addr.shape[1:]
    A, M = a.addr.reshape(*dims, *rest), a.active.reshape(*dims, *rest)
    loops = list(a.ins.loops)
    changed = 0
    for d in range(len(dims)):
        if dims[d] < 2 or not _visibly_invariant(a, loops[d].var):
            continue
        A0, M0 = A.take([0], axis=d), M.take([0], axis=d)
        if (M == M0).all() and np.where(M, A == A0, True).all():
            A, M = A0, M0
            loops[d] = replace(loops[d], stop=loops[d].start + loops[d].step)
            changed = 1
    if changed:
        a.ins = replace(a.ins, loops=tuple(loops))
        a.iterations = a.ins.iterations()
        a.addr, a.active = A.reshape(a.iterations, *rest), M.reshape(a.iterations, *rest)
    return changed


def _invariant(a: _Acc) -> bool:
    """Same addresses and lanes in every iteration of the innermost loop."""
    if not a.ins.loops or a.addr is None or a.ins.kind != "load":
        return False
    n_in = len(a.ins.loops[-1].values())
    if n_in < 2 or not _visibly_invariant(a, a.ins.loops[-1].var):
        return False
    A = a.addr.reshape(-1, n_in, *a.addr.shape[1:])
    M = a.active.reshape(-1, n_in, *a.active.shape[1:])
    return bool((M == M[:, :1]).all() and np.where(M, A == A[:, :1], True).all())


def _dedupe(accs: list[_Acc]) -> int:
    """Loads that repeat an earlier load of the line exactly (same addresses, same lanes): gone."""
    n = 0
    for i, a in enumerate(accs):
        if a.removed or a.ins.kind != "load":
            continue
        for b in accs[:i]:
            if (a.runtime or b.runtime) and (a.ins.index, a.ins.active) != (b.ins.index, b.ins.active):
                continue  # equal only for the launch's values the import took: two loads for nvcc
            if (not b.removed and b.ins.kind == "load" and b.width == a.width and b.addr.shape == a.addr.shape
                    and np.array_equal(b.active, a.active) and np.array_equal(np.where(a.active, a.addr, 0),
                                                                              np.where(b.active, b.addr, 0))):
                a.removed = True
                n += 1
                break
    return n


def _loop_fusions(a: _Acc) -> list[tuple[int, int]]:
    """(loop, f): f consecutive iterations of that loop (2, 4, ...) are one contiguous, aligned
    access of f times the width for every lane (``As[ty][k]`` over k; over any of the nested loops)."""
    out = []
    if not a.ins.loops or a.addr is None:
        return out
    dims = [len(lp.values()) for lp in a.ins.loops]
    rest = a.addr.shape[1:]
    for d, n in enumerate(dims):
        for f in (2, 4, 8, 16):
            wf = a.width * f
            if wf > 16 or n % f:
                continue
            shape = (int(np.prod(dims[:d], dtype=np.int64)), n // f, f, int(np.prod(dims[d + 1:], dtype=np.int64)), *rest)
            A = a.addr.reshape(shape)
            M = a.active.reshape(shape)
            if not (M == M[:, :, :1]).all():
                continue
            step = (np.arange(f) * a.width).reshape(1, 1, f, 1, *([1] * len(rest)))
            if np.where(M, A == A[:, :, :1] + step, True).all() and \
                    np.where(M[:, :, 0], A[:, :, 0] % wf == 0, True).all():
                out.append((d, f))
    return out


def _flat_chunks(a: _Acc) -> list[tuple[int, int]] | None:
    """Fully unrolled nested loops read as one run of iterations: nvcc fuses consecutive ones
    wherever they are contiguous and aligned, across the inner loop's end too (a 5x5 filter
    ``filt[i][j]`` is six LDS.128 and one LDS). (first iteration, count) per instruction, greedily
    widest first; None when nothing fuses or the loops' own fusions already say it."""
    if not a.ins.loops or a.addr is None or a.iterations < 3 or a.ins.kind not in ("load", "store"):
        return None
    A, M, w = a.addr, a.active, a.width
    n = A.shape[0]
    chunks: list[tuple[int, int]] = []
    t = 0
    while t < n:
        for f in (16 // w, 8 // w, 2, 1):
            if f < 1 or w * f > 16 or t + f > n or (f > 1 and (f & (f - 1))):
                continue
            if f == 1:
                break
            blk, msk = A[t:t + f], M[t:t + f]
            step = (np.arange(f) * w).reshape(f, *([1] * (A.ndim - 1)))
            if (msk == msk[:1]).all() and np.where(msk, blk == blk[:1] + step, True).all() and \
                    np.where(msk[0], blk[0] % (w * f) == 0, True).all():
                break
        else:
            f = 1
        chunks.append((t, f))
        t += f
    if all(f == 1 for _t, f in chunks):
        return None
    dims = [len(lp.values()) for lp in a.ins.loops]
    if len({f for _t, f in chunks}) == 1 and dims[-1] % chunks[0][1] == 0:
        return None  # the inner loop's fusion ("loop") says it
    return chunks


def _group_fusions(accs: list[_Acc], i: int) -> list[list[int]]:
    """Groups of accesses (``i`` first, at the lowest address) that are one contiguous aligned access."""
    a = accs[i]
    out = []
    peers = []
    for j, b in enumerate(accs):
        if j == i or b.ins.kind != a.ins.kind or b.width != a.width or b.ins.loops != a.ins.loops:
            continue
        if b.addr.shape != a.addr.shape or not np.array_equal(b.active, a.active):
            continue
        d = np.where(a.active, b.addr - a.addr, 0)
        vals = np.unique(d[a.active]) if a.active.any() else np.array([])
        if vals.size == 1 and vals[0] > 0 and vals[0] % a.width == 0:
            peers.append((int(vals[0]) // a.width, j))
    pos: dict[int, list[int]] = {}
    for m, j in peers:
        pos.setdefault(m, []).append(j)
    for f in (2, 4):
        if a.width * f > 16 or not all(m in pos for m in range(1, f)):
            continue
        if np.where(a.active, a.addr % (a.width * f) == 0, True).all():
            # several accesses may continue this one (the same bytes written on two lines): each choice
            for rest in itertools.islice(itertools.product(*[pos[m] for m in range(1, f)]), 16):
                out.append([i, *rest])
    return out


def _part_fusions(accs: list[_Acc], i: int) -> list[tuple[int, tuple[int, ...]]]:
    """(j, iterations): accesses ``j`` that continue ``i`` (the next ``width`` bytes, same lanes) in
    some iterations of their unrolled loops but not all: nvcc fuses those iterations into one
    access of twice the width and leaves the others apart (a Blelloch scan's last step, where
    ``ai`` and ``bi`` are neighbours, is one LDS.64; its other steps are two LDS)."""
    a = accs[i]
    if not a.ins.loops or a.addr is None or a.iterations > 64 or a.width * 2 > 16:
        return []
    out = []
    for j, b in enumerate(accs):
        if j == i or b.ins.kind != a.ins.kind or b.width != a.width or b.ins.loops != a.ins.loops:
            continue
        if b.addr is None or b.addr.shape != a.addr.shape or not np.array_equal(b.active, a.active):
            continue
        axes = tuple(range(1, a.addr.ndim))
        next_to = np.where(a.active, (b.addr == a.addr + a.width) & (a.addr % (2 * a.width) == 0), True).all(axis=axes)
        fused = tuple(int(t) for t in np.flatnonzero(next_to & a.active.any(axis=axes)))
        if fused and len(fused) < a.iterations:
            out.append((j, fused))
    return out


def _select_fusions(accs: list[_Acc], i: int) -> list[int]:
    """Accesses ``j`` of the same array, kind and width as ``i`` on lanes ``i`` never has: nvcc
    often makes them one instruction whose address is chosen per lane
    (``v = c ? s[a] : s[b]``, or the loads of an ``if``/``else``: one LDS at a selected address)."""
    a = accs[i]
    if a.ins.kind not in ("load", "store") or a.addr is None or not a.ins.active.strip():
        return []
    out = []
    for j, b in enumerate(accs):
        if j == i or b.ins.kind != a.ins.kind or b.width != a.width or b.ins.array != a.ins.array or \
                b.ins.loops != a.ins.loops or b.addr is None or b.addr.shape != a.addr.shape:
            continue
        if b.ins.active.strip() and a.active.any() and b.active.any() and not (a.active & b.active).any():
            out.append(j)
    return out


def _selected(a: Instruction, b: Instruction) -> Instruction:
    """One instruction for ``a`` and ``b``: ``a``'s address on its lanes, ``b``'s on the others."""
    index = tuple(f"({a.active}) ? ({x}) : ({y})" for x, y in zip(a.index, b.index))
    p, q = a.active.strip(), b.active.strip()
    both = "" if p in (f"!({q})", f"!{q}") or q in (f"!({p})", f"!{p}") else f"({p}) || ({q})"  # if / else
    return replace(a, index=index, active=both,
                   label=f"{a.label or a.title()} [one {_op_text(a.kind, a.width or 4)} with {b.label or b.title()}: "
                         f"the address chosen per lane]")


def _one_iteration(ins: Instruction, t: int, width: int | None = None) -> Instruction:
    """``ins`` at flat iteration ``t`` of its loops alone (optionally another width)."""
    dims = [len(lp.values()) for lp in ins.loops]
    vals = [list(lp.values()) for lp in ins.loops]
    at = np.unravel_index(t, dims)
    loops = tuple(replace(lp, start=vals[d][at[d]], stop=vals[d][at[d]] + lp.step) for d, lp in enumerate(ins.loops))
    if width is None:
        return replace(ins, loops=loops)
    return replace(ins, width=width, loops=loops, label=_relabel(ins, width))


def _search(accs: list[_Acc], out: Counter, inside: Counter, hoist_only: bool):
    """Choose per access: unchanged, fused along its loop, fused with others, or hoisted out of its
    innermost loop, so that the instances per thread come out as the SASS: ``out`` (instructions
    outside any compiled loop, each executed once) plus ``inside`` times the compiled loop's trip
    count. Fewest changes first. Returns (plan, hoisted instances expected on another line)."""
    options: list[list[tuple]] = []
    for i, a in enumerate(accs):
        inv = _invariant(a)
        opts: list[tuple] = [] if (inv and hoist_only) else [("keep",)]
        if inv:
            opts.append(("hoist",))
        if not (inv and hoist_only):
            opts += [("loop", d, f) for d, f in _loop_fusions(a)]
            opts += [("group", g) for g in _group_fusions(accs, i)]
        if a.ins.kind == "load" and a.width > 4:  # a vector load of which only some parts are used
            for w2 in sorted({w for w in (*out, *inside) if w < a.width and a.width % w == 0}):
                opts += [("narrow", w2, m) for m in range(1, a.width // w2)]
        if a.forwardable:
            opts.append(("forward",))
        if not inside and not inv:
            chunks = _flat_chunks(a)
            if chunks is not None:
                opts.append(("flat", chunks))
            opts += [("part", (j,), fused) for j, fused in _part_fusions(accs, i)]
        opts += [("select", (j,)) for j in _select_fusions(accs, i)]
        options.append(opts)
    sizes = [len(o) for o in options]
    if int(np.prod(sizes, dtype=float)) > MAX_SEARCH:
        choices = _fewest_changes_first(options)
    else:
        # fewest changes first; of the loads nvcc keeps in registers, the earliest first (it proves
        # the simple cases, which come first in an unrolled loop whose offsets shrink)
        choices = sorted(itertools.product(*[range(n) for n in sizes]),
                         key=lambda c: (sum(1 for i, x in enumerate(c) if options[i][x][0] != "keep"),
                                        [i for i, x in enumerate(c) if options[i][x][0] == "forward"]))
    for combo in choices:
        members: set[int] = set()
        ok = True
        for i, c in enumerate(combo):
            op = options[i][c]
            if op[0] in ("group", "part", "select"):
                g = set(op[1][1:]) if op[0] == "group" else set(op[1])
                if g & members or i in members or any(options[j][combo[j]][0] != "keep" for j in g):
                    ok = False
                    break
                members |= g
        if not ok:
            continue
        got: Counter = Counter()
        up: Counter = Counter()  # hoisted instances
        for i, c in enumerate(combo):
            if i in members:
                continue
            a, op = accs[i], options[i][c]
            if op[0] == "keep":
                got[a.width] += a.iterations
            elif op[0] == "hoist":
                up[a.width] += a.iterations // len(a.ins.loops[-1].values())
            elif op[0] == "loop":
                got[a.width * op[2]] += a.iterations // op[2]
            elif op[0] == "narrow":
                got[op[1]] += a.iterations * op[2]
            elif op[0] == "forward":
                pass
            elif op[0] == "flat":
                for _t, f in op[1]:
                    got[a.width * f] += 1
            elif op[0] == "select":
                got[a.width] += a.iterations
            elif op[0] == "part":
                b = accs[op[1][0]]
                got[a.width * 2] += len(op[2])
                got[a.width] += a.iterations + b.iterations - 2 * len(op[2])
            else:
                got[a.width * len(op[1])] += a.iterations
        for here, elsewhere in ((got + up, Counter()), (got, up)):
            rest = here.copy()
            rest.subtract(out)
            if any(v < 0 for v in rest.values()):
                continue
            rest = +rest
            if not inside:
                ok = not rest
            else:
                r = {rest[w] // n for w, n in inside.items() if n and rest[w] % n == 0 and rest[w]}
                ok = len(r) == 1 and all(rest[w] == next(iter(r)) * n for w, n in inside.items()) \
                    and set(rest) <= set(inside)
                if not ok and len(rest) > 1 and set(rest) == {w for w, n in inside.items() if n}:
                    # a loop nvcc unrolled u times with a remainder (its trip count is a launch value):
                    # the body holds u passes, so its widths come in the proportions of one pass (with
                    # one width that says nothing: such lines are left to the other rules)
                    w0 = next(iter(rest))
                    ok = all(rest[w] * inside[w0] == rest[w0] * inside[w] for w in rest)
            if ok:
                plan = [(accs[i], options[i][c], [accs[j] for j in (options[i][c][1] if options[i][c][0] in
                                                                     ("group", "part", "select") else [])])
                        for i, c in enumerate(combo) if i not in members]
                return plan, elsewhere
    return None


def _fewest_changes_first(options: list[list[tuple]]):
    """Choices of a big pool (lines matched together), with no change first, then one, two...:
    at most MAX_SEARCH of them (the product of every access's options would be astronomic)."""
    keep = [next((k for k, o in enumerate(opts) if o[0] == "keep"), None) for opts in options]
    forced = [i for i, k in enumerate(keep) if k is None]  # no "keep" among its options
    free = [i for i, k in enumerate(keep) if k is not None and len(options[i]) > 1]
    n = 0
    for k in range(len(free) + 1):
        for chosen in itertools.combinations(free, k):
            ranges = [[c for c in range(len(options[i])) if c != keep[i]] for i in chosen] + \
                     [list(range(len(options[i]))) for i in forced]
            for picks in itertools.product(*ranges):
                combo = [0 if x is None else x for x in keep]
                for i, c in zip([*chosen, *forced], picks):
                    combo[i] = c
                yield tuple(combo)
                n += 1
                if n >= MAX_SEARCH:
                    return


def _apply(plan) -> None:
    for a, op, members in plan:
        if op[0] == "hoist":
            lp = a.ins.loops[-1]
            a.new = replace(a.ins, loops=a.ins.loops[:-1] + (replace(lp, stop=lp.start + lp.step),),
                            label=f"{a.ins.label or a.ins.title()} [hoisted out of the {lp.var} loop]")
        elif op[0] == "loop":
            d, f = op[1], op[2]
            loops = list(a.ins.loops)
            loops[d] = replace(loops[d], step=loops[d].step * f)
            a.new = replace(a.ins, width=a.width * f, loops=tuple(loops), label=_relabel(a.ins, a.width * f))
        elif op[0] == "narrow":
            w2, m = op[1], op[2]
            a.copies = m
            a.new = replace(a.ins, width=w2,
                            label=f"{a.ins.label or a.ins.title()} [{m} x {_op_text(a.ins.kind, w2)}: "
                                  f"{m} of its {a.width // w2} parts are used]")
        elif op[0] == "forward":
            a.removed = True
        elif op[0] == "flat":
            dims = [len(lp.values()) for lp in a.ins.loops]
            vals = [list(lp.values()) for lp in a.ins.loops]
            out = []
            for t, f in op[1]:
                at = np.unravel_index(t, dims)
                loops = tuple(replace(lp, start=vals[d][at[d]], stop=vals[d][at[d]] + lp.step)
                              for d, lp in enumerate(a.ins.loops))
                out.append(replace(a.ins, width=a.width * f, loops=loops,
                                   label=_relabel(a.ins, a.width * f) if f > 1 else (a.ins.label or a.ins.title())))
            a.expanded = tuple(out)
        elif op[0] == "select":
            (b,) = members
            b.merged_into = a.k
            a.new = _selected(a.ins, b.ins)
        elif op[0] == "part":
            (b,), fused = members, set(op[2])
            a.expanded = tuple(_one_iteration(a.ins, t, a.width * 2 if t in fused else None)
                               for t in range(a.iterations))
            b.expanded = tuple(_one_iteration(b.ins, t) for t in range(b.iterations) if t not in fused)
        elif op[0] == "group":
            for b in members[1:]:
                b.merged_into = a.k
            a.new = replace(a.ins, width=a.width * len(members), label=_relabel(a.ins, a.width * len(members)))


def _relabel(ins: Instruction, width: int) -> str:
    op = _op_text(ins.kind, width)
    return f"{ins.label or ins.title()} [{op}]"


# ---- atomics ----------------------------------------------------------------------------------
CONTENDED_LOOP = ("a compare-and-swap loop that lanes of several warps run on the same address: how many passes "
                  "it takes depends on the order in which their attempts land (timing); the model counts each "
                  "warp as if it ran alone, a lower bound")


def _across_warps(a: _Acc) -> bool:
    """Some address is used by active lanes of two warps (in one iteration)."""
    if a.addr is None or a.addr.ndim != 3 or a.addr.shape[1] < 2:
        return False
    it, warp, _lane = np.nonzero(a.active)
    pairs = np.unique(np.stack([it, a.addr[a.active], warp]), axis=1)  # (iteration, address, warp), once each
    keys = pairs[:2]
    return bool((np.unique(keys, axis=1).shape[1]) < keys.shape[1])  # an (iteration, address) in two warps


def _warp_uniform(a: _Acc) -> bool:
    """Every active lane of each warp has the same address (nvcc may keep it in an ordinary register
    after proving it uniform: ``@P ATOMS.MAX [R11]`` after a REDUX)."""
    if a.addr is None or not a.active.any():
        return False
    first = np.take_along_axis(a.addr, np.argmax(a.active, axis=-1)[..., None], axis=-1)
    return bool(np.where(a.active, a.addr == first, True).all())


def _atomics(srcs: list[_Acc], sas: list[SassInstruction], aggregates: bool) -> list[str]:
    """Give each source atomic the form nvcc emitted for it (matched in order on the line)."""
    if not sas:
        for a in srcs:
            a.removed = True
        return ["nvcc removed the atomics of this line"]
    if len(sas) % len(srcs) and len(srcs) % len(sas):
        return [f"the compiled code has {_summary(sas)} for {len(srcs)} source atomic(s): shown as written"]
    notes = []
    for i, a in enumerate(srcs):
        s = sas[min(i, len(sas) - 1)]
        v = s.atomic_variant
        if v == "POPC.INC" and a.ins.op != "popc_inc":
            a.new = replace(a.ins, op="popc_inc", label=f"{a.ins.label or a.ins.title()} [ATOMS.POPC.INC]")
            notes.append("an increment with the result unused (atomicAdd(p, 1), atomicInc(p, ~0u)) is ATOMS.POPC.INC: "
                         "lanes on one word merge")
        elif ((s.uniform_address or _warp_uniform(a)) and s.predicate and aggregates and a.ins.op in AGGREGATABLE_OPS
              and v.split(".")[0] in ("ADD", "MIN", "MAX", "AND", "OR", "XOR")):
            a.new = replace(a.ins, aggregate=True, label=f"{a.ins.label or a.ins.title()} [aggregated]")
            notes.append("the address is the same for the whole warp: nvcc aggregates the warp and one lane "
                         "issues the atomic")
    return notes
