// block: 64
// input: keys = u64_pairs_1024.npy
// BlockRadixSort<unsigned long long, 64, 8, short>: 512 64-bit keys (random high words, four
// distinct low words) with 16-bit values, 64 threads (two warps), 16 passes of 4 bits
#include <cub/cub.cuh>
__global__ void radix_sort_u64_short(const unsigned long long *keys, unsigned long long *out_k,
                                     short *out_v) {
    using Sort = cub::BlockRadixSort<unsigned long long, 64, 8, short>;
    __shared__ typename Sort::TempStorage temp;
    unsigned long long k[8];
    short v[8];
    cub::LoadDirectBlocked(threadIdx.x, keys, k);
    for (int i = 0; i < 8; ++i) v[i] = (short)(threadIdx.x * 8 + i);
    Sort(temp).SortBlockedToStriped(k, v);
    cub::StoreDirectStriped<64>(threadIdx.x, out_k, k);
    cub::StoreDirectStriped<64>(threadIdx.x, out_v, v);
}
