// block: 8, 4, 4
// input: in = ints_1024.npy
// BlockScan<int, 8, BLOCK_SCAN_RAKING_MEMOIZE, 4, 4> on a 3-D block of 128 threads (linear id
// x + 8 y + 32 z): InclusiveSum of 4 blocked items with the aggregate, ExclusiveScan with a custom
// xor operator; threads store by their linear id
#include <cub/cub.cuh>
struct XorOp {
    __device__ int operator()(int a, int b) const { return a ^ b; }
};
__global__ void scan_memoize_3d(const int *in, int *out) {
    using Scan = cub::BlockScan<int, 8, cub::BLOCK_SCAN_RAKING_MEMOIZE, 4, 4>;
    __shared__ typename Scan::TempStorage temp;
    int t = threadIdx.x + 8 * (threadIdx.y + 4 * threadIdx.z);
    int x[4], y[4], agg;
    cub::LoadDirectBlocked(t, in, x);
    Scan(temp).InclusiveSum(x, y, agg);
    cub::StoreDirectBlocked(t, out, y);
    __syncthreads();
    Scan(temp).ExclusiveScan(x, y, 0, XorOp());
    cub::StoreDirectStriped<128>(t, out + 512, y);
    if (t == 0) out[1024] = agg;
}
