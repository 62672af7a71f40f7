// block: 64
// input: in = ukeys_1024.npy
// BlockRadixSort<unsigned short, 64, 7, int>: 448 16-bit keys with int values, Sort (blocked),
// SortDescending on bits 4..12, SortBlockedToStriped
#include <cub/cub.cuh>
__global__ void radix_sort_ushort_64x7(const unsigned *in, unsigned short *kout, int *vout) {
    using RS = cub::BlockRadixSort<unsigned short, 64, 7, int>;
    __shared__ typename RS::TempStorage tmp;
    int t = threadIdx.x;
    unsigned short k[7];
    int v[7];
    for (int i = 0; i < 7; ++i) { int j = t * 7 + i; k[i] = (unsigned short)(in[j] >> 7); v[i] = j; }
    RS(tmp).Sort(k, v);
    for (int i = 0; i < 7; ++i) { kout[t * 7 + i] = k[i]; vout[t * 7 + i] = v[i]; }
    __syncthreads();
    for (int i = 0; i < 7; ++i) k[i] = (unsigned short)(in[t * 7 + i] & 0xffff);
    RS(tmp).SortDescending(k, v, 4, 12);
    for (int i = 0; i < 7; ++i) { kout[512 + t * 7 + i] = k[i]; vout[512 + t * 7 + i] = v[i]; }
    __syncthreads();
    RS(tmp).SortBlockedToStriped(k, v);
    for (int i = 0; i < 7; ++i) { kout[1024 + i * 64 + t] = k[i]; vout[1024 + i * 64 + t] = v[i]; }
}
