// block: 128
// input: in = ints_1024.npy
// WarpScan on logical warps of 4, 8 and 16 lanes: InclusiveScan with max (4), ExclusiveSum with the
// warp aggregate (8), Scan giving inclusive and exclusive xor at once (16), Broadcast from lane 2
#include <cub/cub.cuh>
struct MaxOp {
    __device__ int operator()(int a, int b) const { return a > b ? a : b; }
};
struct XorOp {
    __device__ int operator()(int a, int b) const { return a ^ b; }
};
__global__ void warp_scan_logical(const int *in, int *out) {
    using S4 = cub::WarpScan<int, 4>;
    using S8 = cub::WarpScan<int, 8>;
    using S16 = cub::WarpScan<int, 16>;
    __shared__ typename S4::TempStorage t4[32];
    __shared__ typename S8::TempStorage t8[16];
    __shared__ typename S16::TempStorage t16[8];
    int t = threadIdx.x;
    int x = in[t], y = in[t + 128], z = in[t + 256];
    int a;
    S4(t4[t / 4]).InclusiveScan(x, a, MaxOp());
    int b, agg8;
    S8(t8[t / 8]).ExclusiveSum(y, b, agg8);
    int ci, ce;
    S16(t16[t / 16]).Scan(z, ci, ce, XorOp());
    int br = S8(t8[t / 8]).Broadcast(b, 2);
    out[t] = a;
    out[128 + t] = b;
    out[256 + t] = agg8;
    out[384 + t] = ci;
    out[512 + t] = (t % 16) ? ce : -1;
    out[640 + t] = br;
}
