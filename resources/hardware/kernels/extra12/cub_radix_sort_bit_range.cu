// block: 128
// input: keys = ukeys_1024.npy
#include <cub/cub.cuh>
// sort 1024 unsigned keys with their positions on bits 4..11 only (Sort(keys, values, 4, 12)):
// 8 bits in two passes of CUB's 4-bit radix (one pass with RADIX_BITS = 4)
__global__ void radix_sort_bit_range(const unsigned int *keys, unsigned int *sorted, int *order) {
    using Sort = cub::BlockRadixSort<unsigned int, 128, 8, int, 4>;
    __shared__ typename Sort::TempStorage temp;
    unsigned int k[8];
    int v[8];
    cub::LoadDirectBlocked(threadIdx.x, keys, k);
    for (int i = 0; i < 8; ++i) v[i] = threadIdx.x * 8 + i;
    Sort(temp).SortBlockedToStriped(k, v, 4, 12);
    cub::StoreDirectStriped<128>(threadIdx.x, sorted, k);
    cub::StoreDirectStriped<128>(threadIdx.x, order, v);
}
