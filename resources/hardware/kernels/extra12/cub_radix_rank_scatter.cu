// block: 128
// input: keys = ukeys_1024.npy
#include <cub/cub.cuh>
// cub::BlockRadixRank on a 5-bit digit (bits 3..7 via BFEDigitExtractor), 4 keys a thread, then
// the keys scattered into a shared array at their ranks (one pass of a radix sort, by hand)
__global__ void radix_rank_scatter(const unsigned int *keys, unsigned int *out, int *ranks_out) {
    using Rank = cub::BlockRadixRank<128, 5, false>;
    __shared__ typename Rank::TempStorage temp;
    __shared__ unsigned int sorted[512];
    unsigned int k[4];
    int r[4];
    cub::LoadDirectBlocked(threadIdx.x, keys, k);
    cub::BFEDigitExtractor<unsigned int> digit(3, 5);
    Rank(temp).RankKeys(k, r, digit);
    for (int i = 0; i < 4; ++i) sorted[r[i]] = k[i];
    __syncthreads();
    for (int i = threadIdx.x; i < 512; i += 128) out[i] = sorted[i];
    cub::StoreDirectBlocked(threadIdx.x, ranks_out, r);
}
