"""Where elements land: padding, XOR swizzles, CuTe Swizzle<B,M,S>, remaps."""

import numpy as np
import pytest

from bankexplorer.model.layout import SharedArray, Transform
from bankexplorer.model.swizzle import Swizzle


def at(arr, *idx):
    return arr.byte_offsets(tuple(np.asarray(i) for i in idx))


def test_padding_changes_pitch_and_size():
    a = SharedArray("tile", "float", (32, 32), padding=1)
    assert a.pitch == 33 and a.nbytes == 32 * 33 * 4 and a.declaration() == "float tile[32][33]"
    assert list(at(a, np.arange(4), 0)) == [0, 132, 264, 396]
    assert list(SharedArray("t", "float", (2, 3, 4), padding=2).strides()) == [18, 6, 1]


def test_xor_swizzle_of_column_by_row():
    a = SharedArray("s", "float", (32, 32), transform=Transform.make("xor", target=1, expr="row"))
    rows = np.arange(32)
    banks = at(a, rows, np.full(32, 5)) // 4 % 32
    assert sorted(banks) == list(range(32))  # column 5 spread over all banks
    assert a.nbytes == 4096 and a.validate() == []


def test_xor_that_leaves_the_array_is_rejected():
    a = SharedArray("s", "float", (32, 16), transform=Transform.make("xor", target=1, expr="row"))
    (where, msg), = a.validate()
    assert where == "transform.expr" and "outside 0..15" in msg


@pytest.mark.parametrize("B,M,S,x,expected", [
    (3, 4, 3, 0b1010110000, 0b1010110000 ^ (0b101 << 4)),
    (2, 0, 3, 0b11101, 0b11101 ^ 0b11),
    (3, 3, -3, 0b000111000, 0b000111000 ^ (0b111 << 6)),  # negative S: low bits into high bits
    (0, 4, 3, 12345, 12345),
])
def test_cute_swizzle_bits(B, M, S, x, expected):
    assert int(Swizzle(B, M, S)(x)) == expected


def test_cute_swizzle_is_an_involution_and_bijection():
    sw = Swizzle(3, 4, 3)
    x = np.arange(4096)
    assert (sw(sw(x)) == x).all() and len(set(sw(x).tolist())) == 4096


def test_cute_on_elements_vs_bytes():
    el = SharedArray("A", "half", (8, 64), transform=Transform.make("cute", B=3, M=3, S=3, unit="element"))
    by = SharedArray("A", "half", (8, 64), transform=Transform.make("cute", B=3, M=4, S=3, unit="byte"))
    idx = tuple(a.ravel() for a in np.indices((8, 64)))
    assert (el.byte_offsets(idx) == by.byte_offsets(idx)).all()
    assert list(at(by, np.arange(8), 0) // 16 % 8) == list(range(8))


def test_an_array_too_big_is_refused_before_its_transform_is_evaluated(monkeypatch):
    """The size check comes first: evaluating a remap over 67 million elements took seconds."""
    from dataclasses import replace as dc_replace

    from bankexplorer.model import layout as L
    calls = []
    info = L.TRANSFORM_INFO["remap"]
    monkeypatch.setitem(L.TRANSFORM_INFO, "remap", dc_replace(info, validate=lambda arr: calls.append(arr) or []))
    L._validate_array.cache_clear()  # validations are remembered per array value
    big = SharedArray("s", "bf16", (1024, 1024, 64), transform=Transform.make("remap", expr="i"))
    assert big.validate() == [("dims", "67,108,864 elements is too many (at most 2,097,152)")]
    assert calls == []
    ok = SharedArray("s", "bf16", (64, 64), transform=Transform.make("remap", expr="i"))
    assert ok.validate() == [] and calls == [ok]
    L._validate_array.cache_clear()  # not the stub's answer for later tests


def test_a_constant_remap_puts_every_element_on_one_word():
    """A remap that does not use ``i`` ("5", typed by a user) evaluates to one number: it is every
    element's offset (the fuzz walk over the side panel found it raising IndexError)."""
    a = SharedArray("s", "float", (64,), transform=Transform.make("remap", expr="5"))
    assert a.validate() == []
    assert list(at(a, np.array([0, 1, 63]))) == [20, 20, 20]


def test_remap_and_footprint():
    a = SharedArray("s", "float", (1024,), transform=Transform.make("remap", expr="i + i / 32"))
    assert list(at(a, np.array([0, 31, 32, 64]))) == [0, 124, 132, 264]
    assert a.nbytes == (1023 + 31 + 1) * 4


@pytest.mark.parametrize("arr,where,fragment", [
    (SharedArray("s", "float", (0, 4)), "dims[0]", "positive"),
    (SharedArray("s", "float", (4096, 4096)), "dims", "too many"),
    (SharedArray("s", "float3", (4,)), "dtype", "unknown element type"),
    (SharedArray("s", "float", (32,), padding=1), "padding", "2-D or 3-D"),
    (SharedArray("s", "float", (32, 32), base=4), "base", "multiple of 16"),
    (SharedArray("1s", "float", (32,)), "name", "not an identifier"),
    (SharedArray("s", "float", (32, 32), transform=Transform.make("cute", B=3, M=4, S=2)), "transform.S", "at least B"),
    (SharedArray("s", "float", (32, 32), transform=Transform.make("remap", expr="i - 1")), "transform.expr", "negative"),
    (SharedArray("s", "float", (32, 32), transform=Transform.make("remap", expr="i / 0")), "transform.expr", "division by zero"),
    (SharedArray("s", "float", (32,), transform=Transform.make("remap", expr="-1")), "transform.expr", "negative offset (-1)"),
])
def test_array_validation(arr, where, fragment):
    problems = arr.validate()
    assert any(w == where and fragment in m for w, m in problems), problems
