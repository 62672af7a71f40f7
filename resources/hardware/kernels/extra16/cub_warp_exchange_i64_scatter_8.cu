// block: 64
// input: in = keys_1024.npy
// WarpExchange<long long, 4, 8> on 8-lane logical warps (8-byte items): BlockedToStriped,
// ScatterToStriped with ranks rotated inside each logical warp, StripedToBlocked
#include <cub/cub.cuh>
__global__ void warp_exchange_i64(const int *in, long long *out) {
    using WE = cub::WarpExchange<long long, 4, 8>;
    __shared__ typename WE::TempStorage temp[8];
    int g = threadIdx.x / 8, l = threadIdx.x % 8;
    long long x[4];
    for (int i = 0; i < 4; ++i) x[i] = ((long long)in[threadIdx.x * 4 + i] << 16) + i;
    WE(temp[g]).BlockedToStriped(x, x);
    for (int i = 0; i < 4; ++i) out[threadIdx.x * 4 + i] = x[i];
    __syncwarp();
    int rank[4];
    for (int i = 0; i < 4; ++i) rank[i] = (l * 4 + i + 5 + g) % 32;
    WE(temp[g]).ScatterToStriped(x, rank);
    for (int i = 0; i < 4; ++i) out[256 + threadIdx.x * 4 + i] = x[i];
    __syncwarp();
    WE(temp[g]).StripedToBlocked(x, x);
    for (int i = 0; i < 4; ++i) out[512 + threadIdx.x * 4 + i] = x[i];
}
