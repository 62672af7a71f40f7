"""``bx.from_cuda`` reads the launch a kernel states, as the command line and the window do
(one reader: ``sass.launch.text_settings``), and a kernel run with the wrong block says so."""

from pathlib import Path

import pytest

import bankexplorer as bx
from bankexplorer.resources import EXAMPLES

GEMM = EXAMPLES / "cuda" / "13_gemm_tile_as_compiled.cu"  # "// block: 16, 16"; 16x16 threads index 64 rows


def test_from_cuda_honours_the_block_comment():
    p = bx.from_cuda(Path(GEMM))
    assert p.block == (16, 16, 1)
    # the same text, as the command line reads it: the same block and the same counts
    assert bx.analyze(bx.from_cuda(GEMM.read_text())).totals == bx.analyze(p).totals
    # a block given in the call wins over the comment
    assert bx.from_cuda(Path(GEMM), block=(16, 16)).block == (16, 16, 1)


def test_from_cuda_without_a_stated_block_keeps_its_default():
    text = "__global__ void k(float *o) { __shared__ float s[256]; int t = threadIdx.x + 32 * threadIdx.y;" \
           " s[t] = t; __syncthreads(); o[t] = s[255 - t]; }"
    assert bx.from_cuda(text).block == (32, 8, 1)
    assert bx.from_cuda("// block: 64, 4\n" + text).block == (64, 4, 1)


def test_a_shared_fault_names_the_instruction_once_and_the_block():
    with pytest.raises(ValueError) as e:
        bx.from_cuda(Path(GEMM), block=(32, 1))
    msg = str(e.value)
    assert "is outside the" in msg and "shared memory" in msg
    instruction = msg.split("cannot execute ")[1].split(": ")[0]
    assert instruction.startswith("'LDS") and msg.count(instruction) == 1, msg
    assert "block executed is 32x1x1" in msg and "// block:" in msg
