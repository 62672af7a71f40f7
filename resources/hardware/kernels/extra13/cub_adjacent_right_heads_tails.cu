// block: 128
// input: in = floats_1024.npy
// BlockAdjacentDifference<float, 128>::SubtractRightPartialTile (each thread's first item goes
// through shared memory to the previous thread; 300 valid items) and
// BlockDiscontinuity<int, 128>::FlagHeadsAndTails on the signs of the values (first and last
// items exchanged both ways)
#include <cub/cub.cuh>
struct Diff {
    __device__ float operator()(float a, float b) const { return b - a; }
};
struct Ne {
    __device__ bool operator()(int a, int b) const { return a != b; }
};
__global__ void adjacent_right_heads_tails(const float *in, float *out, int *flags) {
    using Adj = cub::BlockAdjacentDifference<float, 128>;
    using Disc = cub::BlockDiscontinuity<int, 128>;
    __shared__ typename Adj::TempStorage ta;
    __shared__ typename Disc::TempStorage td;
    float x[4], d[4];
    cub::LoadDirectBlocked(threadIdx.x, in, x);
    Adj(ta).SubtractRightPartialTile(x, d, Diff(), 300);
    cub::StoreDirectBlocked(threadIdx.x, out, d);
    int s[4], h[4], tl[4];
    for (int i = 0; i < 4; ++i) s[i] = x[i] > 0.5f ? 1 : (x[i] < -0.5f ? -1 : 0);
    Disc(td).FlagHeadsAndTails(h, tl, s, Ne());
    for (int i = 0; i < 4; ++i) flags[threadIdx.x * 4 + i] = h[i] | (tl[i] << 1);
}
