"""The input arrays of the kernels of extra14/ (their ``// input:`` lines), from fixed seeds
(what every recipe promises: ``scripts/kernel_inputs.py``).

Only int32, uint32, uint8 and float32 arrays are written; kernels that read 16-bit or 64-bit
values get them packed into ``uint32`` words (little-endian, so the bytes are those of the
``__half`` / ``unsigned long long`` array the kernel reads).

usage: python scripts/kernel_inputs.py extra14 [--out DIR]  (default: this folder)
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

import kernel_inputs  # scripts/kernel_inputs.py: what every batch's recipe shares


def make(out: Path) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(20260114)
    a: dict[str, np.ndarray] = {}
    a["ints_1024"] = rng.integers(0, 1000, 1024, dtype=np.int32)
    a["keys_1024"] = rng.integers(-2**31, 2**31, 1024, dtype=np.int64).astype(np.int32)
    a["ukeys_1024"] = rng.integers(0, 2**32, 1024, dtype=np.uint64).astype(np.uint32)
    a["bytes_2048"] = rng.integers(0, 256, 2048, dtype=np.int64).astype(np.uint8)
    a["floats_1024"] = rng.normal(0, 4, 1024).astype(np.float32)
    # floats with halves, exact ties (x.5), negatives, -0.0, large values and a few specials
    f = (rng.integers(-400, 400, 1024) / 4.0).astype(np.float32)
    f[::37] = -0.0
    f[5::97] = np.float32(3.0e9)
    f[7::101] = np.float32(-2.5e9)
    f[11::131] = np.float32(1.0e-40)  # subnormal
    a["rounding_1024"] = f
    # small integers as floats (exact sums and products)
    a["small_floats_1024"] = rng.integers(-8, 9, 1024).astype(np.float32)
    # 1024 halves holding small integers (exact in half arithmetic), packed two to a word
    h = rng.integers(-6, 7, 1024).astype(np.float16)
    a["half_pairs_512"] = h.view(np.uint32).copy()
    # 512 64-bit keys: mixed magnitudes (some zero, some with only low or only high bits)
    hi = rng.integers(0, 2**32, 512, dtype=np.uint64)
    lo = rng.integers(0, 2**32, 512, dtype=np.uint64)
    sel = rng.integers(0, 4, 512)
    hi = np.where(sel == 1, 0, hi).astype(np.uint64)
    lo = np.where(sel == 2, 0, lo).astype(np.uint64)
    u64 = (hi << np.uint64(32)) | lo
    u64[::61] = 0
    a["u64_pairs_1024"] = u64.astype(np.uint64).view(np.uint32).copy()
    # runtime divisors: nonzero, both signs, small and large, powers of two
    d = rng.integers(1, 50, 1024).astype(np.int64)
    d[::3] = -d[::3]
    d[::7] = rng.integers(1, 2**31 - 1, len(d[::7]))
    d[::11] = 1 << rng.integers(0, 30, len(d[::11]))
    d[::13] = -1
    a["divisors_1024"] = d.astype(np.int32)
    # a 34 x 34 uint8 image (a 32 x 32 tile with a 1-pixel halo): smooth ramps and an edge
    y, x = np.mgrid[0:34, 0:34]
    img = (x * 5 + y * 3 + np.where(x + y > 34, 90, 0) + rng.integers(0, 8, (34, 34))) % 256
    a["image_34x34"] = img.astype(np.uint8).ravel()
    # 64 complex inputs (re, im interleaved) of small integers and the 32 twiddles of a
    # 64-point FFT, cos and -sin of 2 pi k / 64 rounded to float32 (computed here, not on the GPU)
    a["fft_in_128"] = rng.integers(-4, 5, 128).astype(np.float32)
    k = np.arange(32)
    tw = np.empty(64, np.float32)
    tw[0::2] = np.cos(2 * np.pi * k / 64).astype(np.float32)
    tw[1::2] = (-np.sin(2 * np.pi * k / 64)).astype(np.float32)
    a["twiddles_64"] = tw
    # logits as small integers: softmax weights are exact powers of two
    a["logits_int_1024"] = rng.integers(-20, 5, 1024).astype(np.float32)
    a["perm_256"] = rng.permutation(256).astype(np.int32)

    return kernel_inputs.save(out, a)

