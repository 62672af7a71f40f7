#!/usr/bin/env python3
"""Write the held-out wgmma family (``resources/hardware/kernels/triton/heldout/``).

The rule that an ``HGMMA`` reading its operands through shared-memory descriptors costs one
wavefront per 128 bytes of A and B (``bankexplorer/sass/ops/warpgroup.py``) was written from 14
wgmma kernels, all of them K-major A and N-major B in fp16 or tf32. This family, drawn with a fixed
seed before anything in it was measured, is set aside whole to test that rule: every case is
``held_out``. It draws, per ``dot_layout`` case and in this order from one generator:

* ``dtype``: bfloat16 (its bits stored as uint16: numpy has no bfloat16) or fp16;
* ``N`` from 16, 32, 64, 128 and ``K`` from 32, 64 (a tile's sides are powers of two in Triton, so
  the N of 24, 48, 96 or 192 an HGMMA allows cannot be a Triton tile);
* A's layout in shared memory, K-major or M-major (``A_MMAJOR``: A stored K x M and transposed),
  and B's, N-major or K-major (``B_KMAJOR``: B stored N x K and transposed), so that the
  descriptors' other major-ness and its 32/64/128-byte swizzles appear;
* ``num_warps`` 4 or 8 (with M = 64 and 8 warps the two warpgroups split N).

Then fixed cases of what was never measured: ``dot_rega`` (HGMMA with A in registers: a softmax's
P times B), ``tl.sort``, a row-wise ``tl.gather`` and a one-program attention forward.

Outputs (running it again writes the same bytes): ``cases.json`` (the format of
``scripts/measure_triton.py``) and the inputs ``CASE.NAME.npy``.

usage: python scripts/make_wgmma_family.py [--out resources/hardware/kernels/triton/heldout]
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "resources" / "hardware" / "kernels" / "triton" / "heldout"
SEED = 9061
FILE = "wgmma_heldout.py"
DOTS = 8


def draw_cases(rng: np.random.Generator) -> dict[str, dict]:
    """The family's cases in cases.json's format (arrays as [shape, dtype, fill])."""
    cases = {}
    seen = set()
    while len(cases) < DOTS:
        bf16 = bool(rng.random() < 0.6)
        n = int(rng.choice([16, 32, 64, 128]))
        k = int(rng.choice([32, 64]))
        a_mmajor, b_kmajor = bool(rng.random() < 0.5), bool(rng.random() < 0.5)
        warps = int(rng.choice([4, 8]))
        key = (bf16, n, k, a_mmajor, b_kmajor, warps)
        if key in seen:
            continue
        seen.add(key)
        m = 64
        dt = "bfloat16" if bf16 else "float16"
        layouts = ("m" if a_mmajor else "k") + ("k" if b_kmajor else "n")
        name = f"dot_{'bf16' if bf16 else 'f16'}_n{n}_k{k}_{layouts}_w{warps}"
        store = "uint16" if bf16 else "float16"
        cases[name] = {
            "file": FILE, "kernel": "dot_layout", "held_out": True, "dtype": dt,
            "arrays": {"A": [[k, m] if a_mmajor else [m, k], store, "rand"],
                       "B": [[n, k] if b_kmajor else [k, n], store, "rand"],
                       "C": [[m, n], "float32", "zeros"]},
            "defines": {"M": m, "N": n, "K": k, "A_MMAJOR": int(a_mmajor), "B_KMAJOR": int(b_kmajor),
                        "BF16": int(bf16), "num_warps": warps}}
    cases["dot_rega_n64_k64"] = {
        "file": FILE, "kernel": "dot_rega", "held_out": True,
        "arrays": {"A": [[64, 64], "float16", "rand"], "B": [[64, 64], "float16", "rand"],
                   "C": [[64, 64], "float32", "zeros"]},
        "defines": {"M": 64, "N": 64, "K": 64, "num_warps": 4}}
    cases["sort_256"] = {
        "file": FILE, "kernel": "sort_k", "held_out": True,
        "arrays": {"X": [[256], "float32", "rand"], "Y": [[256], "float32", "zeros"]},
        "defines": {"N": 256, "num_warps": 4}}
    cases["gather2d_32x64"] = {
        "file": FILE, "kernel": "gather2d", "held_out": True,
        "arrays": {"X": [[32, 64], "float32", "rand"], "I": [[32, 64], "int32", "index64"],
                   "Y": [[32, 64], "float32", "zeros"]},
        "defines": {"M": 32, "N": 64, "num_warps": 4}}
    cases["attn_fwd_l128_d64"] = {
        "file": FILE, "kernel": "attn_fwd", "held_out": True,
        "arrays": {"Q": [[64, 64], "float16", "rand"], "K": [[128, 64], "float16", "rand"],
                   "V": [[128, 64], "float16", "rand"], "O": [[64, 64], "float32", "zeros"]},
        "defines": {"L": 128, "D": 64, "BM": 64, "BN": 64, "num_warps": 4}}
    return cases


def make_array(rng: np.random.Generator, shape: list[int], dtype: str, fill: str) -> np.ndarray:
    if fill == "zeros":
        return np.zeros(shape, dtype)
    if fill == "index64":
        return rng.integers(0, 64, shape).astype(dtype)
    x = rng.standard_normal(shape).astype(np.float32)
    if dtype == "uint16":  # bfloat16's bits: the top half of a float32 (rounded to nearest even)
        u = x.view(np.uint32)
        return ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16)
    return x.astype(dtype)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args(argv)
    rng = np.random.default_rng(SEED)
    cases = draw_cases(rng)
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "cases.json").write_text(json.dumps(cases, indent=1) + "\n")
    for case, spec in cases.items():
        for name, (shape, dtype, fill) in spec["arrays"].items():
            np.save(args.out / f"{case}.{name}.npy", make_array(rng, shape, dtype, fill))
    print(f"{len(cases)} cases in {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
