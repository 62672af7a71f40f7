// block: 128
// input: in = keys_1024.npy
// BlockRadixSort<long long, 128, 2, NullType, 5, false, BLOCK_SCAN_WARP_SCANS> (5-bit digits, outer
// scan not memoized, signed 64-bit keys): Sort, then SortDescendingBlockedToStriped on bits 10..40
#include <cub/cub.cuh>
__global__ void radix_sort_i64_128x2(const int *in, long long *out) {
    using RS = cub::BlockRadixSort<long long, 128, 2, cub::NullType, 5, false, cub::BLOCK_SCAN_WARP_SCANS>;
    __shared__ typename RS::TempStorage tmp;
    int t = threadIdx.x;
    long long k[2];
    for (int i = 0; i < 2; ++i) k[i] = ((long long)in[4 * t + 2 * i] << 24) ^ (unsigned)in[4 * t + 2 * i + 1];
    RS(tmp).Sort(k);
    for (int i = 0; i < 2; ++i) out[2 * t + i] = k[i];
    __syncthreads();
    for (int i = 0; i < 2; ++i) k[i] = (long long)in[512 + 2 * t + i] * 977;
    RS(tmp).SortDescendingBlockedToStriped(k, 10, 40);
    for (int i = 0; i < 2; ++i) out[256 + i * 128 + t] = k[i];
}
