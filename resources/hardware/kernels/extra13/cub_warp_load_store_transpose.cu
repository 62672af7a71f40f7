// block: 128
// input: in = ints_1024.npy
// WarpLoad<int, 8, WARP_LOAD_TRANSPOSE> (each warp's 256 items through its own shared tile),
// a per-thread prefix, WarpStore<int, 8, WARP_STORE_TRANSPOSE>; then WarpLoad<.., 4,
// WARP_LOAD_STRIPED, 16> on half warps (no shared memory) with a partial tile
#include <cub/cub.cuh>
__global__ void warp_load_store(const int *in, int *out) {
    using Load = cub::WarpLoad<int, 8, cub::WARP_LOAD_TRANSPOSE>;
    using Store = cub::WarpStore<int, 8, cub::WARP_STORE_TRANSPOSE>;
    using Load16 = cub::WarpLoad<int, 4, cub::WARP_LOAD_STRIPED, 16>;
    __shared__ union {
        typename Load::TempStorage load[4];
        typename Store::TempStorage store[4];
    } temp;
    int w = threadIdx.x >> 5;
    int x[8];
    Load(temp.load[w]).Load(in + w * 256, x);
    for (int i = 1; i < 8; ++i) x[i] += x[i - 1];
    __syncwarp();
    Store(temp.store[w]).Store(out + w * 256, x);
    int hw = threadIdx.x >> 4, y[4];
    Load16().Load(in + hw * 64, y, 50, 7);
    out[1024 + threadIdx.x] = y[0] + y[1] * 2 + y[2] * 3 + y[3] * 4;
}
