// block: 256
// input: in = floats_1024.npy
#include <cub/cub.cuh>
struct MaxOp {
    __device__ float operator()(float a, float b) const { return fmaxf(a, b); }
};
// block maximum with the raking algorithm: every thread's value goes to shared memory, one warp rakes it
__global__ void reduce_max_raking(const float *in, float *out) {
    using BlockReduce = cub::BlockReduce<float, 256, cub::BLOCK_REDUCE_RAKING>;
    __shared__ typename BlockReduce::TempStorage temp;
    float v = fabsf(in[threadIdx.x]) + fabsf(in[threadIdx.x + 256]);
    float m = BlockReduce(temp).Reduce(v, MaxOp());
    if (threadIdx.x == 0) out[0] = m;
}
