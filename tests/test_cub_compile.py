"""CUB compiles in the compiled view, written the way users write it.

``#include <cub/cub.cuh>`` stops NVRTC in CUB's own umbrella (it includes the host-side device-wide
algorithms); bankexplorer/compiler/include/cub/cub.cuh, first on the include path, is the umbrella
without them. Every kernel here goes through compiler.kernel.build (the one compile path), and must come
out with the shared-memory instructions its CUB primitive is made of.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bankexplorer.compiler import nvrtc
from bankexplorer.kernels.cuda_source import compile_text as build
from bankexplorer.sass.decode import decode, entry_names

pytestmark = pytest.mark.skipif(not nvrtc.available(), reason="NVRTC / nvdisasm not installed")

KERNELS = {
    "block_reduce": """
__global__ void k(const int* in, int* out) {
    using BlockReduce = cub::BlockReduce<int, 128>;
    __shared__ typename BlockReduce::TempStorage temp;
    int sum = BlockReduce(temp).Sum(in[threadIdx.x]);
    if (threadIdx.x == 0) out[0] = sum;
}""",
    "block_reduce_raking_max": """
__global__ void k(const float* in, float* out) {
    using BlockReduce = cub::BlockReduce<float, 256, cub::BLOCK_REDUCE_RAKING>;
    __shared__ typename BlockReduce::TempStorage temp;
    float m = BlockReduce(temp).Reduce(in[threadIdx.x], cuda::maximum<>{});
    if (threadIdx.x == 0) out[0] = m;
}""",
    "block_scan": """
__global__ void k(const int* in, int* out) {
    using BlockScan = cub::BlockScan<int, 128>;
    __shared__ typename BlockScan::TempStorage temp;
    int items[4];
    for (int i = 0; i < 4; ++i) items[i] = in[threadIdx.x * 4 + i];
    BlockScan(temp).ExclusiveSum(items, items);
    for (int i = 0; i < 4; ++i) out[threadIdx.x * 4 + i] = items[i];
}""",
    "block_load_store_warp_transpose": """
__global__ void k(const int* in, int* out) {
    using Load = cub::BlockLoad<int, 128, 4, cub::BLOCK_LOAD_WARP_TRANSPOSE>;
    using Store = cub::BlockStore<int, 128, 4, cub::BLOCK_STORE_WARP_TRANSPOSE>;
    __shared__ union { typename Load::TempStorage load; typename Store::TempStorage store; } temp;
    int items[4];
    Load(temp.load).Load(in, items);
    for (int i = 0; i < 4; ++i) items[i] *= 2;
    __syncthreads();
    Store(temp.store).Store(out, items);
}""",
    "block_load_store_transpose": """
__global__ void k(const float* in, float* out) {
    using Load = cub::BlockLoad<float, 64, 4, cub::BLOCK_LOAD_TRANSPOSE>;
    using Store = cub::BlockStore<float, 64, 4, cub::BLOCK_STORE_TRANSPOSE>;
    __shared__ union { typename Load::TempStorage load; typename Store::TempStorage store; } temp;
    float items[4];
    Load(temp.load).Load(in, items);
    __syncthreads();
    Store(temp.store).Store(out, items);
}""",
    "block_exchange": """
__global__ void k(const int* in, int* out) {
    using Exchange = cub::BlockExchange<int, 128, 4>;
    __shared__ typename Exchange::TempStorage temp;
    int items[4];
    for (int i = 0; i < 4; ++i) items[i] = in[i * 128 + threadIdx.x];
    Exchange(temp).StripedToBlocked(items, items);
    for (int i = 0; i < 4; ++i) out[threadIdx.x * 4 + i] = items[i];
}""",
    "block_radix_sort": """
__global__ void k(const int* in, int* out) {
    using Sort = cub::BlockRadixSort<int, 128, 4>;
    __shared__ typename Sort::TempStorage temp;
    int keys[4];
    for (int i = 0; i < 4; ++i) keys[i] = in[threadIdx.x * 4 + i];
    Sort(temp).Sort(keys);
    for (int i = 0; i < 4; ++i) out[threadIdx.x * 4 + i] = keys[i];
}""",
    "block_histogram": """
__global__ void k(const unsigned char* in, unsigned int* out) {
    using Histogram = cub::BlockHistogram<unsigned char, 128, 4, 256>;
    __shared__ typename Histogram::TempStorage temp;
    __shared__ unsigned int bins[256];
    unsigned char items[4];
    for (int i = 0; i < 4; ++i) items[i] = in[threadIdx.x * 4 + i];
    Histogram(temp).Histogram(items, bins);
    __syncthreads();
    for (int b = threadIdx.x; b < 256; b += 128) out[b] = bins[b];
}""",
    "warp_reduce": """
__global__ void k(const int* in, int* out) {
    using WarpReduce = cub::WarpReduce<int>;
    __shared__ typename WarpReduce::TempStorage temp[4];
    __shared__ int partial[4];
    int warp = threadIdx.x / 32;
    int s = WarpReduce(temp[warp]).Sum(in[threadIdx.x]);
    if (threadIdx.x % 32 == 0) partial[warp] = s;
    __syncthreads();
    if (threadIdx.x == 0) out[0] = partial[0] + partial[1] + partial[2] + partial[3];
}""",
    "warp_scan": """
__global__ void k(const int* in, int* out) {
    using WarpScan = cub::WarpScan<int>;
    __shared__ typename WarpScan::TempStorage temp[4];
    __shared__ int staged[128];
    int warp = threadIdx.x / 32;
    int x;
    WarpScan(temp[warp]).InclusiveSum(in[threadIdx.x], x);
    staged[threadIdx.x] = x;
    __syncthreads();
    out[threadIdx.x] = staged[127 - threadIdx.x];
}""",
}


class _Compiled:
    """The kernel's SASS as the emulator decodes it."""

    def __init__(self, text: str):
        b = build(text, "sm_90", {}, None)
        assert b.ok, b.log
        self.entries = entry_names(b.sass)
        self.program = decode(b.sass, None, b.name)

    def functions(self) -> list[str]:
        return self.entries

    def shared(self) -> list[str]:
        """The opcodes of the shared-memory instructions."""
        return [i.base for i in self.program.instructions if i.base in ("LDS", "STS", "ATOMS", "LDSM", "STSM")]


def _compile(body: str, include: str = "#include <cub/cub.cuh>") -> _Compiled:
    return _Compiled(f"{include}\n{body}\n")


@pytest.mark.parametrize("name", sorted(KERNELS))
def test_cub_umbrella_kernels_compile_with_shared_accesses(name):
    dis = _compile(KERNELS[name])
    assert len(dis.functions()) == 1
    shared = dis.shared()
    assert shared, f"{name}: no shared-memory instruction in the SASS"
    kinds = set(shared)
    assert {"LDS", "STS"} <= kinds, (name, kinds)  # every one writes shared memory and reads it back


@pytest.mark.parametrize("header, name", [
    ("cub/block/block_reduce.cuh", "block_reduce"),
    ("cub/block/block_radix_sort.cuh", "block_radix_sort"),
    ("cub/warp/warp_scan.cuh", "warp_scan"),
])
def test_cub_specific_headers_compile(header, name):
    assert _compile(KERNELS[name], f"#include <{header}>").shared()


def test_a_whole_program_with_device_wide_calls_compiles():
    """A pasted .cu: the kernel next to main() that calls a device-wide algorithm. NVRTC sees the
    device code only (host functions are blanked), and the umbrella no longer pulls in the host side."""
    text = """#include <cub/cub.cuh>
#include <cstdio>
__global__ void k(const int* in, int* out) {
    using BlockReduce = cub::BlockReduce<int, 128>;
    __shared__ typename BlockReduce::TempStorage temp;
    int sum = BlockReduce(temp).Sum(in[threadIdx.x]);
    if (threadIdx.x == 0) out[0] = sum;
}
int main() {
    int *d_in, *d_out; void* tmp = nullptr; size_t bytes = 0;
    cudaMalloc(&d_in, 512); cudaMalloc(&d_out, 4);
    cub::DeviceReduce::Sum(tmp, bytes, d_in, d_out, 128);
    k<<<1, 128>>>(d_in, d_out);
    printf("done\\n");
}
"""
    assert _Compiled(text).shared()


def test_our_umbrella_follows_cubs():
    """The shipped umbrella includes every header CUB's own does, except the host-side ones: a new
    CCCL release that adds a device-side header to cub/cub.cuh must add it here too."""
    ours = Path(nvrtc.OWN_INCLUDE, "cub", "cub.cuh")
    theirs = next((Path(d, "cub", "cub.cuh") for d in nvrtc.include_dirs()[1:] if Path(d, "cub", "cub.cuh").is_file()),
                  None)
    if theirs is None:
        pytest.skip("CUB's headers (nvidia-cuda-cccl) are not installed")
    inc = re.compile(r"^\s*#\s*include\s*<([^>]+)>", re.M)
    host_side = re.compile(r"^cub/(device/|util_allocator\.cuh$)")
    want = {h for h in inc.findall(theirs.read_text()) if not host_side.match(h)}
    assert set(inc.findall(ours.read_text())) == want
