// block: 16, 16
// input: a = floats_1024.npy
// input: b = floats_1024.npy
// C (32 x 32) = A (32 x 32) * B (32 x 32) in __half2 arithmetic: A tile as __half [32][33],
// B tile as __half2 [32][16] (two columns a word), each thread computes two rows x two columns
// with __hfma2 over k and a broadcast __half2 of A
#include <cuda_fp16.h>
__global__ void gemm_half2(const float *a, const float *b, float *c) {
    __shared__ __half As[32][33];
    __shared__ __half2 Bs[32][16];
    int tx = threadIdx.x, ty = threadIdx.y, t = ty * 16 + tx;
    for (int i = t; i < 1024; i += 256) As[i >> 5][i & 31] = __float2half(a[i]);
    for (int i = t; i < 512; i += 256) {
        int r = i >> 4, cc = (i & 15) * 2;
        Bs[r][i & 15] = __floats2half2_rn(b[r * 32 + cc], b[r * 32 + cc + 1]);
    }
    __syncthreads();
    __half2 acc0 = __float2half2_rn(0.f), acc1 = acc0;
    for (int k = 0; k < 32; ++k) {
        __half2 bv = Bs[k][tx];
        acc0 = __hfma2(__half2half2(As[2 * ty][k]), bv, acc0);
        acc1 = __hfma2(__half2half2(As[2 * ty + 1][k]), bv, acc1);
    }
    c[(2 * ty) * 32 + 2 * tx] = __low2float(acc0);
    c[(2 * ty) * 32 + 2 * tx + 1] = __high2float(acc0);
    c[(2 * ty + 1) * 32 + 2 * tx] = __low2float(acc1);
    c[(2 * ty + 1) * 32 + 2 * tx + 1] = __high2float(acc1);
}
