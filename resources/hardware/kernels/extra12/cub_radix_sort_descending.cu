// block: 128
// input: keys = keys_1024.npy
#include <cub/cub.cuh>
// sort 512 signed keys high to low (SortDescending), then the next 512 high to low on bits 16..31
// only (begin_bit/end_bit of a descending sort are the last two arguments)
__global__ void radix_sort_descending(const int *keys, int *desc_out, int *desc_hi_out) {
    using Sort = cub::BlockRadixSort<int, 128, 4>;
    __shared__ typename Sort::TempStorage temp;
    int k[4];
    cub::LoadDirectStriped<128>(threadIdx.x, keys, k);
    Sort(temp).SortDescending(k);
    cub::StoreDirectBlocked(threadIdx.x, desc_out, k);
    __syncthreads();
    cub::LoadDirectStriped<128>(threadIdx.x, keys + 512, k);
    Sort(temp).SortDescending(k, 16, 32);
    cub::StoreDirectBlocked(threadIdx.x, desc_hi_out, k);
}
