// block: 128
// input: keys = zipf64_2048.npy
// BlockRadixRankMatch<128, 4, false> (match.any peers, per-warp digit counters) on 4 keys a thread,
// digits bits 2..5 of skewed keys; then BlockRadixRankMatch descending with RAKING inner scan on
// bits 0..3; keys scattered to shared memory at their ranks both times
#include <cub/cub.cuh>
__global__ void radix_rank_match(const int *keys, unsigned int *out, int *ranks_out) {
    using RankA = cub::BlockRadixRankMatch<128, 4, false>;
    using RankD = cub::BlockRadixRankMatch<128, 4, true, cub::BLOCK_SCAN_RAKING>;
    __shared__ union { typename RankA::TempStorage a; typename RankD::TempStorage d; } temp;
    __shared__ unsigned int sorted[512];
    unsigned int k[4];
    int r[4];
    for (int i = 0; i < 4; ++i) k[i] = (unsigned int)keys[threadIdx.x * 4 + i] * 2654435761u >> 26;
    RankA(temp.a).RankKeys(k, r, cub::BFEDigitExtractor<unsigned int>(2, 4));
    for (int i = 0; i < 4; ++i) sorted[r[i]] = k[i];
    __syncthreads();
    for (int i = threadIdx.x; i < 512; i += 128) out[i] = sorted[i];
    cub::StoreDirectBlocked(threadIdx.x, ranks_out, r);
    __syncthreads();
    RankD(temp.d).RankKeys(k, r, cub::BFEDigitExtractor<unsigned int>(0, 4));
    for (int i = 0; i < 4; ++i) sorted[r[i]] = k[i];
    __syncthreads();
    for (int i = threadIdx.x; i < 512; i += 128) out[512 + i] = sorted[i];
    cub::StoreDirectBlocked(threadIdx.x, ranks_out + 512, r);
}
