// block: 64
// input: in = ints_1024.npy
// WarpLoad<int, 8, WARP_LOAD_VECTORIZE, 16> (int4 loads) and WarpStore<int, 8, WARP_STORE_TRANSPOSE,
// 16> (through shared memory, 16-lane logical warps); WarpLoad<short, 4, WARP_LOAD_TRANSPOSE, 8>
#include <cub/cub.cuh>
__global__ void warp_load_store_16x8(const int *in, int *out, short *out16) {
    using WL = cub::WarpLoad<int, 8, cub::WARP_LOAD_VECTORIZE, 16>;
    using WS = cub::WarpStore<int, 8, cub::WARP_STORE_TRANSPOSE, 16>;
    using WL16 = cub::WarpLoad<short, 4, cub::WARP_LOAD_TRANSPOSE, 8>;
    __shared__ typename WS::TempStorage ts[4];
    __shared__ typename WL16::TempStorage tl[8];
    int t = threadIdx.x, g = t >> 4, h = t >> 3;
    int x[8];
    WL().Load(in + g * 128, x);
    for (int i = 0; i < 8; ++i) x[i] = x[i] * 3 + i;
    WS(ts[g]).Store(out + g * 128, x);
    short y[4];
    WL16(tl[h]).Load(reinterpret_cast<const short *>(in) + 1024 + h * 32, y, 27, (short)-1);
    for (int i = 0; i < 4; ++i) out16[4 * t + i] = y[i];
}
