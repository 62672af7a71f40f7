// block: 224
// input: in = ints_1024.npy
// BlockScan<int, 224, BLOCK_SCAN_WARP_SCANS> (seven warps) over 5 tiles of 224 x 2 items with a
// prefix callback: an ExclusiveScan with max carrying the running maximum of earlier tiles, and an
// InclusiveSum carrying the running total (two callbacks, one TempStorage reused)
#include <cub/cub.cuh>
struct RunningMax {
    int m;
    __device__ RunningMax(int v) : m(v) {}
    __device__ int operator()(int tile_max) { int old = m; m = tile_max > m ? tile_max : m; return old; }
};
struct RunningSum {
    int s;
    __device__ RunningSum(int v) : s(v) {}
    __device__ int operator()(int tile_sum) { int old = s; s += tile_sum; return old; }
};
struct MaxOp {
    __device__ int operator()(int a, int b) const { return a > b ? a : b; }
};
__global__ void scan_warp_scans_224(const int *in, int *out) {
    using Scan = cub::BlockScan<int, 224, cub::BLOCK_SCAN_WARP_SCANS>;
    __shared__ typename Scan::TempStorage temp;
    RunningMax pm(-1);
    RunningSum ps(0);
    for (int tile = 0; tile < 5; ++tile) {
        int base = tile * 448;
        int x[2], y[2], z[2];
        for (int i = 0; i < 2; ++i) {
            int j = base + threadIdx.x * 2 + i;
            x[i] = in[j & 1023] ^ (tile * 37);
        }
        Scan(temp).ExclusiveScan(x, y, MaxOp(), pm);
        __syncthreads();
        Scan(temp).InclusiveSum(x, z, ps);
        __syncthreads();
        for (int i = 0; i < 2; ++i) {
            out[base + threadIdx.x * 2 + i] = y[i];
            out[4096 + base + threadIdx.x * 2 + i] = z[i];
        }
    }
}
