// block: 64
// input: in = bytes_4096.npy
// BlockHistogram<unsigned char, 64, 8, 256, BLOCK_HISTO_SORT> (512 bytes sorted, then run
// boundaries found): Histogram of uniform bytes, then Composite of the bytes' upper nibbles
#include <cub/cub.cuh>
__global__ void histogram_sort_uchar(const unsigned char *in, unsigned *out) {
    using BH = cub::BlockHistogram<unsigned char, 64, 8, 256, cub::BLOCK_HISTO_SORT>;
    __shared__ typename BH::TempStorage tmp;
    __shared__ unsigned hist[256];
    int t = threadIdx.x;
    unsigned char x[8];
    for (int i = 0; i < 8; ++i) x[i] = in[8 * t + i];
    BH(tmp).Histogram(x, hist);
    __syncthreads();
    for (int i = t; i < 256; i += 64) out[i] = hist[i];
    __syncthreads();
    for (int i = 0; i < 8; ++i) x[i] = in[512 + 8 * t + i] >> 4;
    BH(tmp).Composite(x, hist);
    __syncthreads();
    for (int i = t; i < 256; i += 64) out[256 + i] = hist[i];
}
