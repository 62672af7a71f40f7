// block: 128
// input: in = ints_1024.npy
#include <cub/cub.cuh>
// a block-wide exclusive scan built from WarpScan: warp totals in shared memory, offsets added
__global__ void warp_scan_block_offsets(const int *in, int *out) {
    using WarpScan = cub::WarpScan<int>;
    __shared__ typename WarpScan::TempStorage temp[4];
    __shared__ int warp_totals[4];
    int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    int x, total;
    WarpScan(temp[warp]).ExclusiveSum(in[threadIdx.x], x, total);
    if (lane == 31) warp_totals[warp] = total;
    __syncthreads();
    int offset = 0;
    for (int w = 0; w < warp; ++w) offset += warp_totals[w];
    out[threadIdx.x] = x + offset;
}
