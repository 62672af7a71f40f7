// block: 32
#include <cuda_fp16.h>
__global__ void h2(const __half2 *in, __half2 *out) {
    __shared__ __half2 s[32 * 3];
    int t = threadIdx.x;
    s[t * 3] = in[t];
    s[t * 3 + 1] = in[t + 32];
    __syncthreads();
    out[t] = __hadd2(s[t * 3], s[(t * 3 + 1) % 96]);
}
