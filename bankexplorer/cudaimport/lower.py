"""Instructions: turn what the walk found into a Pattern (arrays, instructions, the numbers of the
settings written in comments, which :func:`bankexplorer.sass.launch.setting_comments` finds)."""

from __future__ import annotations

import re
from dataclasses import replace

import numpy as np

from ..model import expr as E
from ..model.errors import BankExplorerError
from ..model.layout import SharedArray
from ..model.pattern import MAX_THREADS, Pattern
from .options import ImportOptions
from .result import Diagnostic, ImportResult
from .syntax import Source
from .walk_state import WalkState


def _setting(key: str, raw: tuple[str, int, int], consts, diags: list[Diagnostic]) -> tuple[int, ...] | None:
    """A directive's numbers, worked out with the model's expression language (nothing is run),
    or None with a warning saying what to write."""
    value, line, col = raw
    if re.fullmatch(r"\d+(\s*x\s*\d+)+", value):
        parts = re.split(r"\s*x\s*", value)  # 32x8
    else:
        parts = [p.strip() for p in value.split(",")]
    nums: list[int] = []
    for part in parts:
        try:
            e = E.parse(part)
            env = consts() if e.names else {}
            nums.append(int(e.evaluate({k: np.int64(v) for k, v in env.items()})))
        except BankExplorerError:
            nums = []
            break
    if key == "block" and 1 <= len(nums) <= 3 and min(nums) >= 1 and int(np.prod(nums)) <= MAX_THREADS:
        return tuple(nums) + (1,) * (3 - len(nums))
    if key == "extern-size" and len(nums) == 1 and 1 <= nums[0] <= 1 << 30:
        return tuple(nums)
    want = f"1 to 3 sizes with at most {MAX_THREADS} threads, e.g. 'block: 32, 8'" if key == "block" \
        else "a number of bytes (or a constant expression), e.g. 'extern-size: 4096'"
    diags.append(Diagnostic(line, col, f"comment {key!r}: {value!r} not understood (write {want})", "warning"))
    return None


def _unpad_where_indexed(pat: Pattern) -> Pattern:
    """``tile[N][N + 1]`` shows the ``+ 1`` as padding; but a halo tile ``tile[16 + 2*R][16 + 2*R]``
    indexes those columns: where an access reaches past the unpadded row, the columns are the array's."""
    from ..model.analysis import analyze

    errors = analyze(pat, detail=False).instruction_errors
    reached = {pat.instructions[k].array for k, msg in errors.items() if "out of bounds" in msg}
    if not reached:
        return pat
    arrays = tuple(replace(a, dims=a.dims[:-1] + (a.dims[-1] + a.padding,), padding=0)
                   if a.name in reached and a.padding else a for a in pat.arrays)
    return replace(pat, arrays=arrays)


def _build(src: Source, opts: ImportOptions, tr: WalkState, block: tuple[int, int, int], origin: str,
           diags: list[Diagnostic]) -> ImportResult:
    arrays: list[SharedArray] = []
    base = 0
    ext_arrays = []
    for a in tr.arrays.values():
        if a.extern:
            ext_arrays.append(a)
            continue
        sa = SharedArray(a.name, a.dtype, a.dims, a.padding, base)
        arrays.append(sa)
        base = _align(base + sa.nbytes_padded())
    for a in ext_arrays:  # every extern __shared__ array starts where dynamic shared memory does
        arrays.append(SharedArray(a.name, a.dtype, a.dims, a.padding, base))
    instrs = list(tr.instrs)
    spans = list(tr.spans)
    if block[0] * block[1] * block[2] > MAX_THREADS or min(block) < 1:
        diags.append(Diagnostic(1, 1, f"block {block[0]}x{block[1]}x{block[2]} is not a valid block size "
                                      f"(1 to {MAX_THREADS} threads): using 32x1x1", "error"))
        block = (32, 1, 1)
    names: set[str] = set()
    for ins in instrs:
        for t in ins.index + ((ins.active,) if ins.active else ()):
            try:
                names |= E.parse(t).names
            except BankExplorerError:
                pass
    constants = tuple((k, v) for k, v in tr.consts.items() if k in names)
    pat = Pattern(name=opts.name, description=f"Imported from {len(src.text.splitlines())} lines of CUDA.",
                  hardware=opts.hardware, arrays=tuple(arrays), block=block, constants=constants,
                  instructions=tuple(instrs))
    if any(a.padding for a in arrays) and not pat.validate():
        pat = _unpad_where_indexed(pat)
        arrays = list(pat.arrays)
    if tr.flat_forms and not pat.validate():  # pointer offsets that cross rows: index by the flat offset
        from ..model.analysis import analyze

        bad = analyze(pat, detail=False).instruction_errors
        fixed = list(pat.instructions)
        for k, form in tr.flat_forms.items():
            if k in bad and "out of bounds" in bad[k]:
                fixed[k] = replace(fixed[k], index=form)
        instrs = fixed
        pat = replace(pat, instructions=tuple(fixed))
    # what the model itself rejects is reported at the line it came from, and left out
    problems = pat.validate()
    bad_arrays = {int(p.split("]")[0][len("arrays["):]) for p, _ in problems if p.startswith("arrays[")}
    bad_instrs: dict[int, str] = {}
    for p, msg in problems:
        if p.startswith("arrays["):
            k = int(p.split("]")[0][len("arrays["):])
            a = tr.arrays[arrays[k].name]
            diags.append(Diagnostic(*src.position(a.node), f"shared array {a.name!r}: {msg}", "error"))
        elif p.startswith("instructions["):
            k = int(p.split("]")[0][len("instructions["):])
            bad_instrs.setdefault(k, f"{p.split('.', 1)[-1]}: {msg}")
    drop_names = {arrays[k].name for k in bad_arrays}
    keep = [k for k, ins in enumerate(instrs) if k not in bad_instrs and ins.array not in drop_names]
    for k, msg in bad_instrs.items():
        s = spans[k]
        diags.append(Diagnostic(s.line, s.column, f"access not imported: {msg}", "error"))
    if bad_arrays or bad_instrs:
        pat = replace(pat, arrays=tuple(a for a in arrays if a.name not in drop_names),
                      instructions=tuple(instrs[k] for k in keep))
        spans = [spans[k] for k in keep]
    diags.sort(key=lambda d: (d.line, d.column))
    pos = {old: new for new, old in enumerate(keep)} if (bad_arrays or bad_instrs) else None
    twins = tuple((i, j, act) if pos is None else (pos[i], pos[j], act)
                  for i, j, act in tr.twins if pos is None or (i in pos and j in pos))
    barriers = tuple(sorted({b if pos is None else sum(1 for k in keep if k < b) for b in tr.barriers}))
    return ImportResult(pat, tuple(spans), tuple(diags), origin, twins=twins,
                        runtime_names=tuple(sorted(tr.runtime_names)), barriers=barriers)


def _align(n: int, a: int = 16) -> int:
    return (n + a - 1) // a * a
