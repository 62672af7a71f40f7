// block: 64
// input: in = floats_1024.npy
// WarpReduce<double, 8> on 8 logical warps of 8 lanes: Sum, Sum over valid lanes from the data,
// Reduce with min; WarpReduce<long long, 4> Sum
#include <cub/cub.cuh>
__global__ void warp_reduce_double_8(const float *in, double *out, long long *lout) {
    using WR = cub::WarpReduce<double, 8>;
    using WR4 = cub::WarpReduce<long long, 4>;
    __shared__ typename WR::TempStorage tmp[8];
    __shared__ typename WR4::TempStorage t4[16];
    int t = threadIdx.x, g = t >> 3;
    double x = (double)in[t] * 1.25;
    double s = WR(tmp[g]).Sum(x);
    double p = WR(tmp[g]).Sum(x + 1.0, (g * 3) % 9);
    double m = WR(tmp[g]).Reduce(x, cuda::minimum<>{});
    if ((t & 7) == 0) { out[g] = s; out[8 + g] = p; out[16 + g] = m; }
    long long l = WR4(t4[t >> 2]).Sum((long long)(in[64 + t] * 4.0f) << 33);
    if ((t & 3) == 0) lout[t >> 2] = l;
}
