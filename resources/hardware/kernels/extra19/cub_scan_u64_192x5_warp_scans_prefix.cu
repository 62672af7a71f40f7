// block: 192
// input: in = ukeys_1024.npy
// BlockScan<unsigned long long, 192, BLOCK_SCAN_WARP_SCANS> over 5 items a thread: InclusiveSum
// with a block-prefix callback over two tiles (running total), ExclusiveScan with max and an
// initial value
#include <cub/cub.cuh>
struct RunningPrefix {
    unsigned long long total;
    __device__ unsigned long long operator()(unsigned long long agg) {
        unsigned long long old = total; total += agg; return old;
    }
};
__global__ void scan_u64_192x5(const unsigned *in, unsigned long long *out) {
    using BS = cub::BlockScan<unsigned long long, 192, cub::BLOCK_SCAN_WARP_SCANS>;
    __shared__ typename BS::TempStorage tmp;
    int t = threadIdx.x;
    RunningPrefix pre{1000};
    for (int tile = 0; tile < 2; ++tile) {
        unsigned long long v[5];
        for (int i = 0; i < 5; ++i) v[i] = in[(tile * 960 + t * 5 + i) & 1023] >> 8;
        BS(tmp).InclusiveSum(v, v, pre);
        __syncthreads();
        for (int i = 0; i < 5; ++i) out[tile * 960 + t * 5 + i] = v[i];
    }
    unsigned long long w[5];
    for (int i = 0; i < 5; ++i) w[i] = ((unsigned long long)in[(t * 5 + i) & 1023] * 977u) ^ (t * 131u);
    BS(tmp).ExclusiveScan(w, w, 12345ull, cuda::maximum<>{});
    for (int i = 0; i < 5; ++i) out[1920 + t * 5 + i] = w[i];
}
