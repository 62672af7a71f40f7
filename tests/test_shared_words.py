"""Shared memory's race and taint bookkeeping by word (issue 40) against the same rules byte by byte.

While every write since the last barrier covered whole aligned words, the emulator keeps one race
stamp a word and the OR of each word's taint beside the bytes' (``ops.memory._SharedSpace``); a
narrower write switches the checks to bytes until the next barrier. These tests run random
sequences of loads, stores (some of them order-free atomics) and barriers of every width, from
lanes of several warps on a few colliding addresses, twice: as the emulator runs them, and with
the checks forced byte by byte (the rule as it was before the words), and require the same loaded
bytes and taints and the same shared memory, taint, stamps and atomic codes after every step.
"""

from __future__ import annotations

import numpy as np
import pytest

from bankexplorer.sass import compiled
from bankexplorer.sass.ops.memory import TIMING, _SharedSpace
from bankexplorer.sass.state import WARP, Block, GlobalMemory

SIZE = 128  # bytes of shared memory: few enough that the accesses collide often
LANES = 3 * WARP  # three warps


def _block(by_bytes: bool) -> Block:
    b = Block((LANES, 1, 1), (0, 0, 0), (1, 1, 1), SIZE, 0, {}, GlobalMemory([]))
    if by_bytes:
        b.shared_taint_words = None  # every load ORs its bytes' taint
    return b


def _sequence(rng: np.random.Generator, steps: int) -> list[tuple]:
    seq = []
    for _ in range(steps):
        r = rng.random()
        if r < 0.08:
            seq.append(("barrier",))
            continue
        width = int(rng.choice([1, 2, 4, 4, 4, 8, 16]))
        # a few warps' lanes, ascending (as the emulator passes them)
        lanes = np.flatnonzero(rng.random(LANES) < rng.choice([0.05, 0.3, 1.0]))
        if lanes.size == 0:
            lanes = np.array([int(rng.integers(LANES))])
        addr = rng.integers(0, SIZE // width, lanes.size).astype(np.int64) * width
        if r < 0.55:
            # few values, so that stores often write what a byte holds already
            raw = rng.choice(np.array([0, 1, 7, 255], np.uint8), (lanes.size, width))
            taint = rng.choice(np.array([0, 0, 0, 1, 2, int(TIMING)], np.uint32), lanes.size)
            taint = taint if rng.random() < 0.5 else np.uint32(taint[0])
            # some stores of 4 and 8 bytes are order-free atomics (two codes: an add, a max)
            atomic = int(rng.choice([0, 0, 1, 2])) if width in (4, 8) else 0
            seq.append(("store", addr, raw, taint, lanes, atomic))
        else:
            seq.append(("load", addr, width, lanes))
    return seq


def _run(seq: list[tuple], by_bytes: bool, module=None) -> list:
    """Each step's outcome: a load's bytes and taint, and after every step the memory's state.
    ``module``: the compiled read and write (``sass._shared``), or None: numpy's."""
    compiled.shared, before = module, compiled.shared
    try:
        return _steps(seq, by_bytes)
    finally:
        compiled.shared = before


def _steps(seq: list[tuple], by_bytes: bool) -> list:
    b = _block(by_bytes)
    epoch, out = 0, []
    for step in seq:
        if step[0] == "barrier":
            epoch += 1
            continue
        if by_bytes:
            b.shared_subword = epoch  # as after a narrower write: stamps and codes byte by byte
        space = _SharedSpace(b, epoch)
        if step[0] == "store":
            _, addr, raw, taint, lanes, atomic = step
            space.write(addr, raw, taint, lanes, atomic)
        else:
            _, addr, width, lanes = step
            data, t = space.read(addr, width, lanes)
            out.append((data.copy(), np.broadcast_to(np.asarray(t, np.uint32), lanes.shape).copy()))
        written = b.shared_stamp > epoch * (1 << 16)  # only stamps of this epoch's writes mean anything
        stamps = np.where(written, b.shared_stamp, 0)
        if not by_bytes and b.shared_subword != epoch:  # by word: each word's first byte holds its stamp
            stamps = np.repeat(stamps[::4], 4)
        codes = np.where(written, b.shared_atomic, 0)  # (likewise the atomic codes)
        if not by_bytes and b.shared_subword != epoch:
            codes = np.repeat(codes[::4], 4)
        out.append((b.shared.copy(), b.shared_taint.copy(), stamps, codes))
        if b.shared_taint_words is not None:  # the words' taint is the OR of their bytes', always
            assert np.array_equal(b.shared_taint_words, np.bitwise_or.reduce(b.shared_taint.reshape(-1, 4), axis=1))
    return out


def _same(seed: int, got: list, want: list) -> None:
    assert len(got) == len(want)
    for k, (w, y) in enumerate(zip(got, want)):
        for a, c in zip(w, y):
            assert np.array_equal(a, c), f"seed {seed}, outcome {k}"


@pytest.mark.parametrize("seed", range(12))
def test_words_give_what_bytes_give(seed):
    seq = _sequence(np.random.default_rng(seed), 120)
    _same(seed, _run(seq, False), _run(seq, True))


COMPILED = compiled.load("_shared")


@pytest.mark.skipif(COMPILED is None, reason="the compiled shared memory was not built (no C compiler at install)")
@pytest.mark.parametrize("seed", range(40))
@pytest.mark.parametrize("by_bytes", [False, True])
def test_compiled_gives_what_numpy_gives(seed, by_bytes):
    """The compiled read and write (``ops/_sharedmem.c``) against numpy's, which stay the rule:
    the same loaded bytes and taints, and the same memory, taint, stamps and codes after each step."""
    seq = _sequence(np.random.default_rng(1000 + seed), 160)
    _same(seed, _run(seq, by_bytes, COMPILED), _run(seq, True))


def test_the_compiled_path_is_taken():
    """Where it was built, the emulator uses it (a load of the block's own arrays goes through it)."""
    if COMPILED is None:
        pytest.skip("the compiled shared memory was not built")
    assert compiled.shared is COMPILED
    b = _block(False)
    calls = []

    class Spy:
        def read(self, *a):
            calls.append("read")
            return COMPILED.read(*a)

        write = staticmethod(COMPILED.write)

    compiled.shared, before = Spy(), compiled.shared
    try:
        _SharedSpace(b, 0).read(np.array([0, 4], np.int64), 4, np.array([0, 1]))
    finally:
        compiled.shared = before
    assert calls == ["read"]


def test_the_sequences_race():
    """The sequences do what the comparison needs: loads that meet another warp's store since the
    last barrier (timing taint), narrower stores after word stores in one epoch, stores of the
    value already there."""
    seq = _sequence(np.random.default_rng(0), 120)
    loads = [o for o in _run(seq, False) if len(o) == 2]  # (bytes, taint) of each load
    assert sum(int(np.count_nonzero(t & TIMING)) for _d, t in loads) > 0
    assert any(s[0] == "store" and s[2].shape[1] < 4 for s in seq)
    assert any(s[0] == "store" and s[2].shape[1] >= 4 for s in seq)
    assert any(s[0] == "store" and s[5] for s in seq)


# ---------------------------------------------------------------------- whole LDS and STS issues
# ops.memory._fused: an LDS or STS issue in one compiled call (sass/_shared.c, View.load and
# View.store), which computes the addresses, checks them, writes the recorded rows, and loads into the
# destination registers and their taint or stores the source registers' bytes. Random issues of every
# width, address form, guard and register taint (none, one for every lane, each lane's) run through
# it and through numpy's code (the rule), and everything they leave must be the same: registers and
# their taint, shared memory with its taint, stamps and codes, the recorded rows, and the faults.

_ADDRESS_FORMS = ("[R2]", "[R2+{off}]", "[R2+UR4+{off}]", "[UR4+{off}]", "[R2.X4+{off}]", "[{off}]", "[R2+UR4]")
_LOADS = {1: ("LDS.U8", "LDS.S8"), 2: ("LDS.U16", "LDS.S16"), 4: ("LDS",), 8: ("LDS.64",), 16: ("LDS.128",)}
_STORES = {1: ("STS.U8",), 2: ("STS.U16",), 4: ("STS",), 8: ("STS.64",), 16: ("STS.128",)}


def _taint_state(rng: np.random.Generator, lanes: int) -> tuple:
    """A register's taint as a run may leave it: (flagged, one for all or None, row)."""
    r = rng.random()
    if r < 0.4:
        return False, None, np.zeros(lanes, np.uint32)
    if r < 0.5:  # clean, its one number 0 (the row holds old taint nobody reads)
        return False, 0, rng.choice(np.array([0, 1, 4], np.uint32), lanes)
    if r < 0.75:
        one = int(rng.choice([1, 2, 3, int(TIMING), int(TIMING) | 1]))
        return True, one, rng.choice(np.array([0, 8], np.uint32), lanes)
    return True, None, rng.choice(np.array([0, 0, 1, 2, int(TIMING)], np.uint32), lanes)


def _issues(rng: np.random.Generator, steps: int, n: int, size: int) -> list[dict]:
    """Random issues for a block of ``n`` threads and ``size`` bytes of shared memory: each with its
    instruction, issuing threads and the registers and predicates set before it."""
    from bankexplorer.sass.decode import decode_line

    lanes = -(-n // WARP) * WARP
    out = []
    for s in range(steps):
        if rng.random() < 0.06:
            out.append({"barrier": True})
            continue
        store = rng.random() < 0.45
        width = int(rng.choice([1, 2, 4, 4, 8, 16]))
        form = str(rng.choice(_ADDRESS_FORMS))
        scaled = ".X4" in form
        off = int(rng.integers(-2, 6)) * (4 if scaled else width) if "{off}" in form else 0
        target = rng.integers(0, size // width, lanes).astype(np.int64) * width
        if scaled:
            target &= ~3
        if "R2" not in form:  # one address a warp (the uniform register's), or one for all (the offset)
            target = np.repeat(target[::WARP], WARP)
            if "UR4" not in form:
                target[:] = off = int(target[0])
        S = (rng.random(lanes) < rng.choice([0.1, 0.6, 1.0, 1.0])) & (np.arange(lanes) < n)
        S[int(rng.integers(n))] = True
        fault = rng.random() < 0.04 and "R2" in form
        if fault:  # one lane past the memory, or misaligned
            past = scaled or width == 1 or rng.random() < 0.5
            target[int(rng.choice(np.flatnonzero(S)))] = (size + 3) & ~3 if past else 1
        if "R2" in form:
            ur = rng.integers(0, 64, lanes // WARP).astype(np.int64) * 4 if "UR4" in form else \
                np.zeros(lanes // WARP, np.int64)
            base = (target - np.repeat(ur, WARP) - off) & 0xFFFFFFFF
        else:
            ur, base = (target[::WARP] - off) & 0xFFFFFFFF, np.zeros(lanes, np.int64)
        r2 = (base >> 2 if scaled else base).astype(np.uint32)
        text = form.format(off=f"-{-off:#x}" if off < 0 else f"{off:#x}").replace("+-", "-")
        guard = "" if fault else str(rng.choice(["", "", "@P1 ", "@!P2 "]))
        if store:
            edge = {8: "R254", 16: "R252"}.get(width, "R9")  # (a pair or quad that ends in RZ: reads 0 there)
            src = str(rng.choice(["R8", "R8", "RZ", "R4", edge]))
            text = f"{guard}{rng.choice(_STORES[width])} {text}, {src}"
        else:
            dst = str(rng.choice(["R4", "R8", "R2", "RZ", "R252" if width == 16 else "R10"]))
            text = f"{guard}{rng.choice(_LOADS[width])} {dst}, {text}"
        out.append({"ins": decode_line(16 * s, text), "S": S, "R2": r2, "UR4": ur.astype(np.uint32),
                    "data": rng.integers(0, 1 << 32, (4, lanes), dtype=np.uint64).astype(np.uint32),
                    "P": rng.random((2, lanes)) < 0.7, "fault": fault,
                    "taint": {(kind, i): _taint_state(rng, lanes if kind in "RP" else lanes // WARP)
                              for kind, i in (("R", 2), ("R", 8), ("R", 9), ("R", 10), ("R", 11), ("R", 254),
                                              ("U", 4), ("P", 1), ("P", 2)) if rng.random() < 0.5}})
    return out


def _set(b: Block, step: dict) -> None:
    """The registers, predicates and taint a step sets before its issue."""
    b.R[2] = step["R2"]
    b.R[8:12] = step["data"]
    b.UR[4] = step["UR4"]
    b.ur_lanes[4] = None
    b.P[1:3] = step["P"]
    for (kind, i), (flagged, one, row) in step["taint"].items():
        if kind == "U":
            b.tainted["UR"][i] = flagged
            b.URT[i] = row if flagged or one is None else 0
            continue
        rows = b.RT if kind == "R" else b.PTT
        b.tainted[kind][i] = flagged
        b.taint_one[kind][i] = one
        rows[i] = row


def _effective_taint(b: Block, kind: str) -> np.ndarray:
    """Each register's (predicate's) taint per existing lane, however it is kept."""
    rows = b.RT if kind == "R" else b.PTT
    out = np.zeros_like(rows)
    for i in range(rows.shape[0]):
        if b.tainted[kind][i]:
            one = b.taint_one[kind][i]
            out[i] = rows[i] if one is None else one
    return out[:, :b.n]


def _issue_run(steps: list[dict], n: int, size: int, module) -> list:
    """What the issues leave, step by step, executed by ops.memory's lds and sts."""
    from types import SimpleNamespace

    from bankexplorer.sass.issue import Issue
    from bankexplorer.sass.ops import memory
    from bankexplorer.sass.record import Recorder

    b = Block((n, 1, 1), (0, 0, 0), (1, 1, 1), size, 0, {}, GlobalMemory([]))
    instructions = [s["ins"] for s in steps if "ins" in s]
    program = SimpleNamespace(instructions=instructions, index_of={ins.pc: k for k, ins in enumerate(instructions)})
    run = SimpleNamespace(block=b, record=Recorder(program, b.lanes), program=program,
                          sched=SimpleNamespace(bars=SimpleNamespace(epoch=0)))
    compiled.shared, before = module, compiled.shared
    out = []
    try:
        for step in steps:
            if "barrier" in step:
                run.sched.bars.epoch += 1
                continue
            _set(b, step)
            ins = step["ins"]
            try:
                (memory.sts if ins.base == "STS" else memory.lds)(Issue(run, ins, step["S"].copy(), {}))
            except ValueError as e:  # (a MemoryFault)
                out.append(str(e))
            epoch = run.sched.bars.epoch
            written = b.shared_stamp > epoch * (1 << 16)
            stamps, codes = np.where(written, b.shared_stamp, 0), np.where(written, b.shared_atomic, 0)
            if b.shared_subword != epoch:  # by word: each word's first byte holds its stamp and code
                stamps, codes = np.repeat(stamps[::4], 4)[:size], np.repeat(codes[::4], 4)[:size]
            out.append((b.R.copy(), _effective_taint(b, "R"), b.shared.copy(), b.shared_taint.copy(), stamps, codes,
                        np.array([b.shared_written == epoch, b.shared_tainted, b.shared_subword == epoch])))
    finally:
        compiled.shared = before
    acc = run.record.rows.accesses()
    out.append(tuple(getattr(acc, f) for f in ("index", "warp", "kind", "width", "matrices", "addr", "active",
                                                   "taint", "line")))
    return out


@pytest.mark.skipif(COMPILED is None, reason="the compiled shared memory was not built (no C compiler at install)")
@pytest.mark.parametrize("seed", range(16))
def test_fused_issues_give_what_numpy_gives(seed, monkeypatch):
    """150 random LDS/STS issues and barriers on blocks of whole and partial warps and shared memory of
    a multiple of 4 bytes or not, once through the compiled call and once through numpy's code: the
    same state after every issue, the same rows, each fault's message once; the call took the issues
    (those it gives back: a fault, the rows' chunk full)."""
    from bankexplorer.sass.ops import memory

    n, size = ((96, 128), (80, 128), (96, 130), (64, 96))[seed % 4]
    steps = _issues(np.random.default_rng(2000 + seed), 150, n, size)
    taken = []
    fused = memory._fused
    monkeypatch.setattr(memory, "_fused", lambda *a: taken.append(fused(*a)) or taken[-1])
    got = _issue_run(steps, n, size, COMPILED)
    monkeypatch.undo()
    want = _issue_run(steps, n, size, None)
    assert len(got) == len(want)
    for k, (g, w) in enumerate(zip(got, want)):
        if isinstance(w, str):
            assert g == w, f"seed {seed}, outcome {k}"
            continue
        for a, c in zip(g, w):
            assert np.array_equal(a, c), f"seed {seed}, outcome {k}"
    assert sum(taken) > 0.8 * len(taken), "the compiled call took too few of the issues"
    assert sum(isinstance(w, str) for w in want) == sum(s.get("fault", False) for s in steps)  # each fault, once
