// block: 128
// input: in = ints_1024.npy
#include <cub/cub.cuh>
// block sum of 4 items a thread, reduced warp by warp (shuffles), the warp totals through shared memory
__global__ void reduce_sum_warp_reductions(const int *in, int *out) {
    using BlockReduce = cub::BlockReduce<int, 128, cub::BLOCK_REDUCE_WARP_REDUCTIONS>;
    __shared__ typename BlockReduce::TempStorage temp;
    int items[4];
    cub::LoadDirectStriped<128>(threadIdx.x, in, items);
    int sum = BlockReduce(temp).Sum(items);
    if (threadIdx.x == 0) out[0] = sum;
}
