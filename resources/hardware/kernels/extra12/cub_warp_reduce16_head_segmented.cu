// block: 128
// input: vals = runs_1024.npy
#include <cub/cub.cuh>
// logical warps of 16 lanes: WarpReduce<int, 16>::HeadSegmentedSum over runs of equal values (the
// heads come from the data) and Sum per half warp; the sums go to a shared table read by columns
__global__ void warp_reduce16_segmented(const int *vals, int *out) {
    using WR = cub::WarpReduce<int, 16>;
    __shared__ typename WR::TempStorage temp[8];
    __shared__ int sums[8][17];
    int t = threadIdx.x, g = t / 16, l = t % 16;
    for (int i = t; i < 8 * 17; i += 128) sums[i / 17][i % 17] = 0;
    int v = vals[t];
    int head = (l == 0) || (v != vals[t - 1]);
    int seg = WR(temp[g]).HeadSegmentedSum(v, head);
    int all = WR(temp[g]).Sum(v);
    __syncthreads();
    if (head) sums[g][l] = seg;
    if (l == 0) sums[g][16] = all;
    __syncthreads();
    for (int i = t; i < 8 * 17; i += 128) out[i] = sums[i % 8][i / 8];
}
