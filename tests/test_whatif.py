"""sass/whatif.py: a padding what-if written into the kernel's declaration, and everything else
refused with the reason."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from bankexplorer.compiler import nvrtc
from bankexplorer.model.layout import SharedArray, Transform
from bankexplorer.sass.whatif import WhatIfError, padding_changes, rerun_source, rewrite_padding

KERNELS = Path(__file__).resolve().parents[1] / "resources" / "hardware" / "kernels"

SRC = """\
#define TILE 32
// __shared__ float tile[TILE][TILE];   (a comment: not the declaration)
__global__ void k(float *out)
{
    __shared__ float tile[TILE][TILE];
    __shared__ __align__(16) double d[8][4 * 4];
    __shared__ int odd[2][TILE << 1];
    extern __shared__ float dyn[];
    tile[threadIdx.y][threadIdx.x] = 1.0f;
}
"""
TILE = SharedArray("tile", "float", (32, 32))


def test_the_last_dimension_gets_the_padding():
    text, rw = rewrite_padding(SRC, {"tile": 1}, [TILE])
    assert "__shared__ float tile[TILE][TILE + 1];" in text
    assert "// __shared__ float tile[TILE][TILE];" in text  # the comment is left alone
    assert [(r.name, r.line, r.before, r.after) for r in rw] == [
        ("tile", 5, "__shared__ float tile[TILE][TILE]", "__shared__ float tile[TILE][TILE + 1]")]
    assert str(rw[0]) == "line 5: __shared__ float tile[TILE][TILE] -> __shared__ float tile[TILE][TILE + 1]"
    assert text.count("\n") == SRC.count("\n")  # lines stay where they were


def test_expressions_keep_their_meaning():
    text, _ = rewrite_padding(SRC, {"d": 2, "odd": 3})
    assert "double d[8][4 * 4 + 2];" in text
    assert "int odd[2][(TILE << 1) + 3];" in text


def test_no_change_is_the_same_text():
    assert rewrite_padding(SRC, {"tile": 0}) == (SRC, [])
    assert rerun_source(SRC, [TILE], [TILE]) == (SRC, [])


def test_only_padding_is_written():
    with pytest.raises(WhatIfError, match="layout changed, not only its padding"):
        padding_changes([TILE], [replace(TILE, transform=Transform("xor", (("target", 1), ("expr", "row"))))])
    with pytest.raises(WhatIfError, match="dimensions changed"):
        padding_changes([TILE], [replace(TILE, dims=(16, 64))])
    with pytest.raises(WhatIfError, match="element type changed"):
        padding_changes([TILE], [replace(TILE, dtype="int")])
    with pytest.raises(WhatIfError, match="not an array of the compiled kernel"):
        padding_changes([TILE], [SharedArray("other", "float", (4,))])
    assert padding_changes([TILE], [replace(TILE, padding=4)]) == {"tile": 4}


def test_declarations_that_cannot_be_padded_are_refused():
    with pytest.raises(WhatIfError, match="cannot find the declaration of temp"):
        rewrite_padding(SRC, {"temp": 1})
    with pytest.raises(WhatIfError, match="extern __shared__"):
        rewrite_padding(SRC, {"dyn": 1})
    twice = SRC.replace("    extern", "    { __shared__ float tile[4][4]; }\n    extern")
    with pytest.raises(WhatIfError, match="declared 2 times"):
        rewrite_padding(twice, {"tile": 1})
    with pytest.raises(WhatIfError, match="not the 16x64 array the window shows"):
        rewrite_padding(SRC, {"tile": 1}, [replace(TILE, dims=(16, 64))])
    cub = (KERNELS / "extra11" / "cub_radix_sort_keys_128x4.cu").read_text()
    with pytest.raises(WhatIfError, match="not declared as an array|cannot find"):
        rewrite_padding(cub, {"temp": 1})


@pytest.mark.skipif(not nvrtc.available(), reason="NVRTC / nvdisasm not installed")
def test_the_rerun_compiles_to_what_the_what_if_said():
    """transpose_naive padded by one: the what-if's numbers are the compiled kernel's."""
    import numpy as np

    from bankexplorer.model.analysis import analyze
    from bankexplorer.sass.launch import LaunchConfig
    from bankexplorer.kernels.cuda_source import emulate
    from bankexplorer.sass.to_pattern import kernel_pattern

    path = KERNELS / "transpose_naive.cu"
    src = path.read_text()
    cfg = LaunchConfig((32, 8, 1))
    pat = kernel_pattern(emulate(src, cfg, path=str(path)), src, "t", cfg=cfg, path=str(path))
    padded = pat.with_array(0, replace(pat.arrays[0], padding=1))
    text, rw = rerun_source(src, pat.kernel.compiled_arrays, padded.arrays)
    assert len(rw) == 1 and rw[0].after.endswith("+ 1]")
    again = kernel_pattern(emulate(text, cfg, path=str(path)), text, "t", cfg=cfg, path=str(path))
    assert again.arrays[0].dims == (32, 33) and again.kernel.what_if(again.arrays) == []
    want = analyze(padded, detail=False)
    got = analyze(again, detail=False)
    assert got.totals().wavefronts == want.totals().wavefronts < analyze(pat, detail=False).totals().wavefronts
    assert np.array_equal(np.sort(got.result.wavefronts), np.sort(want.result.wavefronts))
