// block: 128
// input: in = ints_1024.npy
#include <cub/cub.cuh>
// BLOCK_LOAD_VECTORIZE (int4 loads of blocked items), an inclusive scan of 8 items a thread,
// BLOCK_STORE_VECTORIZE back out
__global__ void load_vectorize_scan(const int *in, int *out) {
    using Load = cub::BlockLoad<int, 128, 8, cub::BLOCK_LOAD_VECTORIZE>;
    using Scan = cub::BlockScan<int, 128, cub::BLOCK_SCAN_RAKING_MEMOIZE>;
    using Store = cub::BlockStore<int, 128, 8, cub::BLOCK_STORE_VECTORIZE>;
    __shared__ union {
        typename Load::TempStorage load;
        typename Scan::TempStorage scan;
        typename Store::TempStorage store;
    } temp;
    int items[8];
    Load(temp.load).Load(in, items);
    __syncthreads();
    Scan(temp.scan).InclusiveSum(items, items);
    __syncthreads();
    Store(temp.store).Store(out, items);
}
