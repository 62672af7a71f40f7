// block: 128
// input: in = ints_1024.npy
#include <cub/cub.cuh>
// the time-sliced warp transpose: 8 items a thread, one warp at a time through a warp-sized buffer
__global__ void load_warp_transpose_timesliced(const int *in, int *out) {
    using Load = cub::BlockLoad<int, 128, 8, cub::BLOCK_LOAD_WARP_TRANSPOSE_TIMESLICED>;
    using Store = cub::BlockStore<int, 128, 8, cub::BLOCK_STORE_WARP_TRANSPOSE_TIMESLICED>;
    __shared__ union {
        typename Load::TempStorage load;
        typename Store::TempStorage store;
    } temp;
    int items[8];
    Load(temp.load).Load(in, items);
    for (int i = 0; i < 8; ++i) items[i] = items[i] * 2 + i;
    __syncthreads();
    Store(temp.store).Store(out, items);
}
