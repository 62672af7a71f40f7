// block: 16, 2, 2
// input: in = floats_1024.npy
// BlockReduce<float, 16, BLOCK_REDUCE_WARP_REDUCTIONS, 2, 2> on a 3-D block of 64 threads: Sum of
// 4 items, Reduce with max over a partial tile (valid 37), Sum of one item
#include <cub/cub.cuh>
__global__ void reduce_3d_float(const float *in, float *out) {
    using BR = cub::BlockReduce<float, 16, cub::BLOCK_REDUCE_WARP_REDUCTIONS, 2, 2>;
    __shared__ typename BR::TempStorage tmp;
    int t = threadIdx.x + 16 * (threadIdx.y + 2 * threadIdx.z);
    float v[4];
    for (int i = 0; i < 4; ++i) v[i] = in[t * 4 + i];
    float s = BR(tmp).Sum(v);
    __syncthreads();
    float m = BR(tmp).Reduce(in[256 + t] * 1.5f, cuda::maximum<>{}, 37);
    __syncthreads();
    float one = BR(tmp).Sum(in[512 + t]);
    if (t == 0) { out[0] = s; out[1] = m; out[2] = one; }
}
