// block: 32, 4
// input: in = normal_4096.npy
// input: perm = perm_1024.npy
// BlockExchange<float, 32, 5, false, 4> on a 2-D block (32 x 4, 5 items a thread): BlockedToStriped,
// BlockedToWarpStriped, and ScatterToStripedGuarded at ranks from a permutation (negative: skipped)
#include <cub/cub.cuh>
__global__ void exchange_2d_float(const float *in, const int *perm, float *out) {
    using BE = cub::BlockExchange<float, 32, 5, false, 4>;
    __shared__ typename BE::TempStorage tmp;
    int t = threadIdx.y * 32 + threadIdx.x;
    float v[5];
    for (int i = 0; i < 5; ++i) v[i] = in[5 * t + i];
    BE(tmp).BlockedToStriped(v, v);
    for (int i = 0; i < 5; ++i) out[i * 128 + t] = v[i];
    __syncthreads();
    for (int i = 0; i < 5; ++i) v[i] = in[640 + 5 * t + i];
    BE(tmp).BlockedToWarpStriped(v, v);
    for (int i = 0; i < 5; ++i) out[640 + 5 * t + i] = v[i];
    __syncthreads();
    int rk[5];
    for (int i = 0; i < 5; ++i) { int p = perm[5 * t + i]; rk[i] = p < 640 ? p : -1; v[i] = (float)(5 * t + i); }
    BE(tmp).ScatterToStripedGuarded(v, v, rk);
    for (int i = 0; i < 5; ++i) out[1280 + i * 128 + t] = v[i];
}
