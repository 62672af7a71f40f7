// block: 128
// input: in = floats_1024.npy
// BlockExchange<double, 128, 4> (8-byte items): WarpStripedToBlocked, BlockedToWarpStriped, then
// ScatterToStripedGuarded with ranks reversed within each warp (negative ranks dropped)
#include <cub/cub.cuh>
__global__ void exchange_warp_striped_double(const float *in, double *out) {
    using Ex = cub::BlockExchange<double, 128, 4>;
    __shared__ typename Ex::TempStorage temp;
    double x[4];
    int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    for (int i = 0; i < 4; ++i) x[i] = (double)in[warp * 128 + i * 32 + lane] * 3.0;
    Ex(temp).WarpStripedToBlocked(x);
    cub::StoreDirectBlocked(threadIdx.x, out, x);
    __syncthreads();
    for (int i = 0; i < 4; ++i) x[i] += 1.0;
    Ex(temp).BlockedToWarpStriped(x);
    cub::StoreDirectBlocked(threadIdx.x, out + 512, x);
    __syncthreads();
    int rank[4];
    for (int i = 0; i < 4; ++i) {
        int r = 511 - (threadIdx.x * 4 + i);
        rank[i] = (r % 7 == 3) ? -1 : r;
    }
    for (int i = 0; i < 4; ++i) x[i] = (double)(threadIdx.x * 4 + i);
    Ex(temp).ScatterToStripedGuarded(x, x, rank);
    cub::StoreDirectStriped<128>(threadIdx.x, out + 1024, x);
}
