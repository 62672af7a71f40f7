// block: 96
// input: in = zipf64_2048.npy
// BlockDiscontinuity<int, 96> (three warps): FlagHeads with a tile predecessor, FlagTails with a
// tile successor, 5 items; BlockAdjacentDifference<int, 96>::SubtractLeftPartialTile with a custom
// absolute-difference operator and 400 valid items
#include <cub/cub.cuh>
struct NotEq {
    __device__ bool operator()(int a, int b) const { return a != b; }
};
struct AbsDiff {
    __device__ int operator()(int a, int b) const { return a > b ? a - b : b - a; }
};
__global__ void discontinuity_96(const int *in, int *out) {
    using Disc = cub::BlockDiscontinuity<int, 96>;
    using Adj = cub::BlockAdjacentDifference<int, 96>;
    __shared__ union { typename Disc::TempStorage d; typename Adj::TempStorage a; } temp;
    int x[5], heads[5], tails[5];
    for (int i = 0; i < 5; ++i) x[i] = in[threadIdx.x * 5 + i] / 4;
    Disc(temp.d).FlagHeads(heads, x, NotEq(), in[1000] / 4);
    __syncthreads();
    Disc(temp.d).FlagTails(tails, x, NotEq(), in[1001] / 4);
    __syncthreads();
    int o[5];
    Adj(temp.a).SubtractLeftPartialTile(x, o, AbsDiff(), 400);
    for (int i = 0; i < 5; ++i) {
        int j = threadIdx.x * 5 + i;
        out[j] = heads[i] + 2 * tails[i];
        out[480 + j] = o[i];
    }
}
