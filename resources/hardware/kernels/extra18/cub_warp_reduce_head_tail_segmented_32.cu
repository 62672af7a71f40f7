// block: 128
// input: in = ints_1024.npy
// input: heads = heads_1024.npy
// WarpReduce<int> on full 32-lane warps: HeadSegmentedSum with head flags from the data,
// TailSegmentedReduce with max (tails one lane before the next head), HeadSegmentedReduce with
// a custom xor-min operator; the segment leaders write out
#include <cub/cub.cuh>
struct XorMin {
    __device__ int operator()(int a, int b) const { return min(a, b) ^ 1; }
};
__global__ void warp_reduce_segmented32(const int *in, const int *heads, int *out) {
    using WR = cub::WarpReduce<int>;
    __shared__ typename WR::TempStorage tmp[4];
    int t = threadIdx.x, lane = t & 31, w = t >> 5;
    int x = in[t];
    int h = heads[t] | (lane == 0);
    int nh = lane == 31 ? 1 : heads[t + 1];
    int s = WR(tmp[w]).HeadSegmentedSum(x, h);
    if (h) out[t] = s; else out[t] = -1;
    __syncwarp();
    int m = WR(tmp[w]).TailSegmentedReduce(x, nh, cuda::maximum<>{});
    if (lane == 0 || h) out[128 + t] = m;
    __syncwarp();
    int y = in[512 + t];
    int hh = (y & 7) == 0 || lane == 0;
    int r = WR(tmp[w]).HeadSegmentedReduce(y, hh, XorMin());
    out[256 + t] = hh ? r : 0;
}
