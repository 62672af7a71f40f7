// block: 256
// input: in = keys_1024.npy
#include <cub/cub.cuh>
// sort 1024 unsigned keys, 4 a thread, and write them striped (coalesced) with SortBlockedToStriped
__global__ void radix_sort_keys_256x4(const unsigned int *in, unsigned int *out) {
    using Sort = cub::BlockRadixSort<unsigned int, 256, 4>;
    __shared__ typename Sort::TempStorage temp;
    unsigned int keys[4];
    cub::LoadDirectBlocked(threadIdx.x, in, keys);
    Sort(temp).SortBlockedToStriped(keys);
    cub::StoreDirectStriped<256>(threadIdx.x, out, keys);
}
