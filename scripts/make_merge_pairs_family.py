#!/usr/bin/env python3
"""Write the probe family of the 8/16-byte load merge rule (``resources/hardware/kernels/merge_pairs/``).

A designed, randomized family (fixed seed) of 176 one-warp ``LDS.64`` / ``LDS.128`` instructions,
written to decide when the H100 serves two half-warps (quarter-warps) of such a load in one phase,
with both counters that count it: the hardware's LSU counter and Nsight Compute's source page.
Every case draws, in this order from one generator:

* ``width`` 8 or 16 bytes and ``pairing``: lanes ``i`` and ``i^1`` on one word, or ``i`` and
  ``i^2`` (then the ``i^1`` partner is on a word of its own: the shape that revealed the question);
* ``clash``: whether some neighbouring groups (lanes ``4q`` and ``4q+1`` for ``i^2`` pairs, ``4q``
  and ``4q+2`` for ``i^1`` pairs) sit on two different words of one bank slot, or on other slots;
* ``inactive``: a share of lanes switched off (0, 1/8 or 1/3), and rarely (``broken``) one lane
  moved off its partner's word, so that the merge condition fails on purpose;
* ``held_out``: whether the case is set aside. Drawn here, before anything was measured, so that
  the rule is written from the other half and only then checked on this one.

Outputs (running it again writes the same bytes):

* ``cases.jsonl``: one row per case (``ptx``, ``addresses`` as byte offsets, ``family``,
  ``held_out``, ``info``), what ``scripts/verify_on_gpu.py --rows`` measures with the hardware
  counter (one launch per case, the load 8 times);
* ``lds64_pairs_{0,1}.cu`` / ``lds128_pairs_{0,1}.cu`` and their ``.npy`` index tables: the same
  cases as predicated loads of one kernel each, what ``verify_on_gpu.py --kernel`` measures with
  the source page (one SASS instruction per case).

usage: python scripts/make_merge_pairs_family.py [--out resources/hardware/kernels/merge_pairs]
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "resources" / "hardware" / "kernels" / "merge_pairs"
SEED = 3601
FAMILY = "merge_pairs"
#: cases per kernel of the source-page half (4 kernels: 2 x LDS.64, 2 x LDS.128)
PER_KERNEL = 44
#: words the cases draw from: 8-byte words of a double[1024] (16 bank slots of 8 bytes), 16-byte
#: words of a double2[512] (8 slots)
WORDS = {8: 1024, 16: 512}

_KERNEL = """// block: 32
// input: cases = {stem}.npy
// the merge_pairs family (scripts/make_merge_pairs_family.py): {n} predicated {sass} by one warp, one per
// case, each with its own lanes (index -1: the lane loads nothing) and {what}
__global__ void {stem}(const int *cases, double *out) {{
    __shared__ __align__(128) {ctype} xs[{words}];
    int lane = threadIdx.x;
    for (int i = lane; i < {words}; i += 32) xs[i] = {init};
    __syncthreads();
    double acc = 0.0;
#pragma unroll
    for (int c = 0; c < {n}; ++c) {{
        int k = cases[c * 32 + lane];
        if (k >= 0) {{ {ctype} v = xs[k]; acc += ({sum}) * (double)(c + 1); }}
    }}
    out[lane] = acc;
}}
"""


def draw_case(rng: np.random.Generator, width: int) -> tuple[list[int], dict]:
    """One case: 32 word indices (-1: inactive) and what was drawn."""
    slots = 128 // width
    pairing = "i^1" if rng.random() < 0.5 else "i^2"
    clash = bool(rng.random() < 0.5)
    inactive = float(rng.choice([0.0, 1 / 8, 1 / 3]))
    broken = bool(rng.random() < 0.12)
    rows = int(rng.integers(2, 9))  # how many 128-byte rows the words come from: few rows, more conflicts

    def word(slot: int) -> int:
        return int(slot + slots * rng.integers(0, rows))

    x, other = (1, 2) if pairing == "i^1" else (2, 1)
    words = [-1] * 32
    for q in range(8):  # one quad of lanes: two groups of partners, g0 = {4q, 4q^x}, g1 = the other two
        g0 = [4 * q, 4 * q ^ x]
        g1 = [4 * q ^ other, 4 * q ^ other ^ x]
        s0 = int(rng.integers(0, slots))
        w0 = word(s0)
        if clash and rng.random() < 0.6:  # the neighbouring group: another word of the same slot
            w1 = w0
            while w1 == w0:
                w1 = word(s0)
        else:
            s1 = (s0 + int(rng.integers(1, slots))) % slots
            w1 = word(s1)
        for lane in g0:
            words[lane] = w0
        for lane in g1:
            words[lane] = w1
    if broken:  # one lane off its partner's word: no pairing holds
        lane = int(rng.integers(0, 32))
        words[lane] = (words[lane] + slots * int(rng.integers(1, 4))) % WORDS[width]
    off = rng.random(32) < inactive
    words = [-1 if o else w for w, o in zip(words, off)]
    if all(w < 0 for w in words):
        words[0] = 0
    info = {"pairing": pairing, "clash": clash, "inactive": round(inactive, 3), "broken": broken, "rows": rows}
    return words, info


def family(seed: int = SEED) -> list[dict]:
    """The 176 cases, in kernel order: 88 LDS.64 then 88 LDS.128."""
    rng = np.random.default_rng(seed)
    out = []
    for width in (8, 16):
        for k in range(2 * PER_KERNEL):
            words, info = draw_case(rng, width)
            held = bool(rng.random() < 0.5)
            stem = f"lds{width * 8}_pairs_{k // PER_KERNEL}"
            out.append({
                "ptx": "ld.shared.v2.u32" if width == 8 else "ld.shared.v4.u32",
                "sass": "LDS.64" if width == 8 else "LDS.128",
                "kind": "load", "width": width,
                "addresses": [None if w < 0 else w * width for w in words],
                "family": FAMILY, "held_out": held,
                "info": {**info, "kernel": stem, "case": k % PER_KERNEL},
            })
    return out


def write(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    rows = family()
    with (out / "cases.jsonl").open("w") as f:
        for i, r in enumerate(rows):
            f.write(json.dumps({"id": 960000 + i, **r}) + "\n")
    for width in (8, 16):
        for part in range(2):
            stem = f"lds{width * 8}_pairs_{part}"
            sel = [r for r in rows if r["info"]["kernel"] == stem]
            table = np.array([[-1 if a is None else a // width for a in r["addresses"]] for r in sel], np.int32)
            np.save(out / f"{stem}.npy", table.reshape(-1))
            d8 = width == 8
            (out / f"{stem}.cu").write_text(_KERNEL.format(
                stem=stem, n=len(sel), sass="LDS.64" if d8 else "LDS.128", words=WORDS[width],
                ctype="double" if d8 else "double2",
                what=("words of a shared double[1024] (bank slot = index % 16)" if d8 else
                      "words of a shared double2[512] (bank slot = index % 8)"),
                init="(double)(i * 3 + 1)" if d8 else "make_double2(i * 3 + 1, i * 5 + 2)",
                sum="v" if d8 else "v.x + v.y"))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, default=OUT)
    write(ap.parse_args().out)


if __name__ == "__main__":
    main()
