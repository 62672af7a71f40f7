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


COMPILED = compiled.load()


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
