// block: 32
// input: in = floats_1024.npy
// BlockMergeSort<float, 32, 11, int> (one warp, 11 items a thread: odd strides through shared
// memory) with a greater-than functor on keys with many ties (multiples of 1/4): StableSort of
// pairs, then a partial Sort of 250 valid keys with an out-of-bounds default
#include <cub/cub.cuh>
struct Greater {
    __device__ bool operator()(float a, float b) const { return a > b; }
};
__global__ void merge_sort_float_32x11(const float *in, float *kout, int *vout) {
    using MS = cub::BlockMergeSort<float, 32, 11, int>;
    __shared__ typename MS::TempStorage tmp;
    int t = threadIdx.x;
    float k[11];
    int v[11];
    for (int i = 0; i < 11; ++i) { k[i] = in[11 * t + i]; v[i] = 11 * t + i; }
    MS(tmp).StableSort(k, v, Greater());
    for (int i = 0; i < 11; ++i) { kout[11 * t + i] = k[i]; vout[11 * t + i] = v[i]; }
    __syncthreads();
    for (int i = 0; i < 11; ++i) { k[i] = in[400 + 11 * t + i] * 0.5f; v[i] = 11 * t + i; }
    MS(tmp).Sort(k, v, Greater(), 250, -1000.f);
    for (int i = 0; i < 11; ++i) { kout[352 + 11 * t + i] = k[i]; vout[352 + 11 * t + i] = v[i]; }
}
