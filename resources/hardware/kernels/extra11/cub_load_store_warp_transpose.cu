// block: 256
// input: in = floats_1024.npy
#include <cub/cub.cuh>
// BLOCK_LOAD_WARP_TRANSPOSE / BLOCK_STORE_WARP_TRANSPOSE: each warp transposes its own 128 floats
__global__ void load_store_warp_transpose(const float *in, float *out) {
    using Load = cub::BlockLoad<float, 256, 4, cub::BLOCK_LOAD_WARP_TRANSPOSE>;
    using Store = cub::BlockStore<float, 256, 4, cub::BLOCK_STORE_WARP_TRANSPOSE>;
    __shared__ union {
        typename Load::TempStorage load;
        typename Store::TempStorage store;
    } temp;
    float items[4];
    Load(temp.load).Load(in, items);
    float m = 0.25f * (items[0] + items[1] + items[2] + items[3]);
    for (int i = 0; i < 4; ++i) items[i] -= m;
    __syncthreads();
    Store(temp.store).Store(out, items);
}
