// block: 32
#include <cuda_fp16.h>
__device__ __forceinline__ int swz(int row, int chunk) { return chunk ^ (row % 8); }
__global__ void ldsm_swz(const half *in, float *out) {
    __shared__ half tile[16][64];
    int t = threadIdx.x;
    for (int i = t; i < 16 * 8; i += 32) {
        int r = i / 8, c = i % 8;
        *reinterpret_cast<int4 *>(&tile[r][swz(r, c) * 8]) = reinterpret_cast<const int4 *>(in)[i];
    }
    __syncthreads();
    int row = t % 16, chunk = t / 16;
    unsigned addr = static_cast<unsigned>(__cvta_generic_to_shared(&tile[row][swz(row, chunk) * 8]));
    unsigned r0, r1, r2, r3;
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                 : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(addr));
    out[t] = (float)(r0 ^ r1 ^ r2 ^ r3);
}
