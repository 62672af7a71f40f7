// block: 128
// input: in = zipf64_2048.npy
// WarpReduce<int, 8>: TailSegmentedReduce with max (tails where the value changes), Sum over a
// partial 8-lane warp (valid 5); WarpReduce<float, 4>::Sum; results gathered into a [16][9] table
#include <cub/cub.cuh>
struct MaxOp {
    __device__ int operator()(int a, int b) const { return a > b ? a : b; }
};
__global__ void warp_reduce_tail8(const int *in, int *out, float *fout) {
    using R8 = cub::WarpReduce<int, 8>;
    using R4 = cub::WarpReduce<float, 4>;
    __shared__ typename R8::TempStorage t8[16];
    __shared__ typename R4::TempStorage t4[32];
    __shared__ int table[16][9];
    int t = threadIdx.x, g = t / 8, l = t % 8;
    int x = in[t] / 8;
    int nxt = in[t + 1] / 8;
    int tail = (l == 7) || (x != nxt);
    int m = R8(t8[g]).TailSegmentedReduce(x, tail, MaxOp());
    int s = R8(t8[g]).Sum(in[512 + t], 5);
    float f = R4(t4[t / 4]).Sum((float)in[t + 256] * 0.5f);
    if (l == 0) { table[g][0] = m; table[g][1] = s; }
    if (l < 7) table[g][2 + l] = x;
    __syncthreads();
    if (t < 16) out[t] = table[t][0] + table[t][1] + table[t][2] * 1000;
    if (t >= 32 && t < 48) out[t] = table[t - 32][1];
    if (t % 4 == 0) fout[t / 4] = f;
}
