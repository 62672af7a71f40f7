// block: 64
// input: in = small_floats_1024.npy
// packed bfloat16 arithmetic on shared __nv_bfloat162 arrays of small integers (exact):
// __hfma2, __hmul2, __hadd2, __hmax2, __hmin2, __hmax2_nan, __habs2, __hneg2 on bf16 pairs;
// a bf16x2 dot product down a column of a [32][17] tile; conversions with __floats2bfloat162_rn
#include <cuda_bf16.h>
__global__ void bf16x2_fma_minmax(const float *in, float *out) {
    __shared__ __nv_bfloat162 a[32][17];
    __shared__ __nv_bfloat162 b[512];
    int t = threadIdx.x;
    for (int i = t; i < 512; i += 64) {
        a[i >> 4][i & 15] = __floats2bfloat162_rn(in[2 * i], in[2 * i + 1]);
        b[i] = __floats2bfloat162_rn(in[(2 * i + 7) & 1023], -in[(3 * i) & 1023]);
    }
    __syncthreads();
    int c = t & 15, half = t >> 4;
    __nv_bfloat162 acc = __floats2bfloat162_rn(0.0f, 0.0f);
    for (int r = half; r < 32; r += 4) acc = __hfma2(a[r][c], b[r * 16 + c], acc);
    __nv_bfloat162 x = b[t], y = b[511 - t];
    __nv_bfloat162 m = __hmax2(__hmul2(x, y), __hadd2(x, __hneg2(y)));
    __nv_bfloat162 n = __hmin2(__habs2(x), __hmax2_nan(y, x));
    float *o = out + t * 6;
    o[0] = __low2float(acc); o[1] = __high2float(acc);
    o[2] = __low2float(m);   o[3] = __high2float(m);
    o[4] = __low2float(n);   o[5] = __high2float(n);
}
