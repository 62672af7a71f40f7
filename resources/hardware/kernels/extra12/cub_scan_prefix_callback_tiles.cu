// block: 128
// input: in = ints_1024.npy
#include <cub/cub.cuh>
// exclusive prefix sum of 1024 ints as eight tiles of 128, carried from tile to tile by a
// BlockPrefixCallbackOp (warp 0 calls it with each tile's total)
struct RunningPrefix {
    int running;
    __device__ RunningPrefix(int start) : running(start) {}
    __device__ int operator()(int tile_total) {
        int old = running;
        running += tile_total;
        return old;
    }
};
__global__ void scan_prefix_callback(const int *in, int *out) {
    using Scan = cub::BlockScan<int, 128>;
    __shared__ typename Scan::TempStorage temp;
    RunningPrefix prefix(0);
    for (int tile = 0; tile < 1024; tile += 128) {
        int x = in[tile + threadIdx.x], y;
        Scan(temp).ExclusiveSum(x, y, prefix);
        __syncthreads();
        out[tile + threadIdx.x] = y;
    }
}
