// block: 128
// input: in = ints_1024.npy
// WarpExchange<int, 8, 16> (logical warps of 16 lanes, 8 items: a 128-int tile per half warp in
// shared memory): StripedToBlocked, a blocked sort-of-neighbours step, BlockedToStriped; then the
// WARP_EXCHANGE_SHUFFLE variant (registers only) on 8 items of 8-lane groups
#include <cub/cub.cuh>
__global__ void warp_exchange_16x8(const int *in, int *out) {
    using Ex = cub::WarpExchange<int, 8, 16>;
    using ExS = cub::WarpExchange<int, 8, 8, cub::WARP_EXCHANGE_SHUFFLE>;
    __shared__ typename Ex::TempStorage temp[8];
    int t = threadIdx.x, lw = t >> 4, l = t & 15;
    int x[8];
    for (int i = 0; i < 8; ++i) x[i] = in[lw * 128 + i * 16 + l];  // striped
    Ex(temp[lw]).StripedToBlocked(x, x);
    for (int i = 0; i + 1 < 8; i += 2)
        if (x[i] > x[i + 1]) { int s = x[i]; x[i] = x[i + 1]; x[i + 1] = s; }
    Ex(temp[lw]).BlockedToStriped(x, x);
    for (int i = 0; i < 8; ++i) out[lw * 128 + i * 16 + l] = x[i];
    typename ExS::TempStorage dummy;
    ExS(dummy).BlockedToStriped(x, x);
    for (int i = 0; i < 8; ++i) out[1024 + t * 8 + i] = x[i];
}
