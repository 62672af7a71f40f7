// block: 96
// input: in = ints_1024.npy
// BlockScan over 96 threads (three warps, not a power of two) with BLOCK_SCAN_RAKING_MEMOIZE:
// an ExclusiveScan with a custom max operator and an initial value, 3 blocked items a thread,
// then an ExclusiveScan with a custom "sum modulo 1000" operator and the block aggregate
#include <cub/cub.cuh>
struct MaxOp {
    __device__ int operator()(int a, int b) const { return a > b ? a : b; }
};
struct SumMod {
    __device__ int operator()(int a, int b) const { return (a + b) % 1000; }
};
__global__ void scan_memoize_96(const int *in, int *out) {
    using Scan = cub::BlockScan<int, 96, cub::BLOCK_SCAN_RAKING_MEMOIZE>;
    __shared__ typename Scan::TempStorage temp;
    int x[3], y[3], agg;
    cub::LoadDirectBlocked(threadIdx.x, in, x);
    Scan(temp).ExclusiveScan(x, y, -1, MaxOp());
    cub::StoreDirectBlocked(threadIdx.x, out, y);
    __syncthreads();
    Scan(temp).ExclusiveScan(x, y, 0, SumMod(), agg);
    cub::StoreDirectBlocked(threadIdx.x, out + 288, y);
    if (threadIdx.x == 0) out[576] = agg;
}
