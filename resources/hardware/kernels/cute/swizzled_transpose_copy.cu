#include <cute/tensor.hpp>
using namespace cute;
// block: 256
// input: in = in_64x64_f32.npy
// A 64 x 64 float tile through a Swizzle<3,2,3> shared tile: written row by row, 16 bytes a thread
// (UniversalCopy<uint128_t>), read back column by column, 4 bytes a thread, into the transpose.
__global__ void swizzled_transpose_copy(const float *in, float *out) {
    auto n = Int<64>{};
    Tensor gIn = make_tensor(make_gmem_ptr(in), make_shape(n, n), make_stride(n, Int<1>{}));
    Tensor gOut = make_tensor(make_gmem_ptr(out), make_shape(n, n), make_stride(Int<1>{}, n));  // out^T
    __shared__ alignas(128) float smem[64 * 64];
    Tensor s = make_tensor(make_smem_ptr(smem), composition(Swizzle<3, 2, 3>{}, Layout<Shape<_64, _64>, Stride<_64, _1>>{}));

    TiledCopy rows = make_tiled_copy(Copy_Atom<UniversalCopy<uint128_t>, float>{},
                                     Layout<Shape<_16, _16>, Stride<_16, _1>>{}, Layout<Shape<_1, _4>>{});
    ThrCopy rt = rows.get_slice(threadIdx.x);
    copy(rows, rt.partition_S(gIn), rt.partition_D(s));
    __syncthreads();

    TiledCopy cols = make_tiled_copy(Copy_Atom<UniversalCopy<float>, float>{},
                                     Layout<Shape<_64, _4>, Stride<_1, _64>>{}, Layout<Shape<_1, _1>>{});
    ThrCopy ct = cols.get_slice(threadIdx.x);
    copy(cols, ct.partition_S(s), ct.partition_D(gOut));
}
