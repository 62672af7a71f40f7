// block: 160
// input: in = ints_1024.npy
// BlockScan<int, 160, BLOCK_SCAN_RAKING> (five warps, not a power of two): InclusiveScan with a
// custom min operator over 3 blocked items, InclusiveScan with a sum-of-squares-mod operator and the
// aggregate, then ExclusiveSum of one item a thread with the aggregate
#include <cub/cub.cuh>
struct MinOp {
    __device__ int operator()(int a, int b) const { return b < a ? b : a; }
};
struct SqMod {
    __device__ int operator()(int a, int b) const { return (a + b * 3) % 4093; }
};
__global__ void scan_raking_160(const int *in, int *out) {
    using Scan = cub::BlockScan<int, 160, cub::BLOCK_SCAN_RAKING>;
    __shared__ typename Scan::TempStorage temp;
    int x[3], y[3], agg;
    cub::LoadDirectBlocked(threadIdx.x, in, x);
    Scan(temp).InclusiveScan(x, y, MinOp());
    cub::StoreDirectBlocked(threadIdx.x, out, y);
    __syncthreads();
    Scan(temp).InclusiveScan(x, y, SqMod(), agg);
    cub::StoreDirectBlocked(threadIdx.x, out + 480, y);
    __syncthreads();
    int z, agg2;
    Scan(temp).ExclusiveSum(x[1] - 500, z, agg2);
    out[960 + threadIdx.x] = z;
    if (threadIdx.x == 0) { out[1120] = agg; out[1121] = agg2; }
}
