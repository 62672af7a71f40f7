// block: 512
// input: in = bytes_2048.npy
// BlockHistogram<unsigned char, 512, 4, 64, BLOCK_HISTO_ATOMIC> with the specific header
// <cub/block/block_histogram.cuh>: 2048 skewed byte samples folded to 64 bins (many in the first
// few), InitHistogram + Composite into a shared histogram, then a second Composite of other bins
#include <cub/block/block_histogram.cuh>
#include <cub/block/block_load.cuh>
__global__ void histogram_atomic_512(const unsigned char *in, unsigned *out) {
    using Hist = cub::BlockHistogram<unsigned char, 512, 4, 64, cub::BLOCK_HISTO_ATOMIC>;
    __shared__ typename Hist::TempStorage temp;
    __shared__ unsigned bins[64];
    unsigned char s[4];
    cub::LoadDirectStriped<512>(threadIdx.x, in, s);
    for (int i = 0; i < 4; ++i) s[i] = s[i] & 63;
    Hist h(temp);
    h.InitHistogram(bins);
    __syncthreads();
    h.Composite(s, bins);
    __syncthreads();
    for (int i = 0; i < 4; ++i) s[i] = (unsigned char)((s[i] * 5 + threadIdx.x) & 63);
    h.Composite(s, bins);
    __syncthreads();
    if (threadIdx.x < 64) out[threadIdx.x] = bins[threadIdx.x];
}
