// block: 128
// input: in = keys_1024.npy
// input: vin = floats_1024.npy
// BlockRadixSort<int, 128, 3, float, 6 radix bits, memoized outer scan, BLOCK_SCAN_RAKING>:
// signed keys with float values, Sort then SortBlockedToStriped on bits 3..20
#include <cub/cub.cuh>
__global__ void radix_sort_int_float_6bits(const int *in, const float *vin, int *kout, float *vout) {
    using RS = cub::BlockRadixSort<int, 128, 3, float, 6, true, cub::BLOCK_SCAN_RAKING>;
    __shared__ typename RS::TempStorage tmp;
    int t = threadIdx.x;
    int k[3];
    float v[3];
    for (int i = 0; i < 3; ++i) { k[i] = in[t * 3 + i]; v[i] = vin[t * 3 + i]; }
    RS(tmp).Sort(k, v);
    for (int i = 0; i < 3; ++i) { kout[t * 3 + i] = k[i]; vout[t * 3 + i] = v[i]; }
    __syncthreads();
    for (int i = 0; i < 3; ++i) { k[i] = in[512 + t * 3 + i] >> 5; v[i] = (float)i; }
    RS(tmp).SortBlockedToStriped(k, v, 3, 21);
    for (int i = 0; i < 3; ++i) { kout[512 + i * 128 + t] = k[i]; vout[512 + i * 128 + t] = v[i]; }
}
