"""The scheduling policies of :mod:`.simt`, as named objects: what the GPU decides that the code does not.

The SIMT machinery (groups, convergence barriers, block barriers) is the code's; *which* waiting
group runs next, when groups that meet merge, what a ``YIELD`` changes and when a spinning group
or warp gives way are the GPU's choices, which no document states. Each is a policy here, measured
on a probe family (``resources/hardware/README.md``, "Probe discipline"), and names the family and
its held-out score. A policy that does not fit every probe of its family is *inexact*: the
instructions whose counts it decided are reported as schedule-dependent (``certainty``
``"schedule"`` in ``--sass-json``), never as facts of the code.

A :class:`Schedule` is one policy of each kind, chosen by name (:data:`SCHEDULES`); ``"h100"``
(the measured behaviour) is the default, ``"simple"`` the rule the emulator had before the probes
(taken part first, no merge on a switch, ``YIELD`` ignored), kept to show how far a count depends
on the choice. The scheduler calls the policies; it never looks at their names.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol


class Policy(Protocol):
    """What every policy says about itself."""

    name: str
    #: the probe family it was measured on (folder or file under ``resources/hardware/``)
    family: str
    #: its score on the family's held-out part (or on all of it where none was set aside), short
    score: str
    #: how it was found and what it misses, in words
    detail: str
    #: fits every probe of its family: the counts it decides are facts, not the GPU's timing
    exact: bool


@dataclass(frozen=True)
class SplitOrder:
    """Which part of a group split by a branch runs first (the rest waits its turn)."""

    name: str
    family: str
    score: str
    detail: str
    exact: bool
    fewer_first: bool  #: the part with fewer threads first (else the taken part first)

    def key(self, target: int, pc: int, bits: int) -> tuple[int, int]:
        """Sort key of a part (lower runs first): after an ordinary branch, on a tie the
        fall-through part."""
        through = 0 if target == pc + 16 else 1
        return (bits.bit_count(), through) if self.fewer_first else (1 - through, 0)

    def key_after_yield(self, target: int, pc: int, bits: int) -> tuple[int, int]:
        """The same for a group that issued ``YIELD``: on a tie the taken part (a loop's next pass)."""
        taken = 0 if target != pc + 16 else 1
        return (bits.bit_count(), taken) if self.fewer_first else (taken, 0)


@dataclass(frozen=True)
class Reconvergence:
    """Whether groups waiting at one pc merge when their warp switches to one of them."""

    name: str
    family: str
    score: str
    detail: str
    exact: bool
    merge_on_switch: bool
    #: the split's other half runs alone when the group that blocked issued no memory instruction
    #: since the split (the measured exception, :meth:`merge`)
    sibling_alone: bool

    def merge(self, gs: list, blocked: tuple | None) -> None:
        """The warp's first group is about to run after a switch: every other waiting group at its
        pc that got there by the same kind of edge joins it, unless it is the sibling of the group
        that waited last (``blocked``: its split and memory flag) and that one issued no memory
        instruction since the split."""
        head = gs[0]
        if not self.merge_on_switch or head.solo:
            return
        if self.sibling_alone and blocked is not None and head.split is not None and head.split == blocked[0] \
                and not blocked[1]:
            return
        joined = [g for g in gs[1:] if g.pc == head.pc and g.taken == head.taken and not g.solo]
        if joined:
            for g in joined:
                head.bits |= g.bits
            head.age = 0
            gs[1:] = [g for g in gs[1:] if g not in joined]


@dataclass(frozen=True)
class YieldRule:
    """What ``YIELD`` changes: a BSYNC stops waiting for the threads that issued one, and the group
    lets its warp switch at its next branch (``switches``); off, ``YIELD`` is a no-op."""

    name: str
    family: str
    score: str
    detail: str
    exact: bool
    switches: bool


@dataclass(frozen=True)
class Starvation:
    """When a spinning group gives way to its warp's other groups (``group_issues`` in a row), and
    when a warp kept waiting runs out of pc order (``warp_steps``)."""

    name: str
    family: str
    score: str
    detail: str
    exact: bool
    group_issues: int
    warp_steps: int


@dataclass(frozen=True)
class Schedule:
    """One policy of each kind, chosen together by name."""

    name: str
    split: SplitOrder
    reconverge: Reconvergence
    yield_rule: YieldRule
    starvation: Starvation

    @property
    def policies(self) -> tuple:
        return self.split, self.reconverge, self.yield_rule, self.starvation


FEWER_FIRST = SplitOrder(
    "fewer-threads-first", "kernels/extra20/yield (exit patterns) and the BSYNC counts of the measured kernels",
    "28 of 28 patterns", "loops whose lanes leave after 1, 2, 3... iterations (28 patterns, and the same with "
    "lanes shuffled): every BSYNC count; no part was set aside", True, True)
TAKEN_FIRST = SplitOrder("taken-first", "none (the rule before the probes)", "355 of 363 kernels",
                         "missed the BSYNC counts of 8 of the 363 kernels the measured rule fits", False, False)
MERGE_ON_SWITCH = Reconvergence(
    "merge-on-switch", "kernels/persass*.json and extra11-extra18 (363 kernels NVRTC compiles to the measured code)",
    "29 of 29 held out", "written from 363 kernels (all fit, the sibling exception from sliding_window_max_deque's "
    "172 loop runs); held out: extra19, 29 kernels measured before the rule, every BSYNC count (4 the old rule "
    "missed)", True, True, True)
NEVER_MERGE = Reconvergence("never-merge", "none (the rule before the probes)", "355 of 363 kernels",
                            "missed the BSYNC counts of 8 of 363 kernels", False, False, False)
YIELD_SWITCHES = YieldRule(
    "yield-switches", "kernels/extra20/yield (40 one-warp probes of groups leaving YIELD loops)",
    "28 of 40 probes", "every executed and thread count of 28 of the 40 (2 before the rule; no part set aside): "
    "which groups merge at the next BSYNC when they leave a YIELD loop at 4 or more points is not known, and the "
    "GPU served two groups' later loads as one request in 8", False, True)
YIELD_IGNORED = YieldRule("yield-ignored", "kernels/extra20/yield", "2 of 40 probes",
                          "YIELD as a no-op: the rule before the probes", False, False)
STARVATION_THRESHOLDS = Starvation(
    "starvation-20000-64", "spin locks, polled flags and CAS loops of extra12, extra13 and extra16",
    "no family", "thresholds chosen so that spin waits finish; how many passes a spin makes is the GPU's timing, "
    "not a measured rule", False, 20_000, 64)

SCHEDULES: dict[str, Schedule] = {
    s.name: s for s in (
        Schedule("h100", FEWER_FIRST, MERGE_ON_SWITCH, YIELD_SWITCHES, STARVATION_THRESHOLDS),
        Schedule("simple", TAKEN_FIRST, NEVER_MERGE, YIELD_IGNORED, STARVATION_THRESHOLDS),
    )
}
DEFAULT = SCHEDULES["h100"]


def schedule_named(name: str | None) -> Schedule:
    """The schedule of that name (None: the default); an unknown name is an error that lists them."""
    if name is None:
        return DEFAULT
    try:
        return SCHEDULES[name]
    except KeyError:
        raise ValueError(f"no scheduling policy named {name!r} (there are: {', '.join(SCHEDULES)})") from None
