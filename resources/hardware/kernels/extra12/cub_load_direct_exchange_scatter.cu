// block: 128
// input: in = ints_1024.npy
// input: perm = perm_512.npy
#include <cub/cub.cuh>
// BLOCK_LOAD_DIRECT (blocked), then BlockExchange::ScatterToStriped with ranks read from a
// permutation (the shared addresses come from the data), then BlockedToWarpStriped
__global__ void load_direct_exchange_scatter(const int *in, const int *perm, int *out, int *warp_out) {
    using Load = cub::BlockLoad<int, 128, 4, cub::BLOCK_LOAD_DIRECT>;
    using Exchange = cub::BlockExchange<int, 128, 4>;
    __shared__ typename Exchange::TempStorage temp;
    int items[4], ranks[4];
    Load().Load(in, items);
    cub::LoadDirectBlocked(threadIdx.x, perm, ranks);
    Exchange(temp).ScatterToStriped(items, ranks);
    cub::StoreDirectStriped<128>(threadIdx.x, out, items);
    __syncthreads();
    Exchange(temp).BlockedToWarpStriped(items, items);
    cub::StoreDirectWarpStriped(threadIdx.x, warp_out, items);
}
