// block: 128
// input: keys = keys_1024.npy
#include <cub/cub.cuh>
// argsort: sort 512 int keys with their positions as values
__global__ void radix_sort_pairs(const int *keys, int *sorted_keys, int *order) {
    using Sort = cub::BlockRadixSort<int, 128, 4, int>;
    __shared__ typename Sort::TempStorage temp;
    int k[4], v[4];
    cub::LoadDirectBlocked(threadIdx.x, keys, k);
    for (int i = 0; i < 4; ++i) v[i] = threadIdx.x * 4 + i;
    Sort(temp).Sort(k, v);
    cub::StoreDirectBlocked(threadIdx.x, sorted_keys, k);
    cub::StoreDirectBlocked(threadIdx.x, order, v);
}
