// block: 128
// input: in = keys_1024.npy
// BlockAdjacentDifference<long long, 128>: SubtractRight with a tile successor, 
// SubtractRightPartialTile (valid 300) with a custom "b - 2a" operator, 3 items a thread
#include <cub/cub.cuh>
struct TwiceDiff {
    __device__ long long operator()(long long a, long long b) const { return b - 2 * a; }
};
__global__ void adjdiff_right_i64(const int *in, long long *out) {
    using AD = cub::BlockAdjacentDifference<long long, 128>;
    __shared__ typename AD::TempStorage tmp;
    int t = threadIdx.x;
    long long v[3], r[3];
    for (int i = 0; i < 3; ++i) v[i] = (long long)in[t * 3 + i] * 5;
    AD(tmp).SubtractRight(v, r, cuda::std::minus<>{}, (long long)in[500]);
    for (int i = 0; i < 3; ++i) out[t * 3 + i] = r[i];
    __syncthreads();
    AD(tmp).SubtractRightPartialTile(v, r, TwiceDiff(), 300);
    for (int i = 0; i < 3; ++i) out[384 + t * 3 + i] = r[i];
}
