// block: 16, 8
// input: in = ints_1024.npy
// BlockScan on a 2-D block (BLOCK_DIM_X = 16, BLOCK_DIM_Y = 8: 128 threads ranked row-major),
// BLOCK_SCAN_RAKING: ExclusiveSum of 5 blocked items a thread with the block aggregate, then an
// InclusiveSum of one item
#include <cub/cub.cuh>
__global__ void scan_raking_2d(const int *in, int *out) {
    using Scan = cub::BlockScan<int, 16, cub::BLOCK_SCAN_RAKING, 8>;
    __shared__ typename Scan::TempStorage temp;
    int t = threadIdx.y * 16 + threadIdx.x;
    int x[5], y[5], agg;
    for (int i = 0; i < 5; ++i) x[i] = in[(t * 5 + i) & 1023];
    Scan(temp).ExclusiveSum(x, y, agg);
    for (int i = 0; i < 5; ++i) out[t * 5 + i] = y[i];
    __syncthreads();
    int z;
    Scan(temp).InclusiveSum(x[0] + agg % 7, z);
    out[640 + t] = z;
}
