"""Whole kernels on a GPU: a launcher for one block of a user's kernel, Nsight Compute's source page
read per SASS instruction, and its comparison with the emulator's run of the same block.

``scripts/verify_on_gpu.py --kernel FILE.cu`` uses these. They are text in, text or numbers out, so
they are tested without a GPU: the launcher as text, the source page on a recorded CSV.

The columns are those of ``bankexplorer import-cuda --sass-json`` (one row per SASS instruction):
``executed`` (warp instructions), ``threads``, ``pred_on_threads`` and, for shared-memory
instructions, ``wavefronts`` and ``ideal``.
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass, field

from ..model.errors import BankExplorerError
from ..sass.opcode import BRANCH_OPCODES, opcode_of

BUFFER_BYTES = 1 << 24
DEFAULT_INT = 64  # what a scalar parameter gets (as the bundled measurements and the emulator do)
DEFAULT_EXTERN = 48 * 1024
#: the first bytes of every pointer buffer the launcher writes out after the run
DUMP_BYTES = 1 << 16

#: ncu's source-page header -> the --sass-json column
SOURCE_COLUMNS = {
    "Instructions Executed": "executed",
    "Thread Instructions Executed": "threads",
    "Predicated-On Thread Instructions Executed": "pred_on_threads",
    "L1 Wavefronts Shared": "wavefronts",
    "L1 Wavefronts Shared Ideal": "ideal",
}
COUNTS = ("executed", "threads", "pred_on_threads", "wavefronts", "ideal")
#: the profiler command that prints the source page (the executable follows)
NCU_SOURCE_PAGE = ("--section", "SourceCounters", "--page", "source", "--print-source", "sass", "--csv")

_KERNEL = re.compile(r"__global__\s+(?:__launch_bounds__\s*\([^)]*\)\s*)?void\s+(\w+)\s*\(([^)]*)\)")
_EXTERN = re.compile(r"//\s*extern-size\s*[:=]\s*(\d+)", re.I)
_BLOCK = re.compile(r"//\s*block\s*[:=]\s*([\d ,]+)", re.I)
_INPUT = re.compile(r"//\s*input:\s*(\w+)\s*=\s*(\S+)")


def block_of(text: str, given: tuple[int, ...] | None = None) -> tuple[int, int, int]:
    """The block: given, else the text's ``// block: X, Y`` comment, else 32."""
    if given is None:
        m = _BLOCK.search(text)
        given = tuple(int(x) for x in m.group(1).replace(" ", "").split(",") if x) if m else (32,)
    b = tuple(given) + (1,) * (3 - len(given))
    if len(b) != 3 or min(b) < 1 or b[0] * b[1] * b[2] > 1024:
        raise BankExplorerError(f"block {b} is not a valid block (1 to 1,024 threads)")
    return b  # type: ignore[return-value]


def inputs_of(text: str) -> dict[str, str]:
    """The text's ``// input: NAME = FILE.npy`` lines: pointer parameter -> data file (relative to the text)."""
    return dict(_INPUT.findall(text))


def _c_string(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def launcher_source(text: str, block: tuple[int, int, int], ints: dict[str, int] | None = None,
                    inputs: dict[str, str] | None = None, dump_prefix: str | None = None) -> tuple[str, str]:
    """A standalone program that launches the text's first kernel once on one block: pointers get
    zeroed buffers of 16 MiB (``inputs``: parameter name -> a file of raw bytes read into the start
    of its buffer), other parameters a value (``ints`` by name, else 64, as the emulator's default).
    ``dump_prefix``: after the
    run, the first 64 KiB of pointer parameter ``i`` go to ``{dump_prefix}.arg{i}.bin``. The text's
    line numbers are kept (``#line``), so the profiler's source view matches the file."""
    m = _KERNEL.search(text)
    if not m:
        raise BankExplorerError("no '__global__ void name(...)' kernel found (template kernels need a launcher of "
                                "your own)")
    name, params = m.group(1), [p.strip() for p in m.group(2).split(",") if p.strip() and p.strip() != "void"]
    ints, inputs = ints or {}, inputs or {}
    setup, args, dumps = [], [], []
    for i, p in enumerate(params):
        pname = re.findall(r"\w+", p)[-1] if re.findall(r"\w+", p) else f"a{i}"
        if "*" in p:
            t = p.rsplit("*", 1)[0].replace("const", "").replace("__restrict__", "").strip()
            setup.append(f"{t} *a{i}; cudaMalloc(&a{i}, {BUFFER_BYTES}); cudaMemset(a{i}, 0, {BUFFER_BYTES});")
            if pname in inputs:
                setup.append(f"{{ static unsigned char h[{BUFFER_BYTES}]; FILE *f = fopen({_c_string(inputs[pname])}, "
                             f"\"rb\"); if (!f) {{ printf(\"cannot read the input of {pname}\\n\"); return 2; }} "
                             f"size_t n = fread(h, 1, {BUFFER_BYTES}, f); fclose(f); "
                             f"cudaMemcpy(a{i}, h, n, cudaMemcpyHostToDevice); }}")
            if dump_prefix is not None:
                dumps.append(f"{{ static unsigned char h[{DUMP_BYTES}]; cudaMemcpy(h, a{i}, {DUMP_BYTES}, "
                             f"cudaMemcpyDeviceToHost); FILE *f = fopen({_c_string(f'{dump_prefix}.arg{i}.bin')}, "
                             f"\"wb\"); if (f) {{ fwrite(h, 1, {DUMP_BYTES}, f); fclose(f); }} }}")
            args.append(f"a{i}")
        else:
            args.append(str(ints.get(pname, DEFAULT_INT)))
    unknown = sorted(set(inputs) - {re.findall(r"\w+", p)[-1] for p in params if "*" in p and re.findall(r"\w+", p)})
    if unknown:
        raise BankExplorerError(f"input for {', '.join(unknown)}: the kernel has no such pointer parameter")
    ext = _EXTERN.search(text)
    extern = int(ext.group(1)) if ext else (DEFAULT_EXTERN if "extern __shared__" in text else 0)
    body = "\n  ".join(setup)
    main = (f"\nint main() {{\n  {body}\n"
            f"  {name}<<<1, dim3({block[0]}, {block[1]}, {block[2]}), {extern}>>>({', '.join(args)});\n"
            "  cudaError_t e = cudaDeviceSynchronize();\n  printf(\"%s\\n\", cudaGetErrorString(e));\n"
            + "".join(f"  {d}\n" for d in dumps) +
            "  return e != cudaSuccess;\n}\n")
    head = "#include <cstdio>\n#include <cuda_fp16.h>\n#include <cuda_bf16.h>\n#line 1\n"
    return head + text + "\n" + main, name


def _count(text: str) -> int | None:
    t = text.strip().replace(",", "")
    if t in ("", "-", "n/a", "N/A"):
        return None
    try:
        return int(round(float(t)))
    except ValueError:
        return None


def parse_source_page(text: str) -> list[dict]:
    """The SASS rows of ``ncu --page source --print-source sass --csv``, in address order: ``pc``
    (from the kernel's first instruction), ``sass`` and the --sass-json counts (``wavefronts`` and
    ``ideal`` for shared-memory instructions only). Lines before the header (the program's own
    output, ``==PROF==`` notes) are skipped. A page of several kernels gives the first one's."""
    rows = list(csv.reader(io.StringIO(text)))
    start = next((i for i, r in enumerate(rows) if r and r[0].strip() == "Address"), None)
    if start is None:
        raise BankExplorerError("no Nsight Compute source page (a CSV with an 'Address' column) in the profiler output")
    header = [h.strip() for h in rows[start]]
    col = {h: i for i, h in enumerate(header)}
    # a kernel without shared-memory instructions has no shared-wavefront columns at all
    missing = [h for h in ("Source", *SOURCE_COLUMNS) if h not in col and "Shared" not in h]
    if missing:
        raise BankExplorerError(f"the source page lacks the column(s) {', '.join(missing)} (is it the SourceCounters "
                                f"section of ncu 2023 or later?)")
    out: list[dict] = []
    base = None
    for r in rows[start + 1:]:
        if r and r[0].strip() == "Address":  # the next kernel's page
            break
        if not r or not r[0].strip().lower().startswith("0x") or len(r) < len(header):
            continue
        pc = int(r[0], 16)
        base = pc if base is None else base
        rec = {"pc": pc - base, "sass": r[col["Source"]].strip()}
        shared = "Address Space" in col and r[col["Address Space"]].strip() == "Shared"
        for h, key in SOURCE_COLUMNS.items():
            if key in ("wavefronts", "ideal") and not shared:
                continue
            rec[key] = (_count(r[col[h]]) or 0) if h in col else 0
        out.append(rec)
    return out


def normalize_sass(text: str) -> str:
    """An instruction's text as both disassemblers agree on it: no comment or ``;``, no ``.reuse``,
    single spaces, no branch target (ncu and nvdisasm name labels differently), and ``LDGSTS``'s two
    addresses in one order (ncu prints the global one first, nvdisasm the shared one)."""
    s = re.sub(r"\s+", " ", text.split(";")[0]).replace(".reuse", "").strip()
    m = re.match(r"^((?:@!?U?P\w+ )?LDGSTS\S*) (.*)$", s)
    if m:
        parts = [x.strip() for x in re.split(r",\s*(?![^\[]*\])", m.group(2))]
        s = f"{m.group(1)} {', '.join(sorted(parts))}"
    return re.sub(r"^(@!?U?P\w+ )?((BRA|BSSY|CALL|RET|BREAK|JMP|JMX|BRX|WARPSYNC|BPT)(\.[\w.]+)?)\s.*$", r"\1\2", s)


_ADDRESS = re.compile(r"\b0x[0-9a-f]{9,}\b")  # an absolute code address, as Nsight prints branch targets


def branch_targets(rows: list[dict]) -> list[int | None]:
    """Where each BRA, BSSY, CALL or JMP goes, as a byte offset in the kernel's code: a row's
    ``target`` where it has one (the emulator's rows), else from the absolute address Nsight prints,
    less the code's base (which the trailing ``BRA`` to itself gives). None for other rows."""
    base = next((int(m.group(0), 16) - r["pc"] for r in reversed(rows)
                 if normalize_sass(r["sass"]) == "BRA" and (m := _ADDRESS.search(r["sass"]))), None)
    out: list[int | None] = []
    for r in rows:
        if "target" in r:
            out.append(r["target"])
            continue
        m = _ADDRESS.search(r["sass"])
        op = opcode_of(r["sass"]).split(".")[0]
        out.append(int(m.group(0), 16) - base if m and base is not None and op in BRANCH_OPCODES else None)
    return out



def same_code(measured: list[dict], compiled: list[dict]) -> bool:
    """Whether the measured rows (Nsight's source page) and the compiled ones (each a ``sass`` text
    and, for a branch, its ``target``) are the same code: the same instructions in the same order
    (trailing NOPs aside) with every branch going to the same place. Another compiler release lays
    the same instructions out otherwise and then reconverges otherwise, so only the same code is
    compared per instruction."""
    a, b = [normalize_sass(r["sass"]) for r in measured], [normalize_sass(r["sass"]) for r in compiled]
    same = (a == b[:len(a)] and all(x == "NOP" for x in b[len(a):])
            or a[:len(b)] == b and all(x == "NOP" for x in a[len(b):]))
    return same and all(w is None or w == g.get("target") for w, g in zip(branch_targets(measured), compiled))

@dataclass
class SassComparison:
    """Measured vs predicted, per SASS instruction where both have the same code."""

    same_code: bool
    differences: list[str] = field(default_factory=list)  # one line per instruction that differs
    measured_totals: dict[str, int] = field(default_factory=dict)
    predicted_totals: dict[str, int] = field(default_factory=dict)
    instructions: int = 0

    @property
    def ok(self) -> bool:
        if self.same_code:
            return not self.differences
        keys = ("wavefronts", "shared_executed")
        return all(self.measured_totals.get(k) == self.predicted_totals.get(k) for k in keys)


def _totals(rows: list[dict]) -> dict[str, int]:
    # a shared-memory instruction no thread ran (``@!PT LDS RZ, [RZ]``, padding) is not one to the profiler
    shared = [r for r in rows if r.get("wavefronts") is not None and r.get("pred_on_threads")]
    return {"wavefronts": sum(r["wavefronts"] or 0 for r in shared), "ideal": sum(r.get("ideal") or 0 for r in shared),
            "shared_executed": sum(r.get("executed") or 0 for r in shared),
            "executed": sum(r.get("executed") or 0 for r in rows)}


def compare_sass(measured: list[dict], predicted: list[dict]) -> SassComparison:
    """Per SASS instruction, the columns that differ. The GPU's nvcc and the NVRTC here may make
    different code (another CUDA release); then only the shared-memory totals are compared and
    ``same_code`` is False. The code of either may end in padding NOPs the other lacks."""
    a = [normalize_sass(r["sass"]) for r in measured]
    b = [normalize_sass(r["sass"]) for r in predicted]
    n = min(len(a), len(b))
    same = a[:n] == b[:n] and all(x == "NOP" for x in a[n:] + b[n:])
    # the same instructions laid out otherwise (another compiler release) branch and reconverge otherwise
    same = same and all(x is None or y is None or x == y for x, y in zip(branch_targets(measured), branch_targets(predicted)))
    res = SassComparison(same, measured_totals=_totals(measured), predicted_totals=_totals(predicted), instructions=n)
    if not same:
        return res
    for m, p in zip(measured, predicted):
        keys = COUNTS if "wavefronts" in m or p.get("wavefronts") is not None else COUNTS[:3]
        bad = [f"{k} {p.get(k) or 0:,} (measured {m.get(k) or 0:,})" for k in keys if (m.get(k) or 0) != (p.get(k) or 0)]
        if bad:
            res.differences.append(f"{m['pc']:#06x} {m['sass'][:48]:<48} line {p.get('line', '?')}: " + ", ".join(bad))
    return res


def predict(text: str, block: tuple[int, int, int], path: str | None = None,
            defines: dict[str, int | float] | None = None, arrays: dict[str, bytes] | None = None,
            arch: str = "sm_90") -> list[dict]:
    """The emulator's rows for one block of the text's first kernel (``import-cuda --sass-json``'s
    ``sass`` list): compiled with NVRTC for ``arch`` and executed on the CPU."""
    from ..cudaimport.device_source import kernel_parameters
    from ..sass.launch import LaunchConfig
    from ..kernels.cuda_source import emulate

    defines = dict(defines or {})
    params = kernel_parameters(text)
    # scalar parameters not given are 64 in the emulator, as the launcher passes them
    cfg = LaunchConfig(block, scalars={k: v for k, v in defines.items() if k in params}, arrays=dict(arrays or {}),
                       extern_bytes=_extern_bytes(text))
    run = emulate(text, cfg, arch, path=path, defines={k: v for k, v in defines.items() if k not in params})
    return [r.to_json() for r in run.rows]


def _extern_bytes(text: str) -> int:
    ext = _EXTERN.search(text)
    return int(ext.group(1)) if ext else DEFAULT_EXTERN


def persass_record(block: tuple[int, int, int], rows: list[dict], buffers: dict[str, str] | None = None,
                   run_output: str = "") -> dict:
    """One kernel in the format of ``resources/hardware/kernels/persass*.json``."""
    t = _totals(rows)
    return {"block": list(block), "run": run_output, "buffers_after": dict(buffers or {}), "sass": rows,
            "shared_wavefronts": t["wavefronts"], "shared_executed": t["shared_executed"]}
