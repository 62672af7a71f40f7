// block: 128
// input: in = zipf_bytes_4096.npy
// BlockDiscontinuity<unsigned char, 128>: FlagHeadsAndTails with a tile predecessor and a tile
// successor item (4 items), FlagHeadsAndTails without them and a custom "differs by > 8" functor
#include <cub/cub.cuh>
struct NotEqual { __device__ bool operator()(unsigned char a, unsigned char b) const { return a != b; } };
struct FarApart {
    __device__ bool operator()(unsigned char a, unsigned char b) const { return (a > b ? a - b : b - a) > 8; }
};
__global__ void disc_heads_tails_uchar(const unsigned char *in, int *out) {
    using BD = cub::BlockDiscontinuity<unsigned char, 128>;
    __shared__ typename BD::TempStorage tmp;
    int t = threadIdx.x;
    unsigned char v[4];
    for (int i = 0; i < 4; ++i) v[i] = in[t * 4 + i] >> 5;
    int h[4], tl[4];
    BD(tmp).FlagHeadsAndTails(h, (unsigned char)(in[1000] >> 5), tl, (unsigned char)(in[1001] >> 5), v, NotEqual());
    for (int i = 0; i < 4; ++i) out[t * 4 + i] = h[i] | (tl[i] << 1);
    __syncthreads();
    for (int i = 0; i < 4; ++i) v[i] = in[512 + t * 4 + i];
    BD(tmp).FlagHeadsAndTails(h, tl, v, FarApart());
    for (int i = 0; i < 4; ++i) out[512 + t * 4 + i] = h[i] | (tl[i] << 1);
}
