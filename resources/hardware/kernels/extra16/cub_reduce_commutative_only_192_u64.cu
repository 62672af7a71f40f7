// block: 192
// input: in = ukeys_1024.npy
// BlockReduce<unsigned long long, 192, BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY> (six warps, 8-byte
// items): Sum of 5 striped items widened to 64 bits, a max reduction; BlockReduce<float, 192,
// BLOCK_REDUCE_RAKING> partial Sum(x, 100) of exact quarter-integers
#include <cub/cub.cuh>
struct MaxU64 {
    __device__ unsigned long long operator()(unsigned long long a, unsigned long long b) const { return a > b ? a : b; }
};
__global__ void reduce_commutative_192(const unsigned int *in, unsigned long long *out, float *outf) {
    using Reduce = cub::BlockReduce<unsigned long long, 192, cub::BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY>;
    using ReduceF = cub::BlockReduce<float, 192, cub::BLOCK_REDUCE_RAKING>;
    __shared__ union { typename Reduce::TempStorage r; typename ReduceF::TempStorage f; } temp;
    unsigned long long x[5];
    for (int i = 0; i < 5; ++i) {
        unsigned int w = in[(i * 192 + threadIdx.x) & 1023];
        x[i] = ((unsigned long long)w << 8) | i;
    }
    unsigned long long s = Reduce(temp.r).Sum(x);
    __syncthreads();
    unsigned long long m = Reduce(temp.r).Reduce(x, MaxU64());
    __syncthreads();
    float f = (float)((int)(in[threadIdx.x] & 255) - 128) * 0.25f;
    float fs = ReduceF(temp.f).Sum(f, 100);
    if (threadIdx.x == 0) { out[0] = s; out[1] = m; outf[0] = fs; }
}
