// block: 96
// input: in = ints_1024.npy
// WarpScan<int> over 3 warps: InclusiveScan with an initial value and max, InclusiveScan with an
// initial value, plus and the warp aggregate, Broadcast from a lane picked by the data;
// WarpScan<short, 16>::InclusiveSum on 16-lane logical warps, Broadcast from lane 15
#include <cub/cub.cuh>
__global__ void warp_scan_bcast_init(const int *in, int *out, short *sout) {
    using WS = cub::WarpScan<int>;
    using WS16 = cub::WarpScan<short, 16>;
    __shared__ typename WS::TempStorage tmp[3];
    __shared__ typename WS16::TempStorage t16[6];
    int t = threadIdx.x, lane = t & 31, w = t >> 5;
    int x = in[t];
    int a;
    WS(tmp[w]).InclusiveScan(x, a, 500, cuda::maximum<>{});
    out[t] = a;
    __syncwarp();
    int b, agg;
    WS(tmp[w]).InclusiveScan(x, b, -100, cuda::std::plus<>{}, agg);
    out[96 + t] = b;
    __syncwarp();
    int src = in[w] & 31;
    int c = WS(tmp[w]).Broadcast(b + lane, src);
    out[192 + t] = c + agg;
    short s = (short)(in[200 + t] - 500), si;
    WS16(t16[t >> 4]).InclusiveSum(s, si);
    __syncwarp();
    short bb = WS16(t16[t >> 4]).Broadcast(si, 15);
    sout[t] = si;
    sout[96 + t] = bb;
}
