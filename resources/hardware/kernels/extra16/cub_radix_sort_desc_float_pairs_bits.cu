// block: 128
// input: in = floats_1024.npy
// BlockRadixSort<float, 128, 4, int>: SortDescending with values (the original positions) over all
// bits, then Sort ascending on bits 20..31 only (sign, exponent, top of mantissa), then
// SortDescendingBlockedToStriped of the keys alone
#include <cub/cub.cuh>
__global__ void radix_sort_desc_float(const float *in, float *out, int *idx_out) {
    using Sort = cub::BlockRadixSort<float, 128, 4, int>;
    __shared__ typename Sort::TempStorage temp;
    float k[4];
    int v[4];
    cub::LoadDirectBlocked(threadIdx.x, in, k);
    for (int i = 0; i < 4; ++i) v[i] = threadIdx.x * 4 + i;
    Sort(temp).SortDescending(k, v);
    cub::StoreDirectBlocked(threadIdx.x, out, k);
    cub::StoreDirectBlocked(threadIdx.x, idx_out, v);
    __syncthreads();
    cub::LoadDirectBlocked(threadIdx.x, in + 512, k);
    for (int i = 0; i < 4; ++i) v[i] = threadIdx.x * 4 + i;
    Sort(temp).Sort(k, v, 20, 32);
    cub::StoreDirectBlocked(threadIdx.x, out + 512, k);
    cub::StoreDirectBlocked(threadIdx.x, idx_out + 512, v);
    __syncthreads();
    cub::LoadDirectBlocked(threadIdx.x, in + 256, k);
    Sort(temp).SortDescendingBlockedToStriped(k, v);
    cub::StoreDirectStriped<128>(threadIdx.x, out + 1024, k);
}
