// block: 128
// input: in = ukeys_1024.npy
// BlockRadixRank<128, 5, descending, memoized outer scan, BLOCK_SCAN_RAKING_MEMOIZE>: RankKeys of 4
// keys a thread on bits 3..7 and then 20..24 (BFEDigitExtractor), each pass scattered by rank into
// shared memory and written out
#include <cub/cub.cuh>
__global__ void radix_rank_desc_128x4(const unsigned *in, unsigned *out, int *ranks_out) {
    using RR = cub::BlockRadixRank<128, 5, true, true, cub::BLOCK_SCAN_RAKING_MEMOIZE>;
    __shared__ typename RR::TempStorage tmp;
    __shared__ unsigned sorted[512];
    int t = threadIdx.x;
    unsigned k[4];
    int r[4];
    for (int i = 0; i < 4; ++i) k[i] = in[4 * t + i];
    RR(tmp).RankKeys(k, r, cub::BFEDigitExtractor<unsigned>(3, 5));
    for (int i = 0; i < 4; ++i) { sorted[r[i]] = k[i]; ranks_out[4 * t + i] = r[i]; }
    __syncthreads();
    for (int i = 0; i < 4; ++i) k[i] = sorted[4 * t + i];
    out[t] = sorted[t]; out[t + 128] = sorted[t + 128]; out[t + 256] = sorted[t + 256]; out[t + 384] = sorted[t + 384];
    __syncthreads();
    RR(tmp).RankKeys(k, r, cub::BFEDigitExtractor<unsigned>(20, 5));
    __syncthreads();
    for (int i = 0; i < 4; ++i) { sorted[r[i]] = k[i]; ranks_out[512 + 4 * t + i] = r[i]; }
    __syncthreads();
    for (int i = t; i < 512; i += 128) out[512 + i] = sorted[i];
}
