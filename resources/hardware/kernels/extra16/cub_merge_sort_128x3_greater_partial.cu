// block: 128
// input: in = ukeys_1024.npy
// BlockMergeSort<unsigned, 128, 3, float> (3 items a thread, a tile of 384): Sort with a greater-than comparator on
// keys with values, then a partial Sort(keys, values, comp, 300, 0) (the tail filled with the default),
// then StableSort on the low byte only (many ties)
#include <cub/cub.cuh>
struct Greater {
    __device__ bool operator()(unsigned a, unsigned b) const { return a > b; }
};
struct LowByteLess {
    __device__ bool operator()(unsigned a, unsigned b) const { return (a & 255) < (b & 255); }
};
__global__ void merge_sort_128x3(const unsigned int *in, unsigned int *out, float *vals_out) {
    using Sort = cub::BlockMergeSort<unsigned int, 128, 3, float>;
    __shared__ typename Sort::TempStorage temp;
    unsigned int k[3];
    float v[3];
    cub::LoadDirectBlocked(threadIdx.x, in, k);
    for (int i = 0; i < 3; ++i) v[i] = (float)(threadIdx.x * 3 + i);
    Sort(temp).Sort(k, v, Greater());
    cub::StoreDirectBlocked(threadIdx.x, out, k);
    cub::StoreDirectBlocked(threadIdx.x, vals_out, v);
    __syncthreads();
    cub::LoadDirectBlocked(threadIdx.x, in + 384, k, 300, 0u);
    for (int i = 0; i < 3; ++i) v[i] = -(float)(threadIdx.x * 3 + i);
    Sort(temp).Sort(k, v, Greater(), 300, 0u);
    cub::StoreDirectBlocked(threadIdx.x, out + 384, k, 300);
    cub::StoreDirectBlocked(threadIdx.x, vals_out + 768, v, 300);
    __syncthreads();
    cub::LoadDirectBlocked(threadIdx.x, in + 100, k);
    for (int i = 0; i < 3; ++i) v[i] = (float)(threadIdx.x * 3 + i);
    Sort(temp).StableSort(k, v, LowByteLess());
    cub::StoreDirectBlocked(threadIdx.x, out + 768, k);
    cub::StoreDirectBlocked(threadIdx.x, vals_out + 384, v);
}
