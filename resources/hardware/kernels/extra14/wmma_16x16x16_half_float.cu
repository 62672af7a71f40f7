// block: 32
// input: in = small_floats_1024.npy
// one warp's 16x16x16 matrix multiply with nvcuda::wmma: half A (row-major) and B (col-major)
// fragments loaded from shared memory (HMMA with f32 accumulation), an accumulator loaded from a
// shared float tile (ld 20), two mma_sync steps, the result stored to shared memory row-major
// and column-major, then copied out; small-integer inputs make every product exact
#include <mma.h>
#include <cuda_fp16.h>
using namespace nvcuda;
__global__ void wmma_16x16x16_half_float(const float *in, float *out) {
    __shared__ alignas(32) __half a[16 * 16], b[16 * 16];
    __shared__ alignas(32) float c[16 * 20], d[16 * 16];
    int t = threadIdx.x;
    for (int i = t; i < 256; i += 32) {
        a[i] = __float2half(in[i]);
        b[i] = __float2half(in[256 + i]);
        d[i] = 0.0f;
    }
    for (int i = t; i < 320; i += 32) c[i] = in[512 + i] * 4.0f;
    __syncthreads();
    wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
    wmma::load_matrix_sync(fa, a, 16);
    wmma::load_matrix_sync(fb, b, 16);
    wmma::load_matrix_sync(acc, c, 20, wmma::mem_row_major);
    wmma::mma_sync(acc, fa, fb, acc);
    wmma::mma_sync(acc, fa, fb, acc);
    wmma::store_matrix_sync(d, acc, 16, wmma::mem_row_major);
    wmma::store_matrix_sync(c, acc, 20, wmma::mem_col_major);
    __syncwarp();
    for (int i = t; i < 256; i += 32) { out[i] = d[i]; out[256 + i] = c[(i >> 4) * 20 + (i & 15)]; }
}
