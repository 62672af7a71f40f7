#include <cute/tensor.hpp>
using namespace cute;
// block: 128
// input: A = a_64x64_f16.npy
// input: B = b_64x64_f16.npy
// A 64 x 64 x 64 half-precision tile product (2x2 warps of SM80_16x8x16_F16F16F16F16_TN, operands
// read straight from global memory) whose epilogue stores the accumulators to a Swizzle<3,3,3>
// shared tile with stmatrix (SM90_U32x4_STSM_N), then copies the tile out 16 bytes a thread.
__global__ void mma_f16acc_stsm_epilogue(const half_t *A, const half_t *B, half_t *C) {
    auto bM = Int<64>{};
    auto bN = Int<64>{};
    auto bK = Int<64>{};
    Tensor mA = make_tensor(make_gmem_ptr(A), make_shape(bM, bK), make_stride(bK, Int<1>{}));
    Tensor mB = make_tensor(make_gmem_ptr(B), make_shape(bN, bK), make_stride(bK, Int<1>{}));
    Tensor mC = make_tensor(make_gmem_ptr(C), make_shape(bM, bN), make_stride(bN, Int<1>{}));
    __shared__ alignas(128) half_t smemC[64 * 64];
    Tensor sC = make_tensor(make_smem_ptr(smemC),
                            composition(Swizzle<3, 3, 3>{}, Layout<Shape<_64, _64>, Stride<_64, _1>>{}));

    TiledMMA mma = make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN{}, Layout<Shape<_2, _2>>{}, Tile<_32, _32, _16>{});
    ThrMMA thr_mma = mma.get_slice(threadIdx.x);
    Tensor tCgA = thr_mma.partition_A(mA);
    Tensor tCgB = thr_mma.partition_B(mB);
    Tensor tCrA = thr_mma.make_fragment_A(tCgA);
    Tensor tCrB = thr_mma.make_fragment_B(tCgB);
    copy(tCgA, tCrA);
    copy(tCgB, tCrB);
    Tensor tCrC = thr_mma.make_fragment_C(thr_mma.partition_C(mC));
    clear(tCrC);
    gemm(mma, tCrA, tCrB, tCrC);

    TiledCopy r2s = make_tiled_copy_C(Copy_Atom<SM90_U32x4_STSM_N, half_t>{}, mma);
    ThrCopy r2s_thr = r2s.get_slice(threadIdx.x);
    copy(r2s, r2s_thr.retile_S(tCrC), r2s_thr.partition_D(sC));
    __syncthreads();

    TiledCopy s2g = make_tiled_copy(Copy_Atom<UniversalCopy<uint128_t>, half_t>{},
                                    Layout<Shape<_16, _8>, Stride<_8, _1>>{}, Layout<Shape<_1, _8>>{});
    ThrCopy s2g_thr = s2g.get_slice(threadIdx.x);
    copy(s2g, s2g_thr.partition_S(sC), s2g_thr.partition_D(mC));
}
