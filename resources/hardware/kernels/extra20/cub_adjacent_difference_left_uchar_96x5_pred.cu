// block: 96
// input: in = bytes_4096.npy
// BlockAdjacentDifference<unsigned char, 96>: SubtractLeft with a functor (absolute difference) and
// a tile predecessor, SubtractLeftPartialTile over 301 valid items, and with a predecessor (211)
#include <cub/cub.cuh>
struct AbsDiff {
    __device__ unsigned char operator()(unsigned char a, unsigned char b) const { return a > b ? a - b : b - a; }
};
__global__ void adjacent_left_uchar(const unsigned char *in, unsigned char *out) {
    using AD = cub::BlockAdjacentDifference<unsigned char, 96>;
    __shared__ typename AD::TempStorage tmp;
    int t = threadIdx.x;
    unsigned char x[5], d[5];
    for (int i = 0; i < 5; ++i) x[i] = in[5 * t + i];
    AD(tmp).SubtractLeft(x, d, AbsDiff(), (unsigned char)in[1000]);
    for (int i = 0; i < 5; ++i) out[5 * t + i] = d[i];
    __syncthreads();
    AD(tmp).SubtractLeftPartialTile(x, d, AbsDiff(), 301);
    for (int i = 0; i < 5; ++i) out[512 + 5 * t + i] = d[i];
    __syncthreads();
    AD(tmp).SubtractLeftPartialTile(x, d, AbsDiff(), 211, (unsigned char)7);
    for (int i = 0; i < 5; ++i) out[1024 + 5 * t + i] = d[i];
}
