// block: 16, 16
// input: in = normal_4096.npy
// a 64 x 64 __half matrix (from floats) transposed through 32 x 32 tiles: half2 global loads
// (two columns a thread), a [32][34] __half tile written as two halves, read by columns and
// packed back into half2 for the store
#include <cuda_fp16.h>
__global__ void transpose_half2(const float *in, __half2 *out) {
    __shared__ __half tile[32][34];
    int tx = threadIdx.x, ty = threadIdx.y;
    for (int t = 0; t < 4; ++t) {
        int bx = (t & 1) * 32, by = (t >> 1) * 32;
        for (int r = ty; r < 32; r += 16) {
            float2 f = *reinterpret_cast<const float2 *>(&in[(by + r) * 64 + bx + 2 * tx]);
            tile[r][2 * tx] = __float2half(f.x);
            tile[r][2 * tx + 1] = __float2half(f.y);
        }
        __syncthreads();
        for (int r = ty; r < 32; r += 16) {
            __half2 h = __halves2half2(tile[2 * tx][r], tile[2 * tx + 1][r]);
            out[((bx + r) * 64 + by) / 2 + tx] = h;
        }
        __syncthreads();
    }
}
