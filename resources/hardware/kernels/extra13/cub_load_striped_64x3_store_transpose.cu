// block: 64
// input: in = ints_1024.npy
// BlockLoad<int, 64, 3, BLOCK_LOAD_STRIPED> with a guarded partial tile (150 valid items, the rest
// -1), BlockStore<int, 64, 3, BLOCK_STORE_TRANSPOSE> (striped-to-blocked through shared memory,
// 3 items: conflict-free stride) of running sums per thread, then a partial transposed store
#include <cub/cub.cuh>
__global__ void load_striped_store_transpose(const int *in, int *out) {
    using Load = cub::BlockLoad<int, 64, 3, cub::BLOCK_LOAD_STRIPED>;
    using Store = cub::BlockStore<int, 64, 3, cub::BLOCK_STORE_TRANSPOSE>;
    __shared__ typename Store::TempStorage temp;
    int x[3];
    Load().Load(in, x, 150, -1);
    x[1] += x[0];
    x[2] += x[1];
    Store(temp).Store(out, x);
    __syncthreads();
    Store(temp).Store(out + 192, x, 100);
}
