// block: 128
// input: in = ints_1024.npy
#include <cub/cub.cuh>
// exclusive prefix sum, one item a thread, BLOCK_SCAN_RAKING_MEMOIZE, and the block's total
__global__ void scan_exclusive_memoize(const int *in, int *out) {
    using BlockScan = cub::BlockScan<int, 128, cub::BLOCK_SCAN_RAKING_MEMOIZE>;
    __shared__ typename BlockScan::TempStorage temp;
    int x = in[threadIdx.x], total;
    BlockScan(temp).ExclusiveSum(x, x, total);
    out[threadIdx.x] = x;
    if (threadIdx.x == 0) out[128] = total;
}
