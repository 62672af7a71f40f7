// block: 128
// input: keys = keys_1024.npy
// WarpMergeSort<int, 4, 32, float> per warp (128 keys a warp, merge passes through the warp's
// shared storage) sorting keys by their low 10 bits (many ties) with float values, then a
// keys-only WarpMergeSort<int, 8, 16> of half warps with a partial count and an oob default
#include <cub/cub.cuh>
struct LowLess {
    __device__ bool operator()(int a, int b) const { return (a & 1023) < (b & 1023); }
};
__global__ void warp_merge_sort(const int *keys, int *out_k, float *out_v) {
    using Sort = cub::WarpMergeSort<int, 4, 32, float>;
    using Sort16 = cub::WarpMergeSort<int, 8, 16>;
    __shared__ typename Sort::TempStorage temp[4];
    __shared__ typename Sort16::TempStorage temp16[8];
    int t = threadIdx.x, w = t >> 5, lane = t & 31;
    int k[4];
    float v[4];
    for (int i = 0; i < 4; ++i) {
        k[i] = keys[w * 128 + lane * 4 + i];
        v[i] = (float)(lane * 4 + i);
    }
    Sort(temp[w]).Sort(k, v, LowLess());
    for (int i = 0; i < 4; ++i) {
        out_k[w * 128 + lane * 4 + i] = k[i];
        out_v[w * 128 + lane * 4 + i] = v[i];
    }
    int hw = t >> 4, l = t & 15, k8[8];
    for (int i = 0; i < 8; ++i) k8[i] = keys[512 + hw * 64 + l * 8 + i] >> 20;
    Sort16(temp16[hw]).Sort(k8, LowLess(), 100, 1 << 30);
    for (int i = 0; i < 8; ++i) out_k[512 + hw * 128 + l * 8 + i] = k8[i];
}
