"""The bundled examples and the numbers they teach."""

import pytest

from bankexplorer.io import patternfile as pf
from bankexplorer.model import analyze
from bankexplorer.resources import EXAMPLES


def run(name):
    an = analyze(pf.load(EXAMPLES / name))
    assert not an.instruction_errors, an.instruction_errors
    return an


def per_instruction(an):
    """wavefronts per pattern instruction (the same for every warp and iteration, asserted)."""
    out = []
    for k in range(len(an.pattern.instructions)):
        vals = set(an.result.wavefronts[an.rows_of(k)].tolist())
        assert len(vals) == 1, (k, vals)
        out.append(vals.pop())
    return out


@pytest.mark.parametrize("name,wavefronts", [
    ("01_stride1_float.json", [1]),
    ("02_stride2_float.json", [2]),
    ("03_stride8_float.json", [8]),
    ("04_stride32_float.json", [32]),
    ("05_broadcast.json", [1, 1]),
    ("06_transpose_32x32.json", [1, 32]),
    ("07_transpose_padded_32x33.json", [1, 1]),
    ("08_xor_swizzle_col.json", [1, 1]),
    ("09_xor_swizzle_row_variant.json", [1, 32]),
    ("10_remap_i_plus_i_div_32.json", [1]),
    ("11_lane_column_8warps.json", [32]),
    ("12_float4_loads.json", [4]),
    ("13_double_loads_merge.json", [2, 1, 1, 4]),
    ("14_ldmatrix_x4_unswizzled.json", [32]),
    ("15_ldmatrix_x4_swizzle343.json", [4]),
    ("20_cute_sw333_ldmatrix_x4.json", [4, 32]),
    ("29_cute_ldmatrix_x4_unswizzled.json", [32, 32]),  # example 20 before its swizzle
])
def test_example_wavefronts(name, wavefronts):
    assert per_instruction(run(name)) == wavefronts


def test_lane_column_kernel_totals_match_nsight():
    t = run("11_lane_column_8warps.json").totals()
    assert t.instructions == 8 and t.kernel_instructions == 80_000
    assert t.kernel_wavefronts == 2_560_000 and t.kernel_excess == 2_480_000


def test_transpose_shapes_and_padding_cost():
    an = run("06_transpose_32x32.json")
    assert len(an) == 2 * 4 * 8  # 2 instructions x 4 loop iterations x 8 warps
    assert an.totals().wavefronts == 32 * 1 + 32 * 32
    padded = run("07_transpose_padded_32x33.json").totals()
    assert padded.wavefronts == 64 and padded.shared_bytes == 32 * 33 * 4


def test_float4_is_four_wavefronts_with_no_excess():
    t = run("12_float4_loads.json").totals()
    assert t.wavefronts == 32 and t.ideal == 32 and t.worst_degree == 1


def test_ldmatrix_swizzle_removes_the_8_way_conflict():
    plain = run("14_ldmatrix_x4_unswizzled.json")
    assert plain.result.degree[0] == 8 and plain.result.ideal[0] == 4
    assert run("15_ldmatrix_x4_swizzle343.json").result.degree[0] == 1
