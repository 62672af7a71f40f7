// block: 128
// input: in = ints_1024.npy
#include <cub/cub.cuh>
// coalesced load of 512 ints into a blocked arrangement through shared memory (BLOCK_LOAD_TRANSPOSE),
// a per-thread update, and back (BLOCK_STORE_TRANSPOSE); the two share one TempStorage
__global__ void load_store_transpose(const int *in, int *out) {
    using Load = cub::BlockLoad<int, 128, 4, cub::BLOCK_LOAD_TRANSPOSE>;
    using Store = cub::BlockStore<int, 128, 4, cub::BLOCK_STORE_TRANSPOSE>;
    __shared__ union {
        typename Load::TempStorage load;
        typename Store::TempStorage store;
    } temp;
    int items[4];
    Load(temp.load).Load(in, items);
    for (int i = 1; i < 4; ++i) items[i] += items[i - 1];
    __syncthreads();
    Store(temp.store).Store(out, items);
}
