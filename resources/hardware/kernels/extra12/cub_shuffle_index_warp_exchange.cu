// block: 128
// input: in = ints_1024.npy
#include <cub/cub.cuh>
// cub::ShuffleIndex (each lane reads the value of lane (lane * 5) % 32) and cub::WarpExchange of
// 4 items a lane: BlockedToStriped, then ScatterToStriped with ranks whose rows and lanes are
// permuted by words of the data (the same for the whole warp)
__global__ void shuffle_index_warp_exchange(const int *in, int *out, int *scattered) {
    using WE = cub::WarpExchange<int, 4>;
    __shared__ typename WE::TempStorage temp[4];
    int t = threadIdx.x, w = t / 32, lane = t % 32;
    int rot = in[w * 128] & 3, x_or = in[w * 128 + 1] & 31;
    int items[4], ranks[4];
    for (int i = 0; i < 4; ++i) {
        int x = in[t * 4 + i];
        items[i] = cub::ShuffleIndex<32>(x, (lane * 5) % 32, 0xffffffffu);
        ranks[i] = ((i + rot) & 3) * 32 + (lane ^ x_or);
    }
    WE(temp[w]).BlockedToStriped(items, items);
    for (int i = 0; i < 4; ++i) out[w * 128 + i * 32 + lane] = items[i];
    __syncwarp();
    WE(temp[w]).ScatterToStriped(items, ranks);
    for (int i = 0; i < 4; ++i) scattered[w * 128 + i * 32 + lane] = items[i];
}
