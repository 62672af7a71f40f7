// block: 64
// input: perm = perm_1024.npy
// BlockExchange<short, 64, 6> (2-byte items, 6 a thread): ScatterToBlocked with ranks from a
// bijection (97 j + c) mod 384 with c from the data, ScatterToStripedFlagged keeping flagged items, StripedToBlocked
#include <cub/cub.cuh>
__global__ void exchange_short_64(const int *perm, short *out) {
    using Ex = cub::BlockExchange<short, 64, 6>;
    __shared__ typename Ex::TempStorage temp;
    short x[6];
    int rank[6];
    bool flag[6];
    for (int i = 0; i < 6; ++i) {
        int j = threadIdx.x * 6 + i;
        x[i] = (short)(j * 3 - 700);
        rank[i] = (j * 97 + (perm[0] & 63)) % 384;
        flag[i] = (perm[j] & 3) != 0;
    }
    Ex(temp).ScatterToBlocked(x, x, rank);
    cub::StoreDirectBlocked(threadIdx.x, out, x);
    __syncthreads();
    short y[6];
    for (int i = 0; i < 6; ++i) y[i] = -1;
    Ex(temp).ScatterToStripedFlagged(x, y, rank, flag);
    cub::StoreDirectStriped<64>(threadIdx.x, out + 384, y);
    __syncthreads();
    Ex(temp).StripedToBlocked(x, x);
    cub::StoreDirectBlocked(threadIdx.x, out + 768, x);
}
