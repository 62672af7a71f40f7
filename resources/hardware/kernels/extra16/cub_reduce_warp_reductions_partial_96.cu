// block: 96
// input: in = ints_1024.npy
// BlockReduce<int, 96, BLOCK_REDUCE_WARP_REDUCTIONS> (three warps): Sum of 4 items, then partial
// Sum(x, num_valid) for num_valid 1, 31, 33, 64, 95 and a partial Reduce with a min functor
#include <cub/cub.cuh>
struct MinOp {
    __device__ int operator()(int a, int b) const { return b < a ? b : a; }
};
__global__ void reduce_warp_reductions_96(const int *in, int *out) {
    using Reduce = cub::BlockReduce<int, 96, cub::BLOCK_REDUCE_WARP_REDUCTIONS>;
    __shared__ typename Reduce::TempStorage temp;
    int x[4];
    cub::LoadDirectStriped<96>(threadIdx.x, in, x);
    int total = Reduce(temp).Sum(x);
    if (threadIdx.x == 0) out[0] = total;
    const int valid[5] = {1, 31, 33, 64, 95};
    for (int k = 0; k < 5; ++k) {
        __syncthreads();
        int v = Reduce(temp).Sum(x[k & 3] - 500, valid[k]);
        if (threadIdx.x == 0) out[1 + k] = v;
    }
    __syncthreads();
    int m = Reduce(temp).Reduce(x[2], MinOp(), 50);
    if (threadIdx.x == 0) out[8] = m;
}
