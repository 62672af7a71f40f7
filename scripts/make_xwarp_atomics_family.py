#!/usr/bin/env python3
"""Write the probe family of atomics handed out across warps (``resources/hardware/kernels/xwarp_atomics/``).

Several warps ``atomicAdd`` one of a few shared counters and keep what they got: the slot a lane
gets depends on the order in which the GPU serves the warps' lanes (measured: interleaved, lanes
32, 33, 0, 34, 1, 35 ...), while the emulator serves one warp after another. The family draws,
from one generator with a fixed seed, per kernel:

* ``warps`` (2 to 8) and ``counters`` (1 to 4; which counter a thread adds to comes from an input
  array, so that the compiler cannot prove the address uniform and aggregate the warp);
* ``use``: whether the returned value makes a later shared address (``slots[c * span + s * stride]``,
  a store whose bank conflicts depend on who got which slot) or is only stored as a value at the
  thread's own slot (then the addresses are fixed and only the values left in the buffer move);
* ``stride`` (1 to 4 words) and ``held_out`` (drawn before anything was measured).

Every kernel ends by copying the slots and the counters to ``out``, so the values left in the buffer
are measured too. Running this again writes the same bytes.

usage: python scripts/make_xwarp_atomics_family.py [--out resources/hardware/kernels/xwarp_atomics]
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "resources" / "hardware" / "kernels" / "xwarp_atomics"
SEED = 3602
KERNELS = 12
SPAN = 1024  # words of slots per counter (8 warps x 32 lanes x stride 4)

_KERNEL = """// block: {threads}
// input: keys = {stem}.npy
// the xwarp_atomics family (scripts/make_xwarp_atomics_family.py): {warps} warps atomicAdd one of {counters}
// shared counter(s) (the thread's counter from keys, so the compiler cannot aggregate a warp) and {what}
__global__ void {stem}(const int *keys, int *out) {{
    __shared__ int cnt[4];
    __shared__ int slots[{words}];
    const int t = threadIdx.x;
    if (t < 4) cnt[t] = 0;
    for (int i = t; i < {words}; i += blockDim.x) slots[i] = -1;
    __syncthreads();
    const int c = keys[t];
    const int s = atomicAdd(&cnt[c], 1);
    {store}
    __syncthreads();
    for (int i = t; i < {words}; i += blockDim.x) out[i] = slots[i];
    if (t < 4) out[{words} + t] = cnt[t];
}}
"""


def family(seed: int = SEED) -> list[dict]:
    """What each kernel of the family was drawn with."""
    rng = np.random.default_rng(seed)
    out = []
    for k in range(KERNELS):
        warps = int(rng.integers(2, 9))
        counters = int(rng.integers(1, 5))
        use = bool(k % 3 != 2)  # two in three use the returned value as an address
        stride = int(rng.integers(1, 5))
        keys = rng.integers(0, counters, warps * 32).astype(np.int32)
        held = bool(rng.random() < 0.5)
        out.append({"stem": f"xwarp_atomic_{k:02d}", "warps": warps, "counters": counters, "use": use,
                    "stride": stride, "keys": keys, "held_out": held})
    return out


def write(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    meta = []
    for f in family():
        words = 4 * SPAN if f["use"] else f["warps"] * 32 * f["stride"]
        store = (f"slots[c * {SPAN} + s * {f['stride']}] = t;" if f["use"]
                 else f"slots[t * {f['stride']}] = s;")
        what = ("stores its thread index at the slot it got (an address made from the returned value)"
                if f["use"] else "stores the value it got at its own slot (only the values depend on the order)")
        np.save(out / f"{f['stem']}.npy", f["keys"])
        (out / f"{f['stem']}.cu").write_text(_KERNEL.format(
            threads=32 * f["warps"], stem=f["stem"], warps=f["warps"], counters=f["counters"], what=what,
            words=words, store=store))
        meta.append({k: v for k, v in f.items() if k != "keys"})
    (out / "family.json").write_text(json.dumps(meta, indent=1) + "\n")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, default=OUT)
    write(ap.parse_args().out)


if __name__ == "__main__":
    main()
