// block: 512
// input: in = ukeys_1024.npy
// BlockScan<unsigned, 512, BLOCK_SCAN_WARP_SCANS> (16 warps): an ExclusiveScan with a bitwise-xor
// operator, then an InclusiveScan of an 8-byte (value, index) struct with an arg-min operator
#include <cub/cub.cuh>
struct Xor {
    __device__ unsigned operator()(unsigned a, unsigned b) const { return a ^ b; }
};
struct VI {
    unsigned v;
    int i;
};
struct ArgMin {
    __device__ VI operator()(const VI &a, const VI &b) const { return (b.v < a.v) ? b : a; }
};
__global__ void scan_warp_scans_512(const unsigned *in, unsigned *out, int *argmin) {
    using ScanU = cub::BlockScan<unsigned, 512, cub::BLOCK_SCAN_WARP_SCANS>;
    using ScanVI = cub::BlockScan<VI, 512, cub::BLOCK_SCAN_WARP_SCANS>;
    __shared__ union {
        typename ScanU::TempStorage u;
        typename ScanVI::TempStorage vi;
    } temp;
    int t = threadIdx.x;
    unsigned x = in[t], y;
    ScanU(temp.u).ExclusiveScan(x, y, 0u, Xor());
    out[t] = y;
    __syncthreads();
    VI a{in[512 + t] >> 8, t}, b;
    ScanVI(temp.vi).InclusiveScan(a, b, ArgMin());
    argmin[t] = b.i;
}
