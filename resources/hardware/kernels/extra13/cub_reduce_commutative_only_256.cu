// block: 256
// input: in = ints_1024.npy
// BlockReduce<int, 256, BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY> (commutative operators only: the
// threads beyond the first warp store their partials and warp 0 rakes them): Sum of 5 striped
// items a thread, then Reduce with a max operator over one item, with a guarded partial count
#include <cub/cub.cuh>
struct Max {
    __device__ int operator()(int a, int b) const { return a > b ? a : b; }
};
__global__ void reduce_commutative_only(const int *in, int *out) {
    using Red = cub::BlockReduce<int, 256, cub::BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY>;
    __shared__ typename Red::TempStorage temp;
    int x[5];
    cub::LoadDirectStriped<256>(threadIdx.x, in, x);  // 1280 ints: the last 256 are zeros
    int s = Red(temp).Sum(x);
    __syncthreads();
    int m = Red(temp).Reduce(x[2] ^ x[3], Max());
    __syncthreads();
    int p = Red(temp).Sum(x[0] - x[1], 200);  // only the first 200 threads' items
    if (threadIdx.x == 0) {
        out[0] = s;
        out[1] = m;
        out[2] = p;
    }
}
