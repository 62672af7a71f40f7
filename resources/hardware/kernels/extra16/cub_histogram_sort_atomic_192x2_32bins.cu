// block: 192
// input: in = zipf64_2048.npy
// BlockHistogram<unsigned char, 192, 2, 32> with BLOCK_HISTO_SORT (a radix sort of 384 samples, then
// run boundaries through shared memory) and with BLOCK_HISTO_ATOMIC, on skewed samples folded to
// 32 bins; two tiles each, composited into the same shared bins
#include <cub/cub.cuh>
__global__ void histogram_192x2(const int *in, unsigned int *out) {
    using HSort = cub::BlockHistogram<unsigned char, 192, 2, 32, cub::BLOCK_HISTO_SORT>;
    using HAtom = cub::BlockHistogram<unsigned char, 192, 2, 32, cub::BLOCK_HISTO_ATOMIC>;
    __shared__ typename HSort::TempStorage temp;
    __shared__ unsigned int bins_sort[32], bins_atom[32];
    unsigned char s[2];
    for (int i = 0; i < 2; ++i) s[i] = (unsigned char)(in[threadIdx.x * 2 + i] & 31);
    HSort(temp).Histogram(s, bins_sort);
    HAtom().Histogram(s, bins_atom);
    __syncthreads();
    for (int i = 0; i < 2; ++i) s[i] = (unsigned char)((in[384 + i * 192 + threadIdx.x] * 7) & 31);
    HSort(temp).Composite(s, bins_sort);
    HAtom().Composite(s, bins_atom);
    __syncthreads();
    if (threadIdx.x < 32) { out[threadIdx.x] = bins_sort[threadIdx.x]; out[32 + threadIdx.x] = bins_atom[threadIdx.x]; }
}
