// block: 128
// input: samples = ushort_pairs_512.npy
#include <cub/cub.cuh>
// BlockHistogram of 1024 unsigned short samples (0..511) into 512 bins, 8 a thread:
// BLOCK_HISTO_SORT (a radix sort of 16-bit keys, then run boundaries) and BLOCK_HISTO_ATOMIC
__global__ void histogram_ushort(const unsigned short *samples, unsigned int *hist_sort, unsigned int *hist_atomic) {
    using HSort = cub::BlockHistogram<unsigned short, 128, 8, 512, cub::BLOCK_HISTO_SORT>;
    using HAtomic = cub::BlockHistogram<unsigned short, 128, 8, 512, cub::BLOCK_HISTO_ATOMIC>;
    __shared__ typename HSort::TempStorage temp;
    __shared__ unsigned int bins_a[512], bins_b[512];
    unsigned short s[8];
    cub::LoadDirectStriped<128>(threadIdx.x, samples, s);
    HSort(temp).Histogram(s, bins_a);
    HAtomic().Histogram(s, bins_b);
    __syncthreads();
    for (int i = threadIdx.x; i < 512; i += 128) {
        hist_sort[i] = bins_a[i];
        hist_atomic[i] = bins_b[i];
    }
}
