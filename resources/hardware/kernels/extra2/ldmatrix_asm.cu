// block: 32
#include <cuda_fp16.h>
__global__ void ldsm(const half *in, float *out) {
    __shared__ half tile[16][64];
    int t = threadIdx.x;
    for (int i = t; i < 16 * 64; i += 32) tile[i / 64][i % 64] = in[i];
    __syncthreads();
    int row = t % 16, col = (t / 16) * 8;
    unsigned addr = static_cast<unsigned>(__cvta_generic_to_shared(&tile[row][col]));
    unsigned r0, r1, r2, r3;
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                 : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(addr));
    out[t] = (float)(r0 + r1 + r2 + r3);
}
