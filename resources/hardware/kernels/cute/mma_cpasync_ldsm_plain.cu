#include <cute/tensor.hpp>
using namespace cute;
// block: 128
// input: A = a_64x64_f16.npy
// input: B = b_64x64_f16.npy
// C (64 x 64 floats) = A (64 x 64, row-major, K-major) x B^T (B: 64 x 64, K-major): one CTA, one
// 64-wide K tile moved to shared memory by cp.async (SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, 16 bytes
// a thread), read into registers by ldmatrix (SM75_U32x4_LDSM_N) and multiplied by 2x2 warps of
// SM80_16x8x16_F32F16F16F32_TN. The shared tile's layout is what differs between the four files:
// a plain row-major tile (rows of 128 bytes: ldmatrix's eight rows share their banks)
__global__ void mma_cpasync_ldsm_plain(const half_t *A, const half_t *B, float *C) {
    auto bM = Int<64>{};
    auto bN = Int<64>{};
    auto bK = Int<64>{};
    Tensor mA = make_tensor(make_gmem_ptr(A), make_shape(bM, bK), make_stride(bK, Int<1>{}));
    Tensor mB = make_tensor(make_gmem_ptr(B), make_shape(bN, bK), make_stride(bK, Int<1>{}));
    Tensor mC = make_tensor(make_gmem_ptr(C), make_shape(bM, bN), make_stride(bN, Int<1>{}));
    auto smem_layout = Layout<Shape<_64, _64>, Stride<_64, _1>>{};
    __shared__ alignas(128) half_t smemA[64 * 64];
    __shared__ alignas(128) half_t smemB[64 * 64];
    Tensor sA = make_tensor(make_smem_ptr(smemA), smem_layout);
    Tensor sB = make_tensor(make_smem_ptr(smemB), smem_layout);

    TiledCopy g2s = make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, half_t>{},
                                    Layout<Shape<_16, _8>, Stride<_8, _1>>{}, Layout<Shape<_1, _8>>{});
    ThrCopy g2s_thr = g2s.get_slice(threadIdx.x);
    copy(g2s, g2s_thr.partition_S(mA), g2s_thr.partition_D(sA));
    copy(g2s, g2s_thr.partition_S(mB), g2s_thr.partition_D(sB));
    cp_async_fence();
    cp_async_wait<0>();
    __syncthreads();

    TiledMMA mma = make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2, _2>>{}, Tile<_32, _32, _16>{});
    ThrMMA thr_mma = mma.get_slice(threadIdx.x);
    Tensor tCgC = thr_mma.partition_C(mC);
    Tensor tCrA = thr_mma.partition_fragment_A(sA);
    Tensor tCrB = thr_mma.partition_fragment_B(sB);
    Tensor tCrC = thr_mma.make_fragment_C(tCgC);
    clear(tCrC);

    TiledCopy s2rA = make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, mma);
    ThrCopy s2rA_thr = s2rA.get_slice(threadIdx.x);
    Tensor tXsA = s2rA_thr.partition_S(sA);
    Tensor tXrA = s2rA_thr.retile_D(tCrA);
    TiledCopy s2rB = make_tiled_copy_B(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, mma);
    ThrCopy s2rB_thr = s2rB.get_slice(threadIdx.x);
    Tensor tXsB = s2rB_thr.partition_S(sB);
    Tensor tXrB = s2rB_thr.retile_D(tCrB);

    CUTE_UNROLL
    for (int k = 0; k < size<2>(tCrA); ++k) {
        copy(s2rA, tXsA(_, _, k), tXrA(_, _, k));
        copy(s2rB, tXsB(_, _, k), tXrB(_, _, k));
        gemm(mma, tCrA(_, _, k), tCrB(_, _, k), tCrC);
    }
    copy(tCrC, tCgC);
}
