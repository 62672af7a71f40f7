"""A deliberately plain, per-lane implementation of the hardware rules.

It is the oracle the vectorized engine is tested against (random instructions must agree) and the
baseline ``scripts/bench_engine.py`` measures the engine's speed-up over. It reads the rules the way
the hardware notes state them: per phase, per bank, the number of distinct words.
"""

from __future__ import annotations

from typing import Sequence

from .hardware import MATRIX_KINDS, NVIDIA_SM70_SM90, Hardware, atomic_is_native


def phases_of(kind: str, width: int, addresses: Sequence[int | None], hw: Hardware, matrices: int = 0,
              space: str = "shared") -> list[list[int]]:
    """The lanes served together, phase by phase."""
    W = hw.warp_size
    if kind in MATRIX_KINDS:
        return [list(range(8 * m, 8 * m + 8)) for m in range(matrices)]
    if kind == "atomic" and hw.rules == "simple":
        return [list(range(W))]
    per = min(W, max(1, hw.row_bytes // max(width, hw.bank_width)))  # 8-byte atomics: half-warps
    if hw.rules == "nvidia" and kind == "load" and space == "shared" and width > hw.bank_width:

        def pairs_agree(x: int) -> bool:
            for i in range(W):
                a, b = addresses[i], addresses[i ^ x] if (i ^ x) < W else None
                if a is not None and b is not None and a != b:
                    return False
            return True

        if pairs_agree(1) or pairs_agree(2):
            per = min(W, per * 2)
    return [list(range(s, s + per)) for s in range(0, W, per)]


def reference_wavefronts(
    kind: str, width: int, addresses: Sequence[int | None], hw: Hardware = NVIDIA_SM70_SM90, matrices: int = 0,
    space: str = "shared", op: str = "add",
) -> int:
    if kind in MATRIX_KINDS:
        width = 16
    total = 0
    for lanes in phases_of(kind, width, addresses, hw, matrices, space):
        words_in_bank: dict[int, list[int]] = {}
        for lane in lanes:
            a = addresses[lane]
            if a is None:
                continue
            for word in range(a // hw.bank_width, (a + width - 1) // hw.bank_width + 1):
                bank = word % hw.banks
                seen = words_in_bank.setdefault(bank, [])
                if kind == "atomic" or word not in seen:  # atomics never share a word
                    seen.append(word)
        if words_in_bank:
            total += max(len(v) for v in words_in_bank.values())
    if kind == "atomic" and (op == "cas" or not atomic_is_native(op, width)):
        total *= 2  # compare-and-swap: a compare pass and a swap pass
    return total


def reference_cas_loop(width: int, addresses: Sequence[int | None],
                       hw: Hardware = NVIDIA_SM70_SM90) -> tuple[int, int, int]:
    """A compare-and-swap loop, iteration by iteration: (iterations, wavefronts of its reloads,
    their ideal).

    Each iteration every remaining lane reloads its word (a load: distinct words per bank slot, per
    phase; ideal: the distinct words of the phase over the slots, rounded up), then each (phase,
    slot) lets its lowest remaining lane swap; the others retry."""
    W = hw.warp_size
    u = max(width, hw.bank_width)
    slots = max(1, hw.row_bytes // u)
    per = min(W, max(1, hw.row_bytes // u))
    remaining = [lane for lane in range(W) if addresses[lane] is not None]
    iterations = loads = ideal = 0
    while remaining:
        iterations += 1
        cost: dict[int, dict[int, set[int]]] = {}
        for lane in remaining:
            unit = addresses[lane] // u
            cost.setdefault(lane // per, {}).setdefault(unit % slots, set()).add(unit)
        loads += sum(max(len(v) for v in ph.values()) for ph in cost.values())
        ideal += sum(-(-sum(len(v) for v in ph.values()) // slots) for ph in cost.values())
        winners: dict[tuple[int, int], int] = {}
        for lane in remaining:
            key = (lane // per, (addresses[lane] // u) % slots)
            winners.setdefault(key, lane)
        remaining = [lane for lane in remaining if lane not in winners.values()]
    return iterations, loads, ideal
