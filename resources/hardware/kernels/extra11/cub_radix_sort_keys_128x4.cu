// block: 128
// input: in = keys_1024.npy
#include <cub/cub.cuh>
// sort 512 int keys, 4 a thread (blocked in, blocked out)
__global__ void radix_sort_keys_128x4(const int *in, int *out) {
    using Sort = cub::BlockRadixSort<int, 128, 4>;
    __shared__ typename Sort::TempStorage temp;
    int keys[4];
    cub::LoadDirectBlocked(threadIdx.x, in, keys);
    Sort(temp).Sort(keys);
    cub::StoreDirectBlocked(threadIdx.x, out, keys);
}
