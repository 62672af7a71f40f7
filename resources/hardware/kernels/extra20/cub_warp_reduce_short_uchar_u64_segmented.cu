// block: 64
// input: in = ints_1024.npy
// WarpReduce<short> Sum and a partial Reduce max (valid 19); WarpReduce<unsigned char, 4> Reduce
// min; WarpReduce<unsigned long long, 8> TailSegmentedSum with tails from the data
#include <cub/cub.cuh>
__global__ void warp_reduce_small_types(const int *in, int *out) {
    using WR16 = cub::WarpReduce<short>;
    using WR8 = cub::WarpReduce<unsigned char, 4>;
    using WR64 = cub::WarpReduce<unsigned long long, 8>;
    __shared__ typename WR16::TempStorage t16[2];
    __shared__ typename WR8::TempStorage t8[16];
    __shared__ typename WR64::TempStorage t64[8];
    int t = threadIdx.x, w = t >> 5;
    short s = (short)(in[t] - 500);
    short a = WR16(t16[w]).Sum(s);
    short m = WR16(t16[w]).Reduce(s, cuda::maximum<>{}, 19);
    if ((t & 31) == 0) { out[2 * w] = a; out[2 * w + 1] = m; }
    unsigned char c = (unsigned char)(in[64 + t] & 255);
    unsigned char mn = WR8(t8[t >> 2]).Reduce(c, cuda::minimum<>{});
    if ((t & 3) == 0) out[4 + (t >> 2)] = mn;
    unsigned long long x = (unsigned long long)in[128 + t] << 33 | (unsigned)in[192 + t];
    bool tail = in[256 + t] % 3 == 0;
    unsigned long long seg = WR64(t64[t >> 3]).TailSegmentedSum(x, tail);
    out[32 + 2 * t] = (int)(seg >> 32);
    out[33 + 2 * t] = (int)seg;
}
