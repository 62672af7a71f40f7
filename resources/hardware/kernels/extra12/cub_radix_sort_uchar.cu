// block: 128
// input: bytes = bytes_2048.npy
#include <cub/cub.cuh>
// sort 2048 unsigned char keys (skewed: many small values), 16 a thread, with a 16-bit payload
__global__ void radix_sort_uchar(const unsigned char *bytes, unsigned char *sorted, short *where) {
    using Sort = cub::BlockRadixSort<unsigned char, 128, 16, short>;
    __shared__ typename Sort::TempStorage temp;
    unsigned char k[16];
    short v[16];
    cub::LoadDirectStriped<128>(threadIdx.x, bytes, k);
    for (int i = 0; i < 16; ++i) v[i] = (short)(i * 128 + threadIdx.x);
    Sort(temp).Sort(k, v);
    cub::StoreDirectBlocked(threadIdx.x, sorted, k);
    cub::StoreDirectBlocked(threadIdx.x, where, v);
}
