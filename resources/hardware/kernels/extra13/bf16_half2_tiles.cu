// block: 32, 8
// input: in = floats_1024.npy
// 16-bit shared arrays: a [32][33] __nv_bfloat162 tile (pairs of bfloat16, 4-byte words) read
// by columns, and a [64][32] __half array read as __half2 pairs along rows and as single halves
// down columns (2-byte accesses, two lanes a word)
#include <cuda_bf16.h>
#include <cuda_fp16.h>
__global__ void bf16_half2(const float *in, float *out) {
    __shared__ __nv_bfloat162 b[32][33];
    __shared__ __half h[64][32];
    int x = threadIdx.x, y = threadIdx.y;
    for (int r = y; r < 32; r += 8)
        b[r][x] = __floats2bfloat162_rn(in[r * 32 + x], in[(r * 32 + x + 1) & 1023]);
    for (int r = y; r < 64; r += 8) h[r][x] = __float2half(in[(r * 32 + x) & 1023] * 0.5f);
    __syncthreads();
    for (int r = y; r < 32; r += 8) {
        __nv_bfloat162 v = b[x][r];
        float2 f = __bfloat1622float2(v);
        __half2 p = reinterpret_cast<__half2 *>(&h[r * 2][0])[x >> 1];
        float2 g = __half22float2(p);
        out[r * 32 + x] = f.x - f.y + g.x * g.y;
    }
    for (int r = y; r < 32; r += 8) out[1024 + r * 32 + x] = __half2float(h[x * 2][r]) + __half2float(h[x + 32][r]);
}
