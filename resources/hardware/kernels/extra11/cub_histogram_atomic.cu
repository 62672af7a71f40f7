// block: 128
// input: in = text_4096.npy
#include <cub/cub.cuh>
// byte histogram of 1024 bytes of text (8 a thread) with BLOCK_HISTO_ATOMIC: shared-memory atomics
__global__ void histogram_atomic(const unsigned char *in, unsigned int *out) {
    using Histogram = cub::BlockHistogram<unsigned char, 128, 8, 256, cub::BLOCK_HISTO_ATOMIC>;
    __shared__ typename Histogram::TempStorage temp;
    __shared__ unsigned int bins[256];
    unsigned char items[8];
    cub::LoadDirectBlocked(threadIdx.x, in, items);
    Histogram(temp).Histogram(items, bins);
    __syncthreads();
    for (int b = threadIdx.x; b < 256; b += 128) out[b] = bins[b];
}
