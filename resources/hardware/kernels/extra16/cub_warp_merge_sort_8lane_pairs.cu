// block: 128
// input: in = ukeys_1024.npy
// WarpMergeSort<unsigned, 3, 8, int> on 16 logical warps of 8 lanes (24 keys each): Sort with
// values and a descending comparator on the top 12 bits (ties), then a partial Sort of 20 keys
#include <cub/cub.cuh>
struct DescTop {
    __device__ bool operator()(unsigned a, unsigned b) const { return (a >> 20) > (b >> 20); }
};
__global__ void warp_merge_sort_8(const unsigned int *in, unsigned int *out, int *vals_out) {
    using WS = cub::WarpMergeSort<unsigned int, 3, 8, int>;
    __shared__ typename WS::TempStorage temp[16];
    int g = threadIdx.x / 8;
    WS ws(temp[g]);
    unsigned int k[3];
    int v[3];
    for (int i = 0; i < 3; ++i) {
        int j = threadIdx.x * 3 + i;
        k[i] = in[j];
        v[i] = j;
    }
    ws.Sort(k, v, DescTop());
    for (int i = 0; i < 3; ++i) { out[threadIdx.x * 3 + i] = k[i]; vals_out[threadIdx.x * 3 + i] = v[i]; }
    __syncwarp();
    for (int i = 0; i < 3; ++i) k[i] = in[384 + threadIdx.x * 3 + i];
    ws.Sort(k, DescTop(), 20, 0u);
    for (int i = 0; i < 3; ++i) out[384 + threadIdx.x * 3 + i] = k[i];
}
