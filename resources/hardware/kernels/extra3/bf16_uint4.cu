// block: 64
#include <cuda_bf16.h>
__global__ void bf(const uint4 *in, float *out) {
    __shared__ __nv_bfloat16 tile[64][40];
    int t = threadIdx.x;
    reinterpret_cast<uint4 *>(&tile[t][0])[0] = in[t];
    reinterpret_cast<uint4 *>(&tile[t][8])[0] = in[t + 64];
    __syncthreads();
    out[t] = __bfloat162float(tile[t % 8 * 8][t / 8]) + __bfloat162float(tile[t][t % 16]);
}
