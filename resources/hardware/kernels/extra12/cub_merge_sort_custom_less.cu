// block: 128
// input: keys = keys_1024.npy
#include <cub/cub.cuh>
// BlockMergeSort of 512 int keys with a custom comparator (by absolute value, ties by sign):
// merge paths searched in shared memory, keys-only and then stable with values
struct AbsLess {
    __device__ bool operator()(const int &a, const int &b) const {
        unsigned ua = a < 0 ? 0u - (unsigned)a : (unsigned)a, ub = b < 0 ? 0u - (unsigned)b : (unsigned)b;
        return ua < ub || (ua == ub && a < b);
    }
};
__global__ void merge_sort_custom(const int *keys, int *sorted, int *stable_keys, int *stable_vals) {
    using Sort = cub::BlockMergeSort<int, 128, 4, int>;
    __shared__ typename Sort::TempStorage temp;
    int k[4], v[4];
    cub::LoadDirectBlocked(threadIdx.x, keys, k);
    Sort(temp).Sort(k, AbsLess());
    cub::StoreDirectBlocked(threadIdx.x, sorted, k);
    __syncthreads();
    for (int i = 0; i < 4; ++i) { k[i] = keys[512 + threadIdx.x * 4 + i] >> 24; v[i] = threadIdx.x * 4 + i; }
    Sort(temp).StableSort(k, v, AbsLess());
    cub::StoreDirectBlocked(threadIdx.x, stable_keys, k);
    cub::StoreDirectBlocked(threadIdx.x, stable_vals, v);
}
