"""Cases (one warp instruction per warp of a block) and the standalone CUDA program that runs them.

A *case* is one instruction executed once by every warp of a block, each warp with its own 32
lane addresses. The program gives every case its own kernel launch (one block, ``warps * 32``
threads) that issues the instruction :data:`REPS` times and touches shared memory in no other
way, so Nsight Compute's shared wavefront counters for that launch, divided by ``REPS``, are the
wavefronts of one pass of the block. The model predicts the same number: the sum over warps.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..model.engine import WarpBatch, count_wavefronts
from ..model.errors import BankExplorerError
from ..model.pattern import Pattern
from .ops import OPS, Op, op_for, op_named

REPS = 8
WARP = 32
MAX_SHARED = 227 * 1024  # the most dynamic shared memory one block can have on sm_90
MAX_CASES = 4096


@dataclass(frozen=True)
class Case:
    """One instruction, executed once by each warp: ``addresses[w][lane]`` (None = inactive)."""

    op: Op
    addresses: tuple[tuple[int | None, ...], ...]  # (warps, 32)
    label: str = ""
    source: dict = field(default_factory=dict, compare=False)  # where it came from (file, row id...)

    @property
    def warps(self) -> int:
        return len(self.addresses)

    def shared_bytes(self) -> int:
        top = max((a for w in self.addresses for a in w if a is not None), default=0)
        return top + self.op.width

    def rows(self) -> list[dict]:
        """One hardware-data-shaped row per warp (what the model reads)."""
        return [{"ptx": self.op.ptx, **self.op.model_fields(), "addresses": list(w)} for w in self.addresses]


def model_wavefronts(cases: list[Case]) -> list[int]:
    """The model's wavefronts for one pass of each case's block (sum over its warps)."""
    rows, owner = [], []
    for k, c in enumerate(cases):
        rows += c.rows()
        owner += [k] * c.warps
    if not rows:
        return []
    res = count_wavefronts(WarpBatch.from_rows(rows))
    wf = np.asarray(res.wavefronts, np.int64)
    if (wf < 0).any():
        bad = int(np.flatnonzero(wf < 0)[0])
        raise BankExplorerError(f"case {owner[bad]} ({cases[owner[bad]].label}): {res.error[bad]}")
    return [int(x) for x in np.bincount(np.array(owner), weights=wf, minlength=len(cases)).round()]


def case_from_row(row: dict, label: str = "") -> Case:
    """A case from a hardware-data row (``ptx`` + 32 addresses, or ``warp_addresses``)."""
    op = op_named(row["ptx"])
    warps = row.get("warp_addresses") or [row["addresses"]]
    return Case(op, tuple(tuple(w) for w in warps), label or f"row {row.get('id', '?')}",
                {"row": row.get("id")})


#: warp instructions one probe program may launch (32,000 rows write 5 MB of CUDA in 0.7 s)
MAX_PROBE_ROWS = 50_000


def cases_from_pattern(pattern: Pattern, name: str = "") -> tuple[list[Case], list[str]]:
    """One case per (instruction, loop iteration) of the pattern, all warps of the block together.

    Returns the cases and a message for each instruction that cannot run as a probe (an error in
    the pattern, or ldmatrix/stmatrix with some lanes of a warp switched off).
    """
    from ..model.analysis import analyze

    recorded = sum(len(ins.recorded) for ins in pattern.instructions if ins.recorded is not None)
    if recorded > MAX_PROBE_ROWS:  # before the analysis: 500,000 rows did not finish in 90 s
        raise BankExplorerError(f"{recorded:,} recorded warp instructions: a probe program holds at most "
                                f"{MAX_PROBE_ROWS:,} (each is a launch of its own); import a smaller block or "
                                f"fewer loop iterations")
    an = analyze(pattern, detail=False)
    if an.source.size > MAX_PROBE_ROWS:
        raise BankExplorerError(f"{an.source.size:,} warp instructions: a probe program holds at most "
                                f"{MAX_PROBE_ROWS:,} (each is a launch of its own); fewer threads or loop iterations")
    cases: list[Case] = []
    skipped: list[str] = []
    done: set[int] = set()
    for k, ins in enumerate(pattern.instructions):
        rows = an.rows_of(k)
        if k in an.instruction_errors or any(an.errors[r] for r in rows):
            skipped.append(f"instruction {k} ({ins.title()}): {an.instruction_errors.get(k, 'invalid')}")
            continue
        width = int(an.batch.width[rows[0]]) if rows.size else 4
        try:
            op = op_for(ins.kind, width, ins.matrices, ins.trans, ins.space, ins.atomic_op(pattern.array_map()))
        except BankExplorerError as e:
            skipped.append(f"instruction {k} ({ins.title()}): {e}")
            continue
        for it in sorted(set(int(x) for x in an.iteration[rows])):
            sel = rows[an.iteration[rows] == it]
            warps = []
            for r in sel:
                act = an.batch.active[r]
                addr = an.batch.addr[r]
                if op.is_matrix:
                    act = act & (np.arange(WARP) < 8 * ins.matrices)
                    need = np.arange(WARP) < 8 * ins.matrices
                    if act.any() and not act[need].all():
                        skipped.append(f"instruction {k} ({ins.title()}): {ins.kind} needs all "
                                       f"{8 * ins.matrices} address lanes of a warp or none")
                        done.add(k)
                        break
                warps.append(tuple(int(a) if on else None for a, on in zip(addr, act)))
            if k in done:
                break
            lv = an.loop_values[k][it] if an.loop_values[k] else {}
            it_label = (" " + ",".join(f"{n}={v}" for n, v in lv.items())) if lv else ""
            cases.append(Case(op, tuple(warps), f"{name}#{k} {ins.title()}{it_label}".strip(),
                              {"file": name, "instruction": k, "iteration": it}))
    return cases, skipped


def check_cases(cases: list[Case]) -> None:
    if not cases:
        raise BankExplorerError("nothing to measure: no instruction can run as a probe")
    if len(cases) > MAX_CASES:
        raise BankExplorerError(f"{len(cases):,} probe cases is too many (at most {MAX_CASES:,}); "
                                "shorten the loops or split the pattern")
    for c in cases:
        if not 1 <= c.warps <= 32 or any(len(w) != WARP for w in c.addresses):
            raise BankExplorerError(f"{c.label}: a case needs 1 to 32 warps of 32 addresses")
        if c.shared_bytes() > MAX_SHARED:
            raise BankExplorerError(f"{c.label}: needs {c.shared_bytes():,} bytes of shared memory, "
                                    f"more than a block can have ({MAX_SHARED:,})")
        for w in c.addresses:
            for lane, a in enumerate(w):
                if a is not None and (a < 0 or a % c.op.width):
                    raise BankExplorerError(f"{c.label}: lane {lane} address {a} is not a multiple of "
                                            f"{c.op.width}")


# ---- the program ------------------------------------------------------------------------------
_HEAD = r"""// Generated by BankExplorer (bankexplorer cuda): shared-memory wavefront probes.
// Build: nvcc -O3 -arch=sm_90 probe.cu -o probe
// Profile: ncu --metrics l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,\
//   l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,... ./probe
// Every launch is one case: one block of warps*32 threads; each thread reads its byte offset
// from TAB (-1 = lane inactive, predicated off) and issues the instruction REPS times with
// nothing else touching shared memory. Launches of probe_baseline (no shared access) measure
// the counters' constant part, which is subtracted.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define REPS %(reps)d
#define ZERO_SLOT 2047  // out[ZERO_SLOT] stays 0: kernels write out[threadIdx.x] only
#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    fprintf(stderr, "probe: %%s failed: %%s\n", #x, cudaGetErrorString(e_)); exit(1); } } while (0)

__global__ void probe_baseline(const int* __restrict__ tab, unsigned long long* out) {
    out[threadIdx.x] = (unsigned long long)tab[threadIdx.x];
}
"""

_KERNEL = r"""
// %(ptx)s  (expected SASS: %(sass)s)
__global__ void %(ident)s(const int* __restrict__ tab, unsigned long long* out) {
    extern __shared__ __align__(128) unsigned char smem[];
    const int a = tab[threadIdx.x];
    const unsigned act = a >= 0;
    const unsigned off = a >= 0 ? (unsigned)a : 0u;
%(address)s
    const unsigned v = threadIdx.x * 2654435761u;  // store/atomic operands
    unsigned long long acc = 0;
    (void)v; (void)act;
%(body)s
    out[threadIdx.x] = acc;
}
"""

_MAIN = r"""
struct Case { int kernel; int warps; int offset; int smem; const char* label; };
typedef void (*Kernel)(const int*, unsigned long long*);

static const Kernel KERNELS[] = {%(kernels)s};
static const int TAB[] = {%(tab)s};
static const Case CASES[] = {
%(cases)s
};

int main(int argc, char** argv) {
    const bool quiet = argc > 1 && argv[1][0] == '-' && argv[1][1] == 'q';
    const int ncases = (int)(sizeof(CASES) / sizeof(CASES[0]));
    int* dtab = 0;
    unsigned long long* dout = 0;
    CHECK(cudaMalloc(&dtab, sizeof(TAB)));
    CHECK(cudaMemcpy(dtab, TAB, sizeof(TAB), cudaMemcpyHostToDevice));
    CHECK(cudaMalloc(&dout, (ZERO_SLOT + 1) * sizeof(unsigned long long)));
    CHECK(cudaMemset(dout, 0, (ZERO_SLOT + 1) * sizeof(unsigned long long)));
    for (int k = 0; k < (int)(sizeof(KERNELS) / sizeof(KERNELS[0])); ++k)
        CHECK(cudaFuncSetAttribute(KERNELS[k], cudaFuncAttributeMaxDynamicSharedMemorySize, %(max_shared)d));
    for (int i = 0; i < ncases; ++i) {
        const Case& c = CASES[i];
        KERNELS[c.kernel]<<<1, c.warps * 32, c.smem>>>(dtab + c.offset, dout);
        CHECK(cudaGetLastError());
        CHECK(cudaDeviceSynchronize());
        if (!quiet) printf("case %%d: %%s (%%d warp%%s)\n", i, c.label, c.warps, c.warps > 1 ? "s" : "");
    }
    CHECK(cudaFree(dtab));
    CHECK(cudaFree(dout));
    printf("probe: %%d launches done\n", ncases);
    return 0;
}
"""


@dataclass
class Launch:
    """One kernel launch of the program, in launch order (what the profiler lists)."""

    kernel: str
    warps: int
    case: int | None  # index into the cases, None for a baseline launch


def _c_string(s: str) -> str:
    return '"' + "".join(c if c.isprintable() and c not in '"\\?' else f"\\x{ord(c) & 0xff:02x}" for c in s[:120]) + '"'


def _address_code(op: Op) -> str:
    """How the kernel forms the lane's address (only what the op uses: no unused variables)."""
    if op.space == "generic":  # a plain generic pointer into the shared window: SASS LD/ST
        # XOR with a zero the compiler cannot see (read from global memory), so that ptxas cannot
        # prove the pointer is shared and turn LD into LDS
        return ("    const unsigned long long z = *(volatile unsigned long long*)(out + ZERO_SLOT);\n"
                "    unsigned char* ga = (unsigned char*)((((unsigned long long)smem) ^ z) + off);")
    code = "    const unsigned sa = (unsigned)__cvta_generic_to_shared(smem) + off;"
    if op.is_matrix:  # .sync.aligned: the whole warp executes it or none of it does
        code += "\n    const unsigned wact = __any_sync(0xffffffffu, a >= 0);"
    return code


def plan_launches(cases: list[Case]) -> list[Launch]:
    """Baselines first (one per block size in use), then the cases in order."""
    sizes = sorted({c.warps for c in cases})
    return [Launch("probe_baseline", w, None) for w in sizes] + [
        Launch(c.op.ident, c.warps, k) for k, c in enumerate(cases)]


def generate_source(cases: list[Case]) -> str:
    """The whole standalone ``.cu`` program for these cases."""
    check_cases(cases)
    ops: list[Op] = []
    for c in cases:
        if c.op not in ops:
            ops.append(c.op)
    parts = [_HEAD % {"reps": REPS}]
    for op in ops:
        body = "\n".join("    " + op.statement(r) for r in range(REPS))
        parts.append(_KERNEL % {"ptx": op.ptx, "sass": op.sass, "ident": op.ident, "body": body,
                                "address": _address_code(op)})
    kernels = ["probe_baseline"] + [op.ident for op in ops]
    tab: list[int] = []
    lines = []
    for ln in plan_launches(cases):
        off = len(tab)
        if ln.case is None:
            tab += [-1] * (ln.warps * WARP)
            lines.append(f"    {{0, {ln.warps}, {off}, 0, \"baseline\"}},")
            continue
        c = cases[ln.case]
        for w in c.addresses:
            tab += [-1 if a is None else a for a in w]
        smem = (c.shared_bytes() + 127) // 128 * 128
        lines.append(f"    {{{kernels.index(c.op.ident)}, {c.warps}, {off}, {smem}, {_c_string(c.label)}}},")
    tab_text = ",\n".join(",".join(str(x) for x in tab[i:i + 32]) for i in range(0, len(tab), 32))
    parts.append(_MAIN % {"kernels": ", ".join(kernels), "tab": tab_text, "cases": "\n".join(lines),
                          "max_shared": MAX_SHARED})
    return "".join(parts)


def all_ops() -> list[Op]:
    return list(OPS.values())
