// block: 64
// input: in = floats_1024.npy
#include <cub/cub.cuh>
// 8 consecutive floats a thread, exchanged to striped for a coalesced store (CUB pads the
// exchange buffer when the items per thread are a power of two above 4)
__global__ void exchange_blocked_to_striped(const float *in, float *out) {
    using Exchange = cub::BlockExchange<float, 64, 8>;
    __shared__ typename Exchange::TempStorage temp;
    float items[8];
    cub::LoadDirectBlocked(threadIdx.x, in, items);
    for (int i = 0; i < 8; ++i) items[i] = items[i] * items[i];
    Exchange(temp).BlockedToStriped(items, items);
    cub::StoreDirectStriped<64>(threadIdx.x, out, items);
}
