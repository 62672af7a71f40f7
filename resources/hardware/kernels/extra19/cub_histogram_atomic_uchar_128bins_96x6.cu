// block: 96
// input: in = zipf_bytes_4096.npy
// BlockHistogram<unsigned char, 96, 6, 128, BLOCK_HISTO_ATOMIC> over skewed bytes (& 127): two
// rounds, InitHistogram, Histogram, then Composite of a second tile into the same counters
#include <cub/cub.cuh>
__global__ void histo_atomic_uchar_128(const unsigned char *in, unsigned *out) {
    using BH = cub::BlockHistogram<unsigned char, 96, 6, 128, cub::BLOCK_HISTO_ATOMIC>;
    __shared__ typename BH::TempStorage tmp;
    __shared__ unsigned hist[128];
    int t = threadIdx.x;
    unsigned char s[6];
    for (int i = 0; i < 6; ++i) s[i] = in[t * 6 + i] & 127;
    BH(tmp).Histogram(s, hist);
    __syncthreads();
    for (int i = t; i < 128; i += 96) out[i] = hist[i];
    for (int i = 0; i < 6; ++i) s[i] = in[576 + i * 96 + t] >> 1;
    BH(tmp).Composite(s, hist);
    __syncthreads();
    for (int i = t; i < 128; i += 96) out[128 + i] = hist[i];
}
