"""The expression language: C integer semantics, vectorized, and errors that say where."""

import numpy as np
import pytest

from bankexplorer.model.errors import ExprError
from bankexplorer.model.expr import evaluate, parse

X = np.arange(-4, 5)


@pytest.mark.parametrize("text,expected", [
    ("7 / 2", 3), ("-7 / 2", -3), ("7 / -2", -3), ("-7 % 3", -1), ("7 % -3", 1),
    ("1 << 4 | 3", 19), ("6 ^ 3 & 1", 7), ("(6 ^ 3) & 1", 1), ("2 + 3 * 4", 14), ("~0", -1),
    ("min(3, 9) + max(3, 9) + abs(-5)", 17), ("1 < 2 && 2 < 1 || 1", 1), ("!5", 0), ("0x10 + 0b11", 19),
    ("3 > 2 ? 10 : 20", 10), ("10u + 2L", 12),
])
def test_c_semantics(text, expected):
    assert int(evaluate(text, {})) == expected


def test_vectorized_over_threads():
    lane = np.arange(32)
    out = evaluate("lane ^ (lane / 4)", {"lane": lane})
    assert out.shape == (32,) and list(out[:8]) == [0, 1, 2, 3, 5, 4, 7, 6]
    loop = np.arange(3)[:, None]
    assert evaluate("lane + 32 * k", {"lane": lane, "k": loop}).shape == (3, 32)


def test_guarded_division_is_not_an_error():
    out = evaluate("x != 0 ? 12 / x : 0", {"x": X})
    assert list(out) == [-3, -4, -6, -12, 0, 12, 6, 4, 3]
    # also inactive lanes (mask) may divide by zero
    assert list(parse("12 / x").evaluate({"x": X}, mask=X != 0))[5] == 12


@pytest.mark.parametrize("text,message,column", [
    ("lane / (lane - lane)", "division by zero", 6),
    ("lane % 0", "division by zero", 6),
    ("foo + 1", "unknown name 'foo'", 1),
    ("__import__('os')", "unexpected character", 12),
    ("lane.__class__", "unknown name 'lane.__class__'", 1),
    ("threadIdx.w", "unknown name 'threadIdx.w'", 1),
    ("open(1)", "unknown function 'open'", 1),
    ("lane +", "expected a number", 7),
    ("(lane", "expected ')'", 6),
    ("lane lane", "unexpected 'lane'", 6),
    ("1 << 60", "shift amount", 3),
    ("lane * 4294967296 * 4294967296", "out of range", 19),
    ("99999999999999999999", "too large", 1),
    ("min(1)", "takes 2 argument", 1),
    ("", "empty expression", 1),
    ("lane[0]", "unexpected character '['", 5),
    ("a = 1", "unexpected character '='", 3),
])
def test_errors_name_position(text, message, column):
    with pytest.raises(ExprError) as ei:
        evaluate(text, {"lane": np.arange(32), "threadIdx.x": np.arange(32)})
    e = ei.value
    assert message in e.detail, e.detail
    assert e.pos + 1 == column, (e.pos, str(e))
    assert f"column {column}" in str(e)


def test_absurd_inputs_do_not_hang():
    with pytest.raises(ExprError, match="nested too deeply"):
        parse("(" * 500 + "1" + ")" * 500)
    with pytest.raises(ExprError, match="longer than"):
        parse("1+" * 5000 + "1")
    with pytest.raises(ExprError, match="nested too deeply"):
        parse("-" * 500 + "1")


def test_names_are_collected():
    assert parse("threadIdx.x + blockDim.x * k").names == {"threadIdx.x", "blockDim.x", "k"}
