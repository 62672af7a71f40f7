#include <cute/tensor.hpp>
using namespace cute;
// block: 128
// input: A = a_32x32_f32.npy
// input: B = b_32x32_f32.npy
// TF32 tensor cores: C (32 x 32 floats) = A x B^T with 2x2 warps of SM80_16x8x8_F32TF32TF32F32_TN,
// the operands staged in a padded shared tile (rows of 33 floats) and read with plain loads.
__global__ void mma_tf32_lds(const float *A, const float *B, float *C) {
    auto n = Int<32>{};
    Tensor mA = make_tensor(make_gmem_ptr(reinterpret_cast<const tfloat32_t *>(A)), make_shape(n, n), make_stride(n, Int<1>{}));
    Tensor mB = make_tensor(make_gmem_ptr(reinterpret_cast<const tfloat32_t *>(B)), make_shape(n, n), make_stride(n, Int<1>{}));
    Tensor mC = make_tensor(make_gmem_ptr(C), make_shape(n, n), make_stride(n, Int<1>{}));
    __shared__ tfloat32_t smemA[32 * 33];
    __shared__ tfloat32_t smemB[32 * 33];
    auto layout = Layout<Shape<_32, _32>, Stride<Int<33>, _1>>{};
    Tensor sA = make_tensor(make_smem_ptr(smemA), layout);
    Tensor sB = make_tensor(make_smem_ptr(smemB), layout);
    for (int i = threadIdx.x; i < 32 * 32; i += 128) {
        sA(i / 32, i % 32) = mA(i / 32, i % 32);
        sB(i / 32, i % 32) = mB(i / 32, i % 32);
    }
    __syncthreads();
    TiledMMA mma = make_tiled_mma(SM80_16x8x8_F32TF32TF32F32_TN{}, Layout<Shape<_2, _2>>{});
    ThrMMA thr_mma = mma.get_slice(threadIdx.x);
    Tensor tCsA = thr_mma.partition_A(sA);
    Tensor tCsB = thr_mma.partition_B(sB);
    Tensor tCrA = thr_mma.make_fragment_A(tCsA);
    Tensor tCrB = thr_mma.make_fragment_B(tCsB);
    copy(tCsA, tCrA);
    copy(tCsB, tCrB);
    Tensor tCgC = thr_mma.partition_C(mC);
    Tensor tCrC = thr_mma.make_fragment_C(tCgC);
    clear(tCrC);
    gemm(mma, tCrA, tCrB, tCrC);
    copy(tCrC, tCgC);
}
