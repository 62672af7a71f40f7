"""Occupancy: blocks per SM by the CUDA occupancy rules (cuda_occupancy.h), worked by hand."""

from __future__ import annotations

import pytest

from bankexplorer.advisor import GPUS, advise, occupancy, padding_curve
from bankexplorer.advisor.occupancy import gpu
from bankexplorer.io import patternfile
from bankexplorer.model import BankExplorerError
from bankexplorer.resources import EXAMPLES

H100, A100, V100, RTX4090 = GPUS["h100"], GPUS["a100"], GPUS["v100"], GPUS["rtx4090"]


def test_presets_hold_the_published_limits():
    assert (H100.shared_per_sm, H100.shared_per_block, H100.reserved_per_block, H100.granularity) == (233472, 232448, 1024, 128)
    assert (A100.shared_per_sm, A100.shared_per_block, A100.max_blocks, A100.max_warps) == (167936, 166912, 32, 64)
    assert (V100.shared_per_sm, V100.reserved_per_block, V100.granularity) == (98304, 0, 256)
    assert (RTX4090.shared_per_sm, RTX4090.max_blocks, RTX4090.max_warps) == (102400, 24, 48)


def test_warps_limit():
    o = occupancy(H100, 256, 0)  # 64 warps / 8 per block; shared: 233472 // 1024 reserved = 228
    assert (o.blocks, o.by_warps, o.by_shared, o.limiter, o.warps, o.occupancy) == (8, 8, 228, "warps", 64, 1.0)
    assert occupancy(RTX4090, 512, 0).blocks == 3  # 48 warps / 16
    assert occupancy(RTX4090, 1024, 0).blocks == 1


def test_shared_memory_limit_with_reservation_and_granularity():
    o = occupancy(H100, 128, 48 * 1024)  # (49152 + 1024) = 50176 charged; 233472 // 50176
    assert (o.blocks, o.shared_charged, o.limiter) == (4, 50176, "shared memory")
    o = occupancy(A100, 32, 20000)  # 21024 -> 21120 (165 x 128); 167936 // 21120
    assert (o.blocks, o.shared_charged) == (7, 21120)
    o = occupancy(V100, 64, 20000)  # no reservation; 20000 -> 20224 (79 x 256); 98304 // 20224
    assert (o.blocks, o.shared_charged) == (4, 20224)
    o = occupancy(A100, 64, 4224)  # padded 32x33 floats: 5248 charged, 167936 // 5248 = 32 exactly
    assert (o.blocks, o.by_shared, o.limiter) == (32, 32, "warps and blocks and shared memory")


def test_per_block_limit_and_opt_in():
    assert occupancy(H100, 32, 232448).blocks == 1  # 227 KB: the opt-in maximum
    o = occupancy(H100, 32, 232449)
    assert o.blocks == 0 and "more than one block may use" in o.note
    assert occupancy(H100, 32, 49152, opt_in=False).blocks == 4
    assert occupancy(H100, 32, 49153, opt_in=False).blocks == 0
    assert "cudaFuncAttributeMaxDynamicSharedMemorySize" in occupancy(H100, 32, 49153).note


def test_register_limit_by_sub_partition():
    o = occupancy(H100, 256, 0, registers=64)  # 2048 regs per warp, 8 warps per sub-partition, 32 per SM
    assert (o.blocks, o.by_registers, o.limiter) == (4, 4, "registers")
    assert occupancy(H100, 128, 0, registers=255).blocks == 2  # 8192 per warp: 2 warps per sub-partition
    assert occupancy(H100, 1024, 0, registers=255).blocks == 0


def test_bad_input():
    with pytest.raises(BankExplorerError):
        occupancy(H100, 0, 0)
    with pytest.raises(BankExplorerError):
        occupancy(H100, 2048, 0)
    with pytest.raises(BankExplorerError):
        gpu("gtx480")
    with pytest.raises(BankExplorerError) as e:
        gpu("custom").with_values(shared_per_block=300 * 1024)
    assert e.value.where == "gpu.shared_per_block"
    small = gpu("custom").with_values(shared_per_sm=16 * 1024, shared_per_block=16 * 1024)
    assert occupancy(small, 32, 7000).blocks == 2  # 8064 charged


def test_blocks_per_sm_follow_padding():
    # 1024-thread block, float tile[128][128] (64 KB): padding pushes it past the point where 3 fit
    p = patternfile.loads("""{"format": "bankexplorer-pattern", "version": 1, "name": "big",
      "block": [32, 1, 1], "arrays": [{"name": "t", "type": "float", "dims": [128, 128]}],
      "instructions": [{"kind": "load", "array": "t", "index": ["lane", "0"]}]}""")
    curve = padding_curve(p, "t", "h100", max_padding=8)
    assert [c.shared_bytes for c in curve[:3]] == [65536, 66048, 66560]
    # 65536 + 1024 = 66560 -> 3 per 233472; padding 4: 67584 + 1024 = 68608 -> 3; padding 8: 70656 -> 3
    assert [c.blocks for c in curve] == [3] * 9
    curve = padding_curve(p, "t", "a100", max_padding=8)
    assert [c.blocks for c in curve] == [2] * 9  # 167936 // 66560 = 2
    adv = advise(p, "a100", families=("padding",), max_padding=4)
    pts = adv.curves["t"]
    assert [pt.padding for pt in pts] == [0, 1, 2, 3, 4]
    assert [pt.wavefronts for pt in pts] == [32, 1, 2, 1, 4]
    assert [pt.ideal for pt in pts] == [1] * 5 and [pt.conflict_free for pt in pts] == [False, True, False, True, False]


def test_advice_reports_blocks_per_sm_of_each_candidate():
    adv = advise(patternfile.load(EXAMPLES / "06_transpose_32x32.json"), "v100")
    by_label = {r.label: r for r in adv.ranked}
    assert by_label["padding 1: float tile[32][33]"].blocks_per_sm == 8  # 256 threads: 8 warps, 64 max
    assert adv.gpu.key == "v100"


def test_partial_warps_count_as_whole_warps_and_v100_opt_in_maximum():
    o = occupancy(H100, 48, 0)  # 2 warps allocated: 64 // 2 = 32, the block limit too
    assert (o.blocks, o.by_warps, o.limiter) == (32, 32, "warps and blocks")
    assert occupancy(RTX4090, 48, 0).blocks == 24  # 48 warps // 2 = 24 = sm_89's block limit
    assert occupancy(V100, 32, 96 * 1024).blocks == 1  # V100 has no per-block reservation
    assert occupancy(V100, 32, 96 * 1024 + 1).blocks == 0
    assert occupancy(A100, 32, 163 * 1024).blocks == 1  # 163 KB + 1 KB reserved = the whole 164 KB


def test_switching_gpu_keeps_the_ranking_and_recomputes_blocks():
    p = patternfile.load(EXAMPLES / "06_transpose_32x32.json")
    on_h100 = advise(p)
    on_4090 = on_h100.with_gpu(RTX4090)
    direct = advise(p, "rtx4090")
    assert [r.label for r in on_4090.ranked] == [r.label for r in on_h100.ranked]
    assert [r.blocks_per_sm for r in on_4090.ranked] == [r.blocks_per_sm for r in direct.ranked]
    assert on_4090.current.blocks_per_sm == 6 and on_h100.current.blocks_per_sm == 8  # 48 / 8 and 64 / 8 warps
    assert [pt.blocks for pt in on_4090.curves["tile"]] == [pt.blocks for pt in direct.curves["tile"]]
    assert on_4090.current is next(r for r in on_4090.ranked if r.current)
