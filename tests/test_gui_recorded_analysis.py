"""The window's analysis of an imported kernel (its distinct executions analyzed, spread back to every
execution) is the model's analysis, field by field: compiled, as a padding what-if, and with the
errors a what-if can make."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from bankexplorer.compiler import nvrtc
from bankexplorer.gui import recorded_analysis
from bankexplorer.gui.recorded_analysis import RecordedAnalyzer, RowGather
from bankexplorer.model.analysis import analyze

pytestmark = pytest.mark.skipif(not nvrtc.available(), reason="needs the compile extra")

KERNELS = Path(__file__).resolve().parents[1] / "resources" / "hardware" / "kernels"
LOOP = """\
__global__ void column_loop(float *out, int n)
{
    __shared__ float s[32][32];
    int x = threadIdx.x & 31, y = threadIdx.x >> 5;
    s[y][x] = x + y;
    __syncthreads();
    float acc = 0.0f;
    for (int i = 0; i < n; ++i)
        acc += s[x][(y + i) & 31];
    out[threadIdx.x] = acc;
}
"""


def kernel(name: str, block, text: str | None = None, **scalars):
    from bankexplorer.sass.launch import LaunchConfig
    from bankexplorer.kernels.cuda_source import emulate
    from bankexplorer.sass.to_pattern import kernel_pattern

    path = KERNELS / name if text is None else None
    src = text if text is not None else path.read_text()
    arrays = {} if path is None else {
        n: np.load(path.parent / f).tobytes() for n, f in re.findall(r"//\s*input:\s*(\w+)\s*=\s*(\S+)", src)}
    cfg = LaunchConfig(tuple(block), scalars=scalars, arrays=arrays)
    return kernel_pattern(emulate(src, cfg, path=str(path) if path else None), src, "k", cfg=cfg)


def same(a, b) -> None:
    for f in ("source", "iteration", "warp", "repeat"):
        assert np.array_equal(getattr(a, f), getattr(b, f)), f
    for f in ("wavefronts", "ideal", "degree", "phases", "bytes_requested", "bytes_moved", "executions",
              "loop_load_wavefronts", "loop_load_ideal", "lanes_per_phase", "lane_wave", "lane_phase", "served", "lane_shared",
              "lane_conflict", "lane_unit"):
        x, y = getattr(a.result, f), getattr(b.result, f)
        assert (x is None) == (y is None), f
        if x is not None:
            assert np.array_equal(np.asarray(x), y), f
    for f in ("kind", "width", "matrices", "addr", "active"):
        assert np.array_equal(np.asarray(getattr(a.batch, f)), getattr(b.batch, f)), f
    assert np.array_equal(np.asarray(a.lane_tid), b.lane_tid)
    assert np.array_equal(np.asarray(a.lane_index), b.lane_index)
    assert a.errors == b.errors and a.result.error == b.result.error
    assert a.instruction_errors == b.instruction_errors and a.instruction_notes == b.instruction_notes
    assert a.totals() == b.totals() and a.most_expensive() == b.most_expensive()
    # row by row, as the views read them
    for r in range(0, len(b), max(1, len(b) // 7)):
        assert np.array_equal(a.lane_tid[r], b.lane_tid[r]) and a.lane_tid[r, 5] == b.lane_tid[r, 5]
        assert np.array_equal(a.result.lane_wave[r], b.result.lane_wave[r])
        assert np.array_equal(a.lane_index[r, 3], b.lane_index[r, 3])


CASES = [("transpose_naive.cu", (32, 8, 1), None, {}), ("float4_rows.cu", (32, 8, 1), None, {}),
         ("histogram_atomics.cu", (64, 1, 1), None, {}), ("matmul_tiled.cu", (16, 16, 1), None, {}),
         ("extra11/cub_radix_sort_keys_128x4.cu", (128, 1, 1), None, {}),
         ("loop", (1024, 1, 1), LOOP, {"n": 40})]


@pytest.mark.parametrize("name,block,text,scalars", CASES, ids=[c[0] for c in CASES])
def test_the_same_analysis_compiled_and_padded(monkeypatch, name, block, text, scalars):
    monkeypatch.setattr(recorded_analysis, "MIN_ROWS", 0)  # the fast path even for small kernels
    pat = kernel(name, block, text, **scalars)
    fast = RecordedAnalyzer()
    same(fast.analyze(pat), analyze(pat))
    for k, a in enumerate(pat.arrays):
        if a.ndim >= 2:
            padded = pat.with_array(k, replace(a, padding=1))
            same(fast.analyze(padded), analyze(padded))


def test_an_edit_analyzes_only_the_distinct_executions():
    pat = kernel("loop", (1024, 1, 1), LOOP, n=200)
    rows = sum(len(i.recorded) for i in pat.instructions)
    assert rows > 6000
    fast = RecordedAnalyzer()
    an = fast.analyze(pat)
    few = sum(len(fast._entry(i.recorded)[0].first) for i in pat.instructions)
    assert few <= 33 * len(pat.instructions)  # a column of 32 per warp offset, whatever the loop's length
    assert isinstance(an.lane_index, RowGather) and len(an.lane_index) == rows
    assert an.lane_index.shape == (rows, 32, 3) and an.lane_index[:5].shape == (5, 32, 3)


def test_row_gather_is_an_array_when_used_as_one():
    base = np.arange(12).reshape(4, 3)
    g = RowGather(base, np.array([3, 0, 0, 2]))
    full = base[[3, 0, 0, 2]]
    assert np.array_equal(np.asarray(g), full) and np.array_equal(g + 1, full + 1)
    assert g[1, 2] == 2 and np.array_equal(g[[0, 3]], full[[0, 3]]) and np.array_equal(g[1:3, 1], full[1:3, 1])
    assert np.array_equal(g[g[:, 0] > 0], full[full[:, 0] > 0]) and g.max() == 11 and g.shape == (4, 3)
