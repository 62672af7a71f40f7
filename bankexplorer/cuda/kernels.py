"""Whole kernels on a GPU: a launcher for one block of a user's kernel, and the comparison of its
measured shared-memory counters with the compiled view's prediction.

``scripts/verify_on_gpu.py --kernel FILE.cu`` uses these; they are text in, text or numbers out, so
they are tested without a GPU.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..model.errors import BankExplorerError

CLASSES = ("ld", "st", "atom")
#: the per-kernel counters: wavefronts and executed warp instructions, per class
KERNEL_METRICS = {
    **{f"wf_{c}": f"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_{c}.sum" for c in CLASSES},
    **{f"inst_{c}": f"smsp__sass_inst_executed_op_shared_{c}.sum" for c in CLASSES},
}
BUFFER_BYTES = 1 << 24
DEFAULT_INT = 64  # what an int parameter gets (as the bundled measurements did)
DEFAULT_EXTERN = 48 * 1024

_KERNEL = re.compile(r"__global__\s+(?:__launch_bounds__\s*\([^)]*\)\s*)?void\s+(\w+)\s*\(([^)]*)\)")
_EXTERN = re.compile(r"//\s*extern-size\s*[:=]\s*(\d+)", re.I)
_BLOCK = re.compile(r"//\s*block\s*[:=]\s*([\d ,]+)", re.I)


@dataclass
class KernelMeasurement:
    name: str
    block: tuple[int, int, int]
    wavefronts: dict[str, int] = field(default_factory=dict)
    instructions: dict[str, int] = field(default_factory=dict)
    sass_shared: list[str] = field(default_factory=list)

    def as_record(self, file: str) -> dict:
        """The shape of ``resources/hardware/kernels/measured.json``."""
        return {"file": file, "block": list(self.block), "wavefronts": self.wavefronts,
                "instructions": self.instructions, "sass_shared": self.sass_shared}


def block_of(text: str, given: tuple[int, ...] | None = None) -> tuple[int, int, int]:
    """The block: given, else the text's ``// block: X, Y`` comment, else 32."""
    if given is None:
        m = _BLOCK.search(text)
        given = tuple(int(x) for x in m.group(1).replace(" ", "").split(",") if x) if m else (32,)
    b = tuple(given) + (1,) * (3 - len(given))
    if len(b) != 3 or min(b) < 1 or b[0] * b[1] * b[2] > 1024:
        raise BankExplorerError(f"block {b} is not a valid block (1 to 1,024 threads)")
    return b  # type: ignore[return-value]


def launcher_source(text: str, block: tuple[int, int, int], ints: dict[str, int] | None = None) -> tuple[str, str]:
    """A standalone program that launches the text's first kernel once on one block: pointers get
    zeroed buffers of 16 MiB, ints a value (``ints`` by name, else 64), floats 1. The text's line
    numbers are kept (``#line``), so the profiler's source view matches the file."""
    m = _KERNEL.search(text)
    if not m:
        raise BankExplorerError("no '__global__ void name(...)' kernel found (template kernels need a launcher of "
                                "your own)")
    name, params = m.group(1), [p.strip() for p in m.group(2).split(",") if p.strip() and p.strip() != "void"]
    ints = ints or {}
    setup, args = [], []
    for i, p in enumerate(params):
        pname = re.findall(r"\w+", p)[-1] if re.findall(r"\w+", p) else f"a{i}"
        if "*" in p:
            t = p.rsplit("*", 1)[0].replace("const", "").replace("__restrict__", "").strip()
            setup.append(f"{t} *a{i}; cudaMalloc(&a{i}, {BUFFER_BYTES}); cudaMemset(a{i}, 0, {BUFFER_BYTES});")
            args.append(f"a{i}")
        elif re.search(r"\b(float|double|half|__half)\b", p):
            args.append("1")
        else:
            args.append(str(ints.get(pname, DEFAULT_INT)))
    ext = _EXTERN.search(text)
    extern = int(ext.group(1)) if ext else (DEFAULT_EXTERN if "extern __shared__" in text else 0)
    body = "\n  ".join(setup)
    main = (f"\nint main() {{\n  {body}\n"
            f"  {name}<<<1, dim3({block[0]}, {block[1]}, {block[2]}), {extern}>>>({', '.join(args)});\n"
            "  cudaError_t e = cudaDeviceSynchronize();\n  printf(\"%s\\n\", cudaGetErrorString(e));\n"
            "  return e != cudaSuccess;\n}\n")
    head = "#include <cstdio>\n#include <cuda_fp16.h>\n#include <cuda_bf16.h>\n#line 1\n"
    return head + text + "\n" + main, name


def read_metrics(csv_rows: list[dict]) -> tuple[dict[str, int], dict[str, int]]:
    """Wavefronts and instructions per class from one profiled launch (``measure.parse_ncu_csv``)."""
    if not csv_rows:
        raise BankExplorerError("the profiler measured no launch")
    row = csv_rows[0]

    def val(key: str) -> int:
        v = row.get(KERNEL_METRICS[key])
        if v is None:
            raise BankExplorerError(f"the profiler did not report {KERNEL_METRICS[key]}")
        return int(round(float(v)))

    return {c: val(f"wf_{c}") for c in CLASSES}, {c: val(f"inst_{c}") for c in CLASSES}


def shared_sass(sass_text: str) -> list[str]:
    """The shared-memory instructions of a ``cuobjdump -sass`` listing, cleaned of offsets."""
    out = []
    for ln in sass_text.splitlines():
        if re.search(r"\b(LDS|STS|ATOMS|LDSM|STSM)\b[.\s]", ln):
            t = re.sub(r"/\*.*?\*/", "", ln).strip().rstrip(";").strip()
            out.append(re.sub(r"\s+", " ", t))
    return out


def predict(text: str, block: tuple[int, int, int], path: str | None = None,
            defines: dict[str, int] | None = None) -> tuple[dict[str, int], dict[str, int], str]:
    """The compiled view's wavefronts and executed instructions per class (and the compile status)."""
    from ..cudaimport import ImportOptions
    from ..cudaimport.compiled import import_compiled
    from ..model.analysis import analyze

    res = import_compiled(text, ImportOptions(block=block, defines=dict(defines or {})), path=path)
    wf = dict.fromkeys(CLASSES, 0)
    n = dict.fromkeys(CLASSES, 0)
    if res.pattern.instructions:
        an = analyze(res.pattern, detail=False)
        cls = {"load": "ld", "ldmatrix": "ld", "store": "st", "stmatrix": "st", "atomic": "atom"}
        ok = an.ok
        for k, ins in enumerate(res.pattern.instructions):
            rows = (an.source == k) & ok
            c = cls[ins.kind]
            wf[c] += int(an.result.wavefronts[rows].sum())
            n[c] += int(an.result.executions[rows].sum())
            loop = rows & (an.result.loop_load_wavefronts > 0)
            wf["ld"] += int(an.result.loop_load_wavefronts[rows].sum())
            n["ld"] += int(an.result.executions[loop].sum())
    return wf, n, res.compiled.status if res.compiled else "written"
