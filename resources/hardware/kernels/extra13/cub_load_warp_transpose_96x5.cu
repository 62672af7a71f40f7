// block: 96
// input: in = floats_1024.npy
// BlockLoad<float, 96, 5, BLOCK_LOAD_WARP_TRANSPOSE> (each warp transposes 160 items through
// shared memory; 96 threads, 5 items: an odd stride), BlockStore<.., BLOCK_STORE_STRIPED>
// (no shared memory), then a BLOCK_STORE_WARP_TRANSPOSE of the squared values
#include <cub/cub.cuh>
__global__ void load_warp_transpose_96x5(const float *in, float *out) {
    using Load = cub::BlockLoad<float, 96, 5, cub::BLOCK_LOAD_WARP_TRANSPOSE>;
    using StoreS = cub::BlockStore<float, 96, 5, cub::BLOCK_STORE_STRIPED>;
    using StoreW = cub::BlockStore<float, 96, 5, cub::BLOCK_STORE_WARP_TRANSPOSE>;
    __shared__ union {
        typename Load::TempStorage load;
        typename StoreW::TempStorage store;
    } temp;
    float x[5];
    Load(temp.load).Load(in, x);
    for (int i = 0; i < 5; ++i) x[i] = x[i] * (float)(i + 1) + (float)threadIdx.x;
    StoreS().Store(out, x);
    __syncthreads();
    for (int i = 0; i < 5; ++i) x[i] = x[i] * x[i];
    StoreW(temp.store).Store(out + 480, x);
}
