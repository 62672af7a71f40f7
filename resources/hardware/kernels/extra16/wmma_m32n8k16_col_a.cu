// block: 64
// input: in = floats_1024.npy
// wmma with the m32n8k16 shape, one product a warp: A (32 x 16 half) column-major from shared
// memory with ld 40, B (16 x 8 half) row-major with ld 24, a float accumulator filled with 1,
// two mma_sync, the result stored column-major (ld 40) to shared memory and copied out
#include <mma.h>
using namespace nvcuda;
__global__ void wmma_32x8(const float *in, float *out) {
    __shared__ __align__(32) half A[2][16 * 40];
    __shared__ __align__(32) half B[2][16 * 24];
    __shared__ __align__(32) float C[2][8 * 40];
    int t = threadIdx.x, w = t / 32, lane = t & 31;
    for (int i = lane; i < 16 * 40; i += 32) A[w][i] = __float2half(in[(i + w * 7) & 1023]);
    for (int i = lane; i < 16 * 24; i += 32) B[w][i] = __float2half((float)((i * 3 + w) % 7 - 3));
    __syncwarp();
    wmma::fragment<wmma::matrix_a, 32, 8, 16, half, wmma::col_major> fa;
    wmma::fragment<wmma::matrix_b, 32, 8, 16, half, wmma::row_major> fb;
    wmma::fragment<wmma::accumulator, 32, 8, 16, float> fc;
    wmma::fill_fragment(fc, 1.0f);
    wmma::load_matrix_sync(fa, A[w], 40);
    wmma::load_matrix_sync(fb, B[w], 24);
    wmma::mma_sync(fc, fa, fb, fc);
    wmma::mma_sync(fc, fa, fb, fc);
    wmma::store_matrix_sync(C[w], fc, 40, wmma::mem_col_major);
    __syncwarp();
    for (int i = lane; i < 8 * 40; i += 32) out[w * 320 + i] = C[w][i];
}
