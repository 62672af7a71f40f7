// block: 256
// input: in = bytes_4096.npy
// BlockHistogram with 64 bins (unsigned char samples >> 2, 4 a thread, BLOCK_HISTO_SORT) and
// with 1024 bins (unsigned short samples from byte pairs >> 6, 8 a thread, BLOCK_HISTO_ATOMIC);
// Histogram, then Composite of a second tile into the 64 bins
#include <cub/cub.cuh>
__global__ void histogram_64_1024(const unsigned char *in, unsigned *h64, unsigned *h1024) {
    using H64 = cub::BlockHistogram<unsigned char, 256, 4, 64, cub::BLOCK_HISTO_SORT>;
    using H1K = cub::BlockHistogram<unsigned short, 256, 8, 1024, cub::BLOCK_HISTO_ATOMIC>;
    __shared__ typename H64::TempStorage t64;
    __shared__ unsigned s64[64];
    __shared__ unsigned s1k[1024];
    int t = threadIdx.x;
    unsigned char a[4];
    for (int i = 0; i < 4; ++i) a[i] = in[t * 4 + i] >> 2;
    H64(t64).Histogram(a, s64);
    __syncthreads();
    for (int i = 0; i < 4; ++i) a[i] = in[1024 + t * 4 + i] & 63;
    H64(t64).Composite(a, s64);
    unsigned short b[8];
    for (int i = 0; i < 8; ++i) {
        int j = 2048 + (t * 8 + i) % 2047;
        b[i] = (unsigned short)(((in[j] << 8) | in[j + 1]) >> 6);
    }
    H1K().Histogram(b, s1k);
    __syncthreads();
    if (t < 64) h64[t] = s64[t];
    for (int i = t; i < 1024; i += 256) h1024[i] = s1k[i];
}
