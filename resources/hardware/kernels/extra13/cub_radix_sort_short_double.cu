// block: 128
// input: keys = short_pairs_512.npy
// BlockRadixSort<short, 128, 8, double>: 1024 signed 16-bit keys (many repeats) with 8-byte
// double values (the values are exchanged through shared memory as 64-bit words), 2-byte keys
#include <cub/cub.cuh>
__global__ void radix_sort_short_double(const short *keys, short *out_k, double *out_v) {
    using Sort = cub::BlockRadixSort<short, 128, 8, double>;
    __shared__ typename Sort::TempStorage temp;
    short k[8];
    double v[8];
    cub::LoadDirectStriped<128>(threadIdx.x, keys, k);
    for (int i = 0; i < 8; ++i) v[i] = (double)(i * 128 + threadIdx.x) * 0.5;
    Sort(temp).Sort(k, v);
    cub::StoreDirectBlocked(threadIdx.x, out_k, k);
    cub::StoreDirectBlocked(threadIdx.x, out_v, v);
}
