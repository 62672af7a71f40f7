// block: 128
// input: a = normal_4096.npy
// input: x = floats_1024.npy
// y = A x for a 64 x 64 float matrix with x rounded to __half in shared memory, read as __half2 by
// half-warps (a row per 16 lanes, 4 columns a lane), row sums by __shfl_xor_sync of width 16;
// then y2 = A^T x with a column per thread and x broadcast from shared memory
#include <cuda_fp16.h>
__global__ void gemv_half_x(const float *a, const float *x, float *y) {
    __shared__ __half2 xs[32];
    int t = threadIdx.x;
    if (t < 32) xs[t] = __floats2half2_rn(x[2 * t], x[2 * t + 1]);
    __syncthreads();
    int lane = t & 15, grp = t >> 4;
    for (int r = grp; r < 64; r += 8) {
        float s = 0.f;
        for (int k = 0; k < 2; ++k) {
            int c2 = lane * 2 + k;
            float2 xv = __half22float2(xs[c2]);
            s += a[r * 64 + 2 * c2] * xv.x + a[r * 64 + 2 * c2 + 1] * xv.y;
        }
        for (int o = 8; o; o >>= 1) s += __shfl_xor_sync(0xffffffffu, s, o, 16);
        if (lane == 0) y[r] = s;
    }
    if (t < 64) {
        float s = 0.f;
        for (int r = 0; r < 64; ++r) s += a[r * 64 + t] * __half2float(reinterpret_cast<const __half *>(xs)[r]);
        y[64 + t] = s;
    }
}
