"""The measurement plan of issue 6: instructions and situations the bundled H100 data does not
cover (64-bit and compare-and-swap atomics, reductions, 64-bit loads, generic addressing, odd
active masks on 8/16-byte accesses, several warps at once). Deterministic: a fixed seed.
"""

from __future__ import annotations

import numpy as np

from .ops import op_named
from .probe import Case

W = 32


def _stride(width: int, stride: int, base: int = 0) -> tuple[int, ...]:
    """Lane i at element i*stride (stride 0 = every lane on one address)."""
    return tuple(base + i * stride * width for i in range(W))


def _masked(addr, keep) -> tuple[int | None, ...]:
    return tuple(a if keep(i) else None for i, a in enumerate(addr))


def _random(rng: np.random.Generator, width: int, span: int) -> tuple[int, ...]:
    return tuple(int(x) * width for x in rng.integers(0, span // width, W))


def _case(ptx: str, addr, family: str, **info) -> Case:
    return Case(op_named(ptx), (tuple(addr),), f"{ptx} {family} {info}".strip(), {"family": family, "info": info})


def new_cases(seed: int = 6) -> list[Case]:
    rng = np.random.default_rng(seed)
    out: list[Case] = []
    # 1. atomics: 64-bit, compare-and-swap, exchange, reductions
    for ptx, width in (("atom.shared.add.u64", 8), ("atom.shared.cas.b64", 8), ("red.shared.add.u64", 8),
                       ("atom.shared.cas.b32", 4), ("red.shared.add.u32", 4), ("atom.shared.exch.b32", 4),
                       ("atom.shared.add.u32", 4), ("atom.shared.and.b32", 4), ("atom.shared.or.b32", 4),
                       ("atom.shared.xor.b32", 4), ("atom.shared.max.u32", 4), ("atom.shared.min.s32", 4),
                       ("atom.shared.inc.u32", 4), ("atom.shared.dec.u32", 4), ("atom.shared.add.f32", 4),
                       ("atom.shared.exch.b64", 8), ("atom.shared.and.b64", 8), ("atom.shared.or.b64", 8),
                       ("atom.shared.xor.b64", 8), ("atom.shared.min.u64", 8), ("atom.shared.max.s64", 8),
                       ("atom.shared.add.f64", 8), ("red.shared.and.b64", 8)):
        for s in (0, 1, 2, 4, 16, 32):
            out.append(_case(ptx, _stride(width, s), "stride", stride=s))
        out.append(_case(ptx, _random(rng, width, 4096), "random", span=4096))
        out.append(_case(ptx, _masked(_stride(width, 1), lambda i: i % 3 == 0), "mask_every3", stride=1))
        pairs = tuple((i // 2) * width for i in range(W))  # lanes 2k, 2k+1 on one address
        out.append(_case(ptx, pairs, "pairs_same"))
    # 2. 64-bit loads/stores named as b64 and v2.u64, next to their v2.u32/v4.u32 twins
    for ptx, width in (("ld.shared.b64", 8), ("ld.shared.v2.u64", 16), ("st.shared.b64", 8), ("st.shared.v2.u64", 16)):
        for s in (0, 1, 2, 8, 16):
            out.append(_case(ptx, _stride(width, s), "stride", stride=s))
        out.append(_case(ptx, _random(rng, width, 2048), "random", span=2048))
        out.append(_case(ptx, tuple((i // 2) * width for i in range(W)), "pairs_same"))
        out.append(_case(ptx, _masked(_stride(width, 1), lambda i: i % 2 == 1), "mask_odd", stride=1))
        out.append(_case(ptx, _masked(_stride(width, 2), lambda i: i % 3 == 0), "mask_every3", stride=2))
    # 3. generic addressing of shared memory (SASS LD/ST rather than LDS/STS)
    for ptx, width in (("ld.u8", 1), ("ld.u16", 2), ("ld.u32", 4), ("ld.v2.u32", 8), ("ld.v4.u32", 16),
                       ("ld.b64", 8), ("ld.v2.u64", 16), ("st.u8", 1), ("st.u16", 2), ("st.u32", 4),
                       ("st.v2.u32", 8), ("st.v4.u32", 16)):
        for s in (0, 1, 2, 32):
            out.append(_case(ptx, _stride(width, s), "stride", stride=s))
        out.append(_case(ptx, _random(rng, width, 2048), "random", span=2048))
        out.append(_case(ptx, _masked(_stride(width, 1), lambda i: i % 2 == 1), "mask_odd", stride=1))
        # the pairs/quads that let an LDS.64/.128 serve twice the lanes per wavefront
        out.append(_case(ptx, tuple((i // 2) * width for i in range(W)), "pairs_same"))
        out.append(_case(ptx, tuple((i // 2) * width * 2 for i in range(W)), "pairs_same", stride=2))
        out.append(_case(ptx, tuple((i // 4) * width * 8 for i in range(W)), "quads_same", stride=8))
        out.append(_case(ptx, _masked(_stride(width, 2), lambda i: i % 4 < 2), "mask_pairs", stride=2))
    # 4. 8/16-byte loads and stores under odd active masks
    masks = {
        "odd_lanes": lambda i: i % 2 == 1,
        "every3": lambda i: i % 3 == 0,
        "first7": lambda i: i < 7,
        "lane31": lambda i: i == 31,
        "quarter_gaps": lambda i: i % 8 not in (2, 5),
        "random": None,
    }
    for ptx, width in (("ld.shared.v2.u32", 8), ("ld.shared.v4.u32", 16), ("st.shared.v2.u32", 8),
                       ("st.shared.v4.u32", 16)):
        for name, keep in masks.items():
            if keep is None:
                bits = rng.integers(0, 2, W).astype(bool)
                keep = lambda i, b=bits: bool(b[i])  # noqa: E731
            for layout, addr in (("contig", _stride(width, 1)), ("stride2", _stride(width, 2)),
                                 ("pairs_same", tuple((i // 2) * width for i in range(W))),
                                 ("quads_same", tuple((i // 4) * width * 8 for i in range(W)))):
                out.append(_case(ptx, _masked(addr, keep), f"mask_{name}", layout=layout))
    # 5. several warps at once: does a warp instruction cost the same when 2-8 warps issue it?
    multi = [
        ("ld.shared.u32", lambda w: _stride(4, 32, w * 4), "column_per_warp"),
        ("ld.shared.u32", lambda w: _stride(4, 1, w * 128), "row_per_warp"),
        ("ld.shared.v4.u32", lambda w: _stride(16, 1, w * 512), "float4_rows"),
        ("ld.shared.v4.u32", lambda w: _stride(16, 8), "float4_conflict_same"),
        ("st.shared.u32", lambda w: _stride(4, 2, w * 256), "stride2_per_warp"),
        ("atom.shared.add.u32", lambda w: _stride(4, 0, w * 4), "same_address_per_warp"),
        ("atom.shared.add.u32", lambda w: _stride(4, 0), "one_address_all_warps"),
        ("ldmatrix.sync.aligned.m8n8.x4.shared.b16", lambda w: tuple(i * 128 + w * 4096 for i in range(W)), "rows128"),
        ("ldmatrix.sync.aligned.m8n8.x4.shared.b16", lambda w: tuple(i * 16 + w * 512 for i in range(W)), "rows16"),
    ]
    for warps in (2, 4, 8, 32):
        for ptx, gen, family in multi:
            out.append(Case(op_named(ptx), tuple(gen(w) for w in range(warps)),
                            f"{ptx} {family} x{warps} warps", {"family": f"warps_{family}", "info": {"warps": warps}}))
        # different random addresses per warp
        out.append(Case(op_named("ld.shared.u32"), tuple(_random(rng, 4, 4096) for _ in range(warps)),
                        f"ld.shared.u32 random x{warps} warps", {"family": "warps_random", "info": {"warps": warps}}))
    return out
