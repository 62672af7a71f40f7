// block: 64
// input: in = ukeys_1024.npy
// WarpScan<unsigned long long, 16> on 16-lane logical warps: ExclusiveScan with max and an
// initial value, InclusiveSum with the warp aggregate, ExclusiveSum, Broadcast from lane 9
#include <cub/cub.cuh>
__global__ void warp_scan_u64_16(const unsigned *in, unsigned long long *out) {
    using WS = cub::WarpScan<unsigned long long, 16>;
    __shared__ typename WS::TempStorage tmp[4];
    int t = threadIdx.x, g = t >> 4;
    unsigned long long x = ((unsigned long long)in[2 * t] << 20) ^ in[2 * t + 1];
    unsigned long long a, b, agg, c;
    WS(tmp[g]).ExclusiveScan(x, a, 7ull, cuda::maximum<>{});
    WS(tmp[g]).InclusiveSum(x >> 12, b, agg);
    WS(tmp[g]).ExclusiveSum(x & 0xffff, c);
    unsigned long long d = WS(tmp[g]).Broadcast(a ^ b, 9);
    out[t] = a; out[64 + t] = b; out[128 + t] = c; out[192 + t] = d;
    if ((t & 15) == 0) out[256 + g] = agg;
}
