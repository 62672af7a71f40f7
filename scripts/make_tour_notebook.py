#!/usr/bin/env python3
"""Write and execute docs/bankexplorer-tour.ipynb (outputs saved), headless.

usage: QT_QPA_PLATFORM=offscreen python scripts/make_tour_notebook.py
needs the test extra (nbformat, nbclient, ipykernel). tests/test_api.py executes the notebook again.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import nbformat
from nbclient import NotebookClient
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

DOCS = Path(__file__).resolve().parent.parent / "docs"

CELLS = [
    ("md", """# BankExplorer from Python: a tour

`import bankexplorer as bx` gives a small, stable API (see [python-api.md](python-api.md)):
wavefronts for addresses you compute yourself, patterns from files and CUDA, library layouts as
callables, and the app's figures inline. This notebook runs headless (offscreen Qt); CI executes it."""),
    ("code", """import numpy as np
import bankexplorer as bx

lanes = np.arange(32)"""),
    ("md", """## 1. The transpose: a 32x32 `float` tile, and 32x33

A warp reads column 0 of `tile[32][32]`: lane *i* reads `tile[i][0]`, 128 bytes after lane
*i-1*, so all 32 lanes hit bank 0: **32 wavefronts**. One padding element per row
(`tile[32][33]`) puts lane *i* in bank *i*: **1 wavefront**."""),
    ("code", """bx.wavefronts(lanes * 32 * 4), bx.wavefronts(lanes * 33 * 4)"""),
    ("md", """Every column at once: a batch is an `(n, 32)` integer array (`-1` = inactive lane) and
comes back as `n` counts from the vectorized engine, with no Python loop per instruction."""),
    ("code", """cols = np.arange(32)[:, None]  # one warp instruction per column
print("32x32:", bx.wavefronts((lanes * 32 + cols) * 4))
print("32x33:", bx.wavefronts((lanes * 33 + cols) * 4))
half = np.where(lanes < 16, lanes * 33 * 4, -1)  # only half the warp active
print("16 lanes:", bx.wavefronts(half))"""),
    ("md", """The bundled examples are whole kernels: both phases of the transpose (the row store and the
column load, four loop steps, eight warps). `bx.analyze` gives one row per warp instruction as
numpy arrays, and the totals; a result shows as the figure of its worst instruction."""),
    ("code", """r = bx.analyze("../resources/examples/06_transpose_32x32.json")
print(r)
print("wavefronts per warp instruction:", r.wavefronts[:4], "...", r.wavefronts[-4:])
r.totals"""),
    ("code", """r"""),
    ("code", """padded = bx.analyze("../resources/examples/07_transpose_padded_32x33.json")
print(padded)
bx.figure(padded, instruction=1, style="slide")"""),
    ("md", """## 2. A CuTe swizzle read by `ldmatrix`

Paste what CuTe prints. `bx.layout` returns a callable: `L(row, col)` is the byte offset of that
element (numpy arrays in, numpy arrays out)."""),
    ("code", """L = bx.layout("Sw<3,3,3> o _0 o (_8,_64):(_64,_1)", dtype="half")
plain = bx.layout("(_8,_64):(_64,_1)", dtype="half")
print(L, "->", L.describe())
print("L(5, 19) =", L(5, 19), "  unswizzled:", plain(5, 19))
L(np.arange(8), 0)  # where each row's first element went"""),
    ("md", """`L.ldmatrix(4)` is one `ldmatrix.x4`: lanes 8m..8m+7 give the eight 16-byte rows of matrix m.
Without the swizzle the 8 rows of a matrix are 128 bytes apart, in the same 4 banks (8-way, 32
wavefronts); `Sw<3,3,3>` spreads them over all 32 banks: 4 wavefronts, the minimum."""),
    ("code", """for name, lay in (("Sw<3,3,3>", L), ("plain", plain)):
    print(f"{name:>10}: x1 {lay.ldmatrix(1).wavefronts():>2}, x2 {lay.ldmatrix(2).wavefronts():>2}, "
          f"x4 {lay.ldmatrix(4).wavefronts():>2}, x4.trans {lay.ldmatrix(4, trans=True).wavefronts():>2}")
access = L.ldmatrix(4)
access.addresses  # the 32 lane addresses, ready for bx.wavefronts(..., kind="ldmatrix")"""),
    ("code", """bx.figure(access, style="slide")"""),
    ("md", """## 3. A Triton shared layout

Triton's `#ttg.swizzled_shared` (and `#ttg.nvmma_shared`, and TMA modes such as
`CU_TENSOR_MAP_SWIZZLE_128B`) carry no shape: give it. Here a 64x64 `half` operand tile read with
`ldmatrix.x4` over the whole tile (`sweep`: one warp instruction per 16x16 fragment), swizzled
and not."""),
    ("code", """swz = bx.layout("#ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>",
                "half", shape=(64, 64))
flat = bx.layout("#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>",
                 "half", shape=(64, 64))
for name, lay in (("vec=8, maxPhase=8", swz), ("no swizzle", flat)):
    res = bx.analyze(lay.sweep("ldmatrix", matrices=4))
    print(f"{name:>18}: {len(res)} ldmatrix.x4, {res.totals['wavefronts']} wavefronts "
          f"(ideal {res.totals['ideal']}), worst {res.totals['worst_degree']}-way")"""),
    ("code", """bx.figure(swz.sweep("ldmatrix"), style="slide")"""),
    ("md", """## 4. From CUDA text, to a table

`bx.from_cuda` reads the lines that declare and index shared memory (parsed, never run);
`Result.to_dict()` (or `.to_pandas()` when pandas is installed) gives a table per warp
instruction."""),
    ("code", """src = '''
__shared__ float tile[32][32 + PAD];
tile[threadIdx.y][threadIdx.x] = 1.0f;
float v = tile[threadIdx.x][threadIdx.y];
'''
for pad in (0, 1):
    res = bx.analyze(bx.from_cuda(src, block=(32, 8), PAD=pad))
    print(f"PAD={pad}: {res.totals['wavefronts']} wavefronts, ideal {res.totals['ideal']}")
table = res.to_dict()
{k: v[:4] for k, v in table.items() if k in ("instruction", "warp", "kind", "wavefronts", "n_way")}"""),
    ("md", """Figures save as PNG (1x to 4x) or SVG: `bx.figure(r, instruction=1, style="slide").save("transpose.png", scale=2)`."""),
]


def build() -> nbformat.NotebookNode:
    nb = new_notebook()
    nb.cells = [new_markdown_cell(t) if k == "md" else new_code_cell(t) for k, t in CELLS]
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.metadata["language_info"] = {"name": "python"}
    return nb


def main() -> int:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    nb = build()
    NotebookClient(nb, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(DOCS)}}).execute()
    for cell in nb.cells:  # no run-specific noise in the saved file
        cell.metadata.pop("execution", None)
    out = DOCS / "bankexplorer-tour.ipynb"
    nbformat.write(nb, out)
    print(f"wrote {out.name} ({out.stat().st_size:,} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
