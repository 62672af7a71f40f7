// block: 64
// input: in = keys_1024.npy
// WarpMergeSort<int, 4, 16> keys only on 16-lane logical warps (4 of them): Sort descending,
// then a partial Sort (valid 37 of 64) with an out-of-range default
#include <cub/cub.cuh>
struct Greater { __device__ bool operator()(int a, int b) const { return a > b; } };
__global__ void warp_merge_sort_keys_16(const int *in, int *out) {
    using WMS = cub::WarpMergeSort<int, 4, 16>;
    __shared__ typename WMS::TempStorage tmp[4];
    int t = threadIdx.x, g = t >> 4;
    int k[4];
    for (int i = 0; i < 4; ++i) k[i] = in[t * 4 + i] >> 20;
    WMS(tmp[g]).Sort(k, Greater());
    for (int i = 0; i < 4; ++i) out[t * 4 + i] = k[i];
    for (int i = 0; i < 4; ++i) k[i] = in[256 + t * 4 + i] & 0xff;
    WMS(tmp[g]).Sort(k, Greater(), 37, -1000);
    for (int i = 0; i < 4; ++i) out[256 + t * 4 + i] = k[i];
}
