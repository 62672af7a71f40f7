// block: 256
// input: in = ints_1024.npy
#include <cub/cub.cuh>
// a block sum in two levels of WarpReduce: each warp's total to shared memory, then warp 0 adds them
__global__ void warp_reduce_two_level(const int *in, int *out) {
    using WarpReduce = cub::WarpReduce<int>;
    __shared__ typename WarpReduce::TempStorage temp[8];
    __shared__ int warp_sums[8];
    int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    int s = WarpReduce(temp[warp]).Sum(in[threadIdx.x] + in[threadIdx.x + 256]);
    if (lane == 0) warp_sums[warp] = s;
    __syncthreads();
    if (warp == 0) {
        int v = lane < 8 ? warp_sums[lane] : 0;
        v = WarpReduce(temp[0]).Sum(v);
        if (lane == 0) out[0] = v;
    }
}
