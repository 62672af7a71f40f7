// block: 64
// input: in = keys_1024.npy
// WarpExchange<int, 8, 8, WARP_EXCHANGE_SHUFFLE> (8 items on 8-lane logical warps, by shuffles):
// BlockedToStriped and StripedToBlocked; WarpExchange<short, 4, 16> (shared memory):
// BlockedToStriped and ScatterToStriped at reversed ranks
#include <cub/cub.cuh>
__global__ void warp_exchange_shfl_8x8(const int *in, int *out, short *out16) {
    using WE = cub::WarpExchange<int, 8, 8, cub::WARP_EXCHANGE_SHUFFLE>;
    using WS = cub::WarpExchange<short, 4, 16>;
    __shared__ typename WE::TempStorage te[8];
    __shared__ typename WS::TempStorage ts[4];
    int t = threadIdx.x, g = t >> 3;
    int x[8];
    for (int i = 0; i < 8; ++i) x[i] = in[8 * t + i];
    WE(te[g]).BlockedToStriped(x, x);
    for (int i = 0; i < 8; ++i) out[8 * t + i] = x[i];
    for (int i = 0; i < 8; ++i) x[i] = in[512 + 8 * t + i] >> 8;
    WE(te[g]).StripedToBlocked(x, x);
    for (int i = 0; i < 8; ++i) out[512 + 8 * t + i] = x[i];
    short y[4];
    int h = t >> 4, l = t & 15, rk[4];
    for (int i = 0; i < 4; ++i) y[i] = (short)(in[4 * t + i] >> 16);
    WS(ts[h]).BlockedToStriped(y, y);
    for (int i = 0; i < 4; ++i) out16[4 * t + i] = y[i];
    __syncwarp();
    for (int i = 0; i < 4; ++i) rk[i] = 63 - (4 * l + i);
    WS(ts[h]).ScatterToStriped(y, rk);
    for (int i = 0; i < 4; ++i) out16[256 + 4 * t + i] = y[i];
}
