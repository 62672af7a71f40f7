// block: 256
// input: vals = floats_1024.npy
#include <cub/cub.cuh>
// sort 1024 float keys (normally distributed, half of them negative: CUB flips the sign bits)
__global__ void radix_sort_float(const float *vals, float *out) {
    using Sort = cub::BlockRadixSort<float, 256, 4>;
    __shared__ typename Sort::TempStorage temp;
    float k[4];
    cub::LoadDirectBlocked(threadIdx.x, vals, k);
    Sort(temp).Sort(k);
    cub::StoreDirectBlocked(threadIdx.x, out, k);
}
