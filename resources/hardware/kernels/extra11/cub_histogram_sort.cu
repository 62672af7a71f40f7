// block: 128
// input: in = text_4096.npy
#include <cub/cub.cuh>
// the same histogram with BLOCK_HISTO_SORT: a radix sort of the bytes, then run boundaries
__global__ void histogram_sort(const unsigned char *in, unsigned int *out) {
    using Histogram = cub::BlockHistogram<unsigned char, 128, 4, 256, cub::BLOCK_HISTO_SORT>;
    __shared__ typename Histogram::TempStorage temp;
    __shared__ unsigned int bins[256];
    unsigned char items[4];
    cub::LoadDirectBlocked(threadIdx.x, in, items);
    Histogram(temp).Histogram(items, bins);
    __syncthreads();
    for (int b = threadIdx.x; b < 256; b += 128) out[b] = bins[b];
}
