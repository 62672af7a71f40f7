"""Reading a probe's measurements back: Nsight Compute CSV, the SASS listing, and the comparison
with the model. Pure text-in, numbers-out functions, so they are tested without a GPU.
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass, field

from ..model.errors import BankExplorerError
from .probe import REPS, Case, Launch

_WF = "l1tex__data_pipe_lsu_wavefronts_mem_shared"
#: wavefront counters: the total, and one per operation family
WAVEFRONT_METRICS = {
    "total": f"{_WF}.sum",
    "ld": f"{_WF}_op_ld.sum",
    "st": f"{_WF}_op_st.sum",
    "atom": f"{_WF}_op_atom.sum",
}
#: instruction counters, looked at for information (which counter an instruction lands in)
INSTRUCTION_METRICS = {
    "inst_ld": "smsp__sass_inst_executed_op_shared_ld.sum",
    "inst_st": "smsp__sass_inst_executed_op_shared_st.sum",
    "inst_atom": "smsp__sass_inst_executed_op_shared_atom.sum",
    "inst_ldsm": "smsp__sass_inst_executed_op_ldsm.sum",
    "inst_generic_ld": "smsp__sass_inst_executed_op_generic_ld.sum",
    "inst_generic_st": "smsp__sass_inst_executed_op_generic_st.sum",
    "inst_generic_atom": "smsp__sass_inst_executed_op_generic_atom.sum",
    "bank_conflicts": "l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum",
}
ALL_METRICS = {**WAVEFRONT_METRICS, **INSTRUCTION_METRICS}


def available_metrics(query_output: str) -> dict[str, str]:
    """The subset of :data:`ALL_METRICS` that ``ncu --query-metrics`` lists (base names)."""
    names = set(re.findall(r"^\s*([a-z0-9_]+__[a-z0-9_]+)", query_output, re.M))
    if not names:  # could not read the list: ask for everything and let ncu complain
        return dict(ALL_METRICS)
    return {k: m for k, m in ALL_METRICS.items() if m.rsplit(".", 1)[0] in names}


def _number(text: str) -> float | None:
    t = text.strip().replace(",", "")
    if t in ("", "n/a", "N/A"):
        return None
    try:
        return float(t)
    except ValueError:
        return None


def parse_ncu_csv(text: str) -> list[dict[str, float | str | None]]:
    """Rows of ``ncu --csv --page raw`` output (one per profiled launch, in launch order).

    Lines before the CSV header (the program's own output, ``==PROF==`` notes) and the units row
    are skipped.
    """
    lines = text.splitlines()
    start = next((i for i, ln in enumerate(lines) if ln.startswith('"ID"')), None)
    if start is None:
        raise BankExplorerError("no Nsight Compute CSV table in the profiler output")
    rows = []
    for rec in csv.DictReader(io.StringIO("\n".join(lines[start:]))):
        if not (rec.get("ID") or "").strip().isdigit():
            continue  # units row
        rows.append({k: (_number(v) if "__" in k else v) for k, v in rec.items() if k})
    return rows


_FUNC = re.compile(r"Function : (\S+)\n(.*?)(?=\n\s*Function : |\Z)", re.S)
_INSTR = re.compile(r"/\*[0-9a-f]{4,5}\*/\s+(?:@!?U?P[T0-9]+\s+)?([A-Z][A-Z0-9_]*(?:\.[A-Z0-9_]+)*)")
_MEMORY = re.compile(r"(LDS|STS|ATOMS|LDSM|STSM|LD|ST|ATOM|RED)(\.|$)")


def sass_memory_ops(cuobjdump_sass: str) -> dict[str, list[str]]:
    """Per kernel (mangled or plain name), the shared/generic memory instructions in order."""
    out: dict[str, list[str]] = {}
    for m in _FUNC.finditer(cuobjdump_sass):
        ops = [op for op in _INSTR.findall(m.group(2)) if _MEMORY.match(op)]
        out[m.group(1)] = ops
    return out


def check_sass(kernel_ops: list[str], expected: str, reps: int = REPS) -> tuple[bool, str]:
    """Does a kernel hold exactly ``reps`` of the expected instruction (and no other memory
    instruction)? Returns (ok, the opcode seen) -- e.g. ``LDS.128``.

    ``expected`` matches an opcode equal to it or extending it with suffixes (``ATOMS`` matches
    ``ATOMS.POPC.INC``; ``LD`` matches ``LD.E`` but not ``LDS``)."""
    hit = [o for o in kernel_ops if o == expected or o.startswith(expected + ".")]
    seen = sorted(set(kernel_ops))
    ok = len(hit) == reps and len(kernel_ops) == reps
    return ok, (hit[0] if hit and len(set(hit)) == 1 else "/".join(seen) or "none")


def find_kernel(sass: dict[str, list[str]], ident: str) -> list[str] | None:
    for name, ops in sass.items():
        if name == ident or name.startswith(f"_Z{len(ident)}{ident}"):  # plain or mangled
            return ops
    return None


@dataclass
class Result:
    """One case: the model's and the profiler's wavefronts for one pass of its block."""

    case: Case
    model: int
    measured: float | None
    counters: dict[str, float] = field(default_factory=dict)  # baseline subtracted, per pass
    sass: str = ""
    note: str = ""

    @property
    def match(self) -> bool:
        return self.measured is not None and abs(self.measured - self.model) < 1e-9

    @property
    def retried(self) -> bool:
        """A compare-and-swap loop (an atomic with no instruction of its own) whose count is not
        one pass: lanes that share an address make it retry, and min/max skip the swap when the
        value stays. The model gives one uncontended iteration; such a case is not a mismatch."""
        if not self.case.op.emulated or self.match:
            return False
        one_pass_each = all(len({a for a in w if a is not None}) == sum(a is not None for a in w)
                            for w in self.case.addresses)
        value_dependent = self.case.op.ptx.split(".")[2] in ("min", "max")
        return value_dependent or not one_pass_each

    @property
    def verdict(self) -> str:
        if self.measured is None:
            return "not measured"
        if self.match:
            return "ok"
        return "CAS loop retried" if self.retried else "DIFFERENT"


def results(cases: list[Case], launches: list[Launch], profile: list[dict], model: list[int],
            metrics: dict[str, str]) -> list[Result]:
    """Combine the profiler's rows (launch order) with the cases and the model.

    Measured wavefronts per block pass = (total shared wavefronts - the baseline launch's) / REPS.
    The per-operation counters are kept beside it: the op's own counter must agree with the total.
    """
    if len(profile) != len(launches):
        raise BankExplorerError(f"the profiler reported {len(profile)} launches, the program makes {len(launches)}")
    base: dict[int, dict[str, float]] = {}
    for ln, row in zip(launches, profile):
        if ln.case is None and row:
            base[ln.warps] = {k: float(row.get(m) or 0) for k, m in metrics.items()}
    out = []
    for ln, row in zip(launches, profile):
        if ln.case is None:
            continue
        c = cases[ln.case]
        b = base.get(ln.warps, {})
        counters = {k: (float(row[m]) - b.get(k, 0.0)) / REPS for k, m in metrics.items() if row.get(m) is not None}
        total = counters.get("total")
        # the op's own counter (op_ld/op_st/op_atom) is the measurement, as in the bundled data;
        # ldmatrix has none, so it is the total less the baseline launch's
        own = c.op.counter if c.op.counter != "ldsm" else None
        measured = counters[own] if own and own in counters else total
        res = Result(c, model[ln.case], measured, counters)
        if own and own in counters and total is not None and abs(counters[own] - total) > 1e-9:
            res.note = f"total counter says {total:g}"
        out.append(res)
    return out


def measured_row(res: Result, ident: int, family: str, info: dict | None = None) -> dict:
    """A result in the format of ``resources/hardware/h100_shared_wavefronts.jsonl``.

    One-warp cases give exactly that row; several warps add ``warps`` and ``warp_addresses``
    (``addresses`` is warp 0's) and ``wavefronts`` is the block's total divided by the warps.
    """
    c = res.case
    op = c.op
    row: dict = {"id": ident, "ptx": op.ptx, "sass": res.sass or op.sass, **op.model_fields()}
    row["addresses"] = list(c.addresses[0])
    total = res.measured
    row["wavefronts"] = total / c.warps if total is not None else None
    if op.space != "shared":
        row["space"] = op.space
    if c.warps > 1:
        row["warps"] = c.warps
        row["warp_addresses"] = [list(w) for w in c.addresses]
        row["wavefronts_block"] = total
    if op.emulated:
        row["emulated"] = True  # a load + ATOMS.CAST.SPIN loop: wavefronts of the CAS passes
        row["verdict"] = res.verdict
    row["family"] = family
    row["info"] = dict(info or {})
    nonzero = {k: v for k, v in res.counters.items() if k in WAVEFRONT_METRICS and k != "total" and v}
    if nonzero:
        row["info"]["counters"] = nonzero
    return row


def format_table(rs: list[Result]) -> str:
    lines = [f"{'#':>4} {'instruction':<44} {'warps':>5} {'model':>7} {'measured':>9}  verdict"]
    for k, r in enumerate(rs):
        m = "-" if r.measured is None else f"{r.measured:g}"
        verdict = r.verdict
        if r.note:
            verdict += f" ({r.note})"
        label = r.case.label if len(r.case.label) <= 44 else r.case.label[:43] + "…"
        lines.append(f"{k:>4} {label:<44} {r.case.warps:>5} {r.model:>7} {m:>9}  {verdict}")
    return "\n".join(lines)
