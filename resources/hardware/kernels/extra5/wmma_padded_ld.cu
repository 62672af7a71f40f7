// block: 32
#include <mma.h>
using namespace nvcuda;
// one warp: C(16x32) = A(16x16) * B(16x32) with padded half tiles (ld 24 and 40), result staged in shared float (ld 36)
__global__ void wmma_pad(const half *A, const half *B, float *C) {
    __shared__ __align__(32) half As[16][24];
    __shared__ __align__(32) half Bs[16][40];
    __shared__ __align__(32) float Cs[16][36];
    int t = threadIdx.x;
    for (int i = t; i < 16 * 16; i += 32) As[i / 16][i % 16] = A[i];
    for (int i = t; i < 16 * 32; i += 32) Bs[i / 32][i % 32] = B[i];
    __syncwarp();
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> b0, b1;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> c0, c1;
    wmma::fill_fragment(c0, 0.f);
    wmma::fill_fragment(c1, 0.f);
    wmma::load_matrix_sync(a, &As[0][0], 24);
    wmma::load_matrix_sync(b0, &Bs[0][0], 40);
    wmma::load_matrix_sync(b1, &Bs[0][16], 40);
    wmma::mma_sync(c0, a, b0, c0);
    wmma::mma_sync(c1, a, b1, c1);
    wmma::store_matrix_sync(&Cs[0][0], c0, 36, wmma::mem_row_major);
    wmma::store_matrix_sync(&Cs[0][16], c1, 36, wmma::mem_row_major);
    __syncwarp();
    for (int i = t; i < 16 * 32; i += 32) C[i] = Cs[i / 32][i % 32];
}
