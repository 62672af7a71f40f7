"""A warp instruction served wavefront by wavefront: which lanes each wavefront serves.

What the window's replay and the animated export step through: step 0 is the whole request,
steps 1..N the N wavefronts, step N+1 the totals. No Qt here.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .analysis import InstructionDetail


def wavefront_lanes(det: InstructionDetail) -> list[np.ndarray]:
    """Per wavefront 0..N-1, the lanes it serves (sorted). A compare-and-swap's second pass serves
    the same lanes as its first, so its wavefronts repeat the first pass's lanes."""
    n = int(det.wavefronts)
    wave = np.where(det.lane_addr >= 0, det.lane_wave, -1)
    m = int(wave.max()) + 1 if (wave >= 0).any() else 0
    out = []
    for k in range(n):
        kk = k % m if m and n > m and n % m == 0 else k
        out.append(np.flatnonzero(wave == kk))
    return out


def lane_text(lanes) -> str:
    """``lane 3`` / ``lanes 0-7, 16`` / ``no lane``: ranges of consecutive lanes joined."""
    ls = sorted(int(x) for x in lanes)
    if not ls:
        return "no lane"
    parts, start = [], ls[0]
    for a, b in zip(ls, ls[1:] + [None]):
        if b != a + 1:
            parts.append(str(start) if start == a else f"{start}–{a}")
            start = b
    return ("lane " if len(ls) == 1 else "lanes ") + ", ".join(parts)


@dataclass(frozen=True)
class ReplayStep:
    """One step of a replay: ``kind`` is ``request`` (everything), ``wavefront`` or ``totals``;
    ``wave`` is the wavefront (0-based) of a wavefront step; ``now`` the lanes it serves,
    ``done`` the lanes earlier wavefronts served, ``waiting`` those still waiting."""

    index: int
    kind: str
    wave: int | None
    now: np.ndarray
    done: np.ndarray
    waiting: np.ndarray


def replay_steps(det: InstructionDetail) -> list[ReplayStep]:
    """Wavefronts + 2 steps: the request, one per wavefront, the totals."""
    per = wavefront_lanes(det)
    served = np.flatnonzero(det.lane_addr >= 0)
    none = np.zeros(0, np.int64)
    steps = [ReplayStep(0, "request", None, served, none, none)]
    done: set[int] = set()
    for k, lanes in enumerate(per):
        now = set(lanes.tolist())
        prev = np.array(sorted(done - now), np.int64)
        done |= now
        wait = np.array(sorted(set(served.tolist()) - done), np.int64)
        steps.append(ReplayStep(k + 1, "wavefront", k, lanes, prev, wait))
    steps.append(ReplayStep(len(per) + 1, "totals", None, none, served, none))
    return steps
