// block: 128
// input: perm = perm_1024.npy
// input: in = keys_1024.npy
// BlockExchange<int, 128, 4>::ScatterToBlocked with ranks from the data (a permutation of 512
// derived from perm_1024), then BlockExchange<double, 128, 2>::ScatterToStriped with ranks
// reversed within each group of 16, BlockedToStriped
#include <cub/cub.cuh>
__global__ void exchange_scatter_ranks(const int *perm, const int *in, int *out, double *dout) {
    using E = cub::BlockExchange<int, 128, 4>;
    using ED = cub::BlockExchange<double, 128, 2>;
    __shared__ union { typename E::TempStorage e; typename ED::TempStorage d; } tmp;
    __shared__ int rk[512];
    int t = threadIdx.x;
    // ranks: the order of perm values below 512 (a permutation of 0..511 by position)
    for (int i = t; i < 512; i += 128) rk[i] = 0;
    __syncthreads();
    for (int i = t; i < 1024; i += 128) { int p = perm[i]; if (p < 512) rk[p] = i; }
    __syncthreads();
    int x[4], r[4];
    for (int i = 0; i < 4; ++i) { int j = t * 4 + i; x[i] = in[j]; r[i] = perm[rk[j]] ^ 0x155; }
    E(tmp.e).ScatterToBlocked(x, x, r);
    for (int i = 0; i < 4; ++i) out[t * 4 + i] = x[i];
    __syncthreads();
    double d[2];
    int r2[2];
    for (int i = 0; i < 2; ++i) { int j = t * 2 + i; d[i] = x[i] * 0.5; r2[i] = (j & ~15) | (15 - (j & 15)); }
    ED(tmp.d).ScatterToStriped(d, d, r2);
    for (int i = 0; i < 2; ++i) dout[i * 128 + t] = d[i];
    __syncthreads();
    ED(tmp.d).BlockedToStriped(d, d);
    for (int i = 0; i < 2; ++i) dout[256 + i * 128 + t] = d[i];
}
