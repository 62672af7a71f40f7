// block: 128
// input: in = ints_1024.npy
#include <cub/cub.cuh>
// read striped (coalesced), exchange to blocked in shared memory, sum each thread's 4 neighbours
__global__ void exchange_striped_to_blocked(const int *in, int *out) {
    using Exchange = cub::BlockExchange<int, 128, 4>;
    __shared__ typename Exchange::TempStorage temp;
    int items[4];
    cub::LoadDirectStriped<128>(threadIdx.x, in, items);
    Exchange(temp).StripedToBlocked(items, items);
    out[threadIdx.x] = items[0] + items[1] + items[2] + items[3];
}
