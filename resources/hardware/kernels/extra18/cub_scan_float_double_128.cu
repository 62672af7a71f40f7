// block: 128
// input: in = floats_1024.npy
// BlockScan on floating point: BlockScan<float, 128> InclusiveSum of 4 items with the aggregate,
// BlockScan<double, 128, BLOCK_SCAN_RAKING> ExclusiveSum of 2 items, and an ExclusiveScan with
// max over doubles
#include <cub/cub.cuh>
__global__ void scan_float_double(const float *in, float *fout, double *dout) {
    using SF = cub::BlockScan<float, 128>;
    using SD = cub::BlockScan<double, 128, cub::BLOCK_SCAN_RAKING>;
    __shared__ typename SF::TempStorage tf;
    __shared__ typename SD::TempStorage td;
    int t = threadIdx.x;
    float f[4];
    for (int i = 0; i < 4; ++i) f[i] = in[t * 4 + i];
    float agg;
    SF(tf).InclusiveSum(f, f, agg);
    for (int i = 0; i < 4; ++i) fout[t * 4 + i] = f[i];
    if (t == 0) fout[600] = agg;
    double d[2];
    for (int i = 0; i < 2; ++i) d[i] = (double)in[512 + t * 2 + i] * 1.5;
    SD(td).ExclusiveSum(d, d);
    dout[t * 2] = d[0]; dout[t * 2 + 1] = d[1];
    __syncthreads();
    double m = (double)in[t * 3 & 1023];
    SD(td).ExclusiveScan(m, m, -1.0e300, cuda::maximum<>{});
    dout[256 + t] = m;
}
