// block: 256
// define: passes=20
// A shared-heavy CUB kernel in a loop: a block radix sort of 1,024 keys (4 a thread), new keys
// each pass, as a kernel that sorts tile after tile runs it.
#include <cub/cub.cuh>
__global__ void cub_sort_passes(const unsigned int *in, unsigned int *out, int passes) {
    using Sort = cub::BlockRadixSort<unsigned int, 256, 4>;
    __shared__ typename Sort::TempStorage temp;
    unsigned int keys[4];
    cub::LoadDirectBlocked(threadIdx.x, in, keys);
    for (int p = 0; p < passes; p++) {
        for (int j = 0; j < 4; j++) keys[j] = keys[j] * 2654435761u + threadIdx.x * 4 + j + p;
        Sort(temp).Sort(keys);
        __syncthreads();
    }
    cub::StoreDirectBlocked(threadIdx.x, out, keys);
}
