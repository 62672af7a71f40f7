// block: 32, 4
// input: in = ints_1024.npy
#include <cub/cub.cuh>
// a 2-D block (BLOCK_DIM_Y = 4) reduced with BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY
__global__ void reduce_commutative_2d(const int *in, int *out) {
    using BlockReduce = cub::BlockReduce<int, 32, cub::BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY, 4>;
    __shared__ typename BlockReduce::TempStorage temp;
    int t = threadIdx.y * 32 + threadIdx.x;
    int v = in[t] * in[t + 128];
    int sum = BlockReduce(temp).Sum(v);
    if (t == 0) out[0] = sum;
}
