// block: 128
// input: in = ints_1024.npy
#include <cub/cub.cuh>
// inclusive prefix sum of 512 values (4 consecutive items a thread) with BLOCK_SCAN_RAKING
__global__ void scan_inclusive_raking(const int *in, int *out) {
    using BlockScan = cub::BlockScan<int, 128, cub::BLOCK_SCAN_RAKING>;
    __shared__ typename BlockScan::TempStorage temp;
    int items[4];
    cub::LoadDirectBlocked(threadIdx.x, in, items);
    BlockScan(temp).InclusiveSum(items, items);
    cub::StoreDirectBlocked(threadIdx.x, out, items);
}
