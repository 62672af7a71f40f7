"""Storage declared as bytes and used as words (CUB's ``TempStorage``, a ``char`` buffer cast to
``int*``) is drawn in the words its instructions access (issue 42): a ``uint8 temp[4640]`` of
1-byte cells was a 128-column grid under dense marks; read as 32-bit words it is 1,160 cells of
32 per row, one per bank. Storage read as bytes stays bytes."""

import warnings
from pathlib import Path

import pytest

import bankexplorer as bx
from bankexplorer.compiler import nvrtc
from bankexplorer.model.hardware import PRESETS

pytestmark = pytest.mark.skipif(not nvrtc.available(), reason="needs the compile extra")
CUB = Path(__file__).resolve().parents[1] / "resources" / "hardware" / "kernels" / "extra12"

AS_WORDS = """// block: 64
__global__ void k(int *out) {
    __shared__ unsigned char buf[512];
    int *w = reinterpret_cast<int *>(buf);
    w[threadIdx.x * 2] = threadIdx.x;
    __syncthreads();
    out[threadIdx.x] = w[(threadIdx.x * 4) & 127];
}
"""

AS_BYTES = """// block: 64
__global__ void k(int *out) {
    __shared__ unsigned char buf[512];
    buf[threadIdx.x * 8] = threadIdx.x;
    __syncthreads();
    out[threadIdx.x] = buf[(threadIdx.x * 4) & 511];
}
"""


def test_a_byte_buffer_used_as_words_is_drawn_in_words():
    words = bx.from_cuda(AS_WORDS)
    (a,) = words.arrays
    assert (a.dtype, a.dims, a.elem_size) == ("uint32", (128,), 4)
    (b,) = bx.from_cuda(AS_BYTES).arrays
    assert (b.elem_size, b.dims) == (1, (512,))
    # the words are the same bytes: the counts do not move
    assert bx.analyze(words).totals["wavefronts"] == bx.analyze(bx.from_cuda(AS_WORDS.replace(
        "unsigned char buf[512]", "int buf_[128]; unsigned char *buf = reinterpret_cast<unsigned char *>(buf_)"
    ))).totals["wavefronts"]


def test_cub_temp_storage_is_drawn_in_words():
    from bankexplorer.gui.views.tile import tile_grid
    from bankexplorer.gui.palette import SCREEN

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        p = bx.from_cuda(CUB / "cub_radix_sort_descending.cu")
    (temp,) = p.arrays
    assert temp.name == "temp" and temp.dtype == "uint32" and temp.dims == (4640 // 4,)
    g = tile_grid(temp, PRESETS["nvidia-sm70-sm90"], SCREEN)
    assert g.cols == 32 and g.rows == -(-1160 // 32)  # one word per bank, not 128 one-byte cells
