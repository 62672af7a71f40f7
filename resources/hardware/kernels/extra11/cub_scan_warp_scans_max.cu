// block: 256
// input: in = floats_1024.npy
#include <cub/cub.cuh>
struct MaxOp {
    __device__ float operator()(float a, float b) const { return fmaxf(a, b); }
};
// running maximum (inclusive scan with max) of 512 floats, 2 items a thread, BLOCK_SCAN_WARP_SCANS
__global__ void scan_warp_scans_max(const float *in, float *out) {
    using BlockScan = cub::BlockScan<float, 256, cub::BLOCK_SCAN_WARP_SCANS>;
    __shared__ typename BlockScan::TempStorage temp;
    float items[2];
    cub::LoadDirectBlocked(threadIdx.x, in, items);
    BlockScan(temp).InclusiveScan(items, items, MaxOp());
    cub::StoreDirectBlocked(threadIdx.x, out, items);
}
