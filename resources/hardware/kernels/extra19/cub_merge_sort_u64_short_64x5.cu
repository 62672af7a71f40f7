// block: 64
// input: in = ukeys_1024.npy
// BlockMergeSort<unsigned long long, 64, 5, short> pairs with a less functor on the upper bits
// (many ties): StableSort, then Sort of a partial tile (valid 211, out-of-range default)
#include <cub/cub.cuh>
struct UpperLess {
    __device__ bool operator()(unsigned long long a, unsigned long long b) const { return (a >> 36) < (b >> 36); }
};
__global__ void merge_sort_u64_short(const unsigned *in, unsigned long long *kout, short *vout) {
    using MS = cub::BlockMergeSort<unsigned long long, 64, 5, short>;
    __shared__ typename MS::TempStorage tmp;
    int t = threadIdx.x;
    unsigned long long k[5];
    short v[5];
    for (int i = 0; i < 5; ++i) { int j = t * 5 + i; k[i] = ((unsigned long long)in[j] << 8) | (j & 255); v[i] = (short)j; }
    MS(tmp).StableSort(k, v, UpperLess());
    for (int i = 0; i < 5; ++i) { kout[t * 5 + i] = k[i]; vout[t * 5 + i] = v[i]; }
    __syncthreads();
    for (int i = 0; i < 5; ++i) { int j = t * 5 + i; k[i] = ((unsigned long long)in[320 + j] << 4); v[i] = (short)-j; }
    MS(tmp).Sort(k, v, UpperLess(), 211, ~0ull);
    for (int i = 0; i < 5; ++i) { kout[320 + t * 5 + i] = k[i]; vout[320 + t * 5 + i] = v[i]; }
}
