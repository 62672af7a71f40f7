// block: 256
// input: in = ints_1024.npy
#include <cub/cub.cuh>
// running maximum before each lane (WarpScan::ExclusiveScan with a max functor and an initial
// value), the warp maxima through shared memory, then a second WarpScan over them by warp 0
struct MaxOp {
    __device__ int operator()(int a, int b) const { return a > b ? a : b; }
};
__global__ void warp_scan_exclusive_max(const int *in, int *out) {
    using WS = cub::WarpScan<int>;
    __shared__ typename WS::TempStorage temp[8];
    __shared__ int warp_max[8];
    int t = threadIdx.x, w = t / 32, lane = t % 32;
    int x = in[t * 4], before, total;
    WS(temp[w]).ExclusiveScan(x, before, -1, MaxOp(), total);
    if (lane == 0) warp_max[w] = total;
    __syncthreads();
    if (w == 0) {
        int m = lane < 8 ? warp_max[lane] : -1, m_before;
        WS(temp[0]).ExclusiveScan(m, m_before, -1, MaxOp());
        if (lane < 8) warp_max[lane] = m_before;
    }
    __syncthreads();
    int b = warp_max[w];
    out[t] = before > b ? before : b;
}
