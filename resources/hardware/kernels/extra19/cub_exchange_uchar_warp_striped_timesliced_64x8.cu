// block: 64
// input: in = bytes_4096.npy
// BlockExchange<unsigned char, 64, 8, true> (warp time slicing): WarpStripedToBlocked,
// BlockedToWarpStriped, StripedToBlocked of byte items
#include <cub/cub.cuh>
__global__ void exchange_uchar_timesliced(const unsigned char *in, unsigned char *out) {
    using BE = cub::BlockExchange<unsigned char, 64, 8, true>;
    __shared__ typename BE::TempStorage tmp;
    int t = threadIdx.x, lane = t & 31, w = t >> 5;
    unsigned char v[8];
    for (int i = 0; i < 8; ++i) v[i] = in[w * 256 + i * 32 + lane];
    BE(tmp).WarpStripedToBlocked(v);
    for (int i = 0; i < 8; ++i) out[t * 8 + i] = v[i];
    __syncthreads();
    for (int i = 0; i < 8; ++i) v[i] = (unsigned char)(v[i] + i);
    BE(tmp).BlockedToWarpStriped(v);
    for (int i = 0; i < 8; ++i) out[512 + w * 256 + i * 32 + lane] = v[i];
    __syncthreads();
    for (int i = 0; i < 8; ++i) v[i] = in[1024 + i * 64 + t];
    BE(tmp).StripedToBlocked(v);
    for (int i = 0; i < 8; ++i) out[1024 + t * 8 + i] = v[i];
}
