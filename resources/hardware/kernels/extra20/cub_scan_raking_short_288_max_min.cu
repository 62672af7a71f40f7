// block: 288
// input: in = keys_1024.npy
// BlockScan<short, 288, BLOCK_SCAN_RAKING> (9 warps): InclusiveScan max, ExclusiveSum of 2 items,
// ExclusiveScan min with an initial value and the block aggregate
#include <cub/cub.cuh>
__global__ void scan_raking_short_288(const int *in, short *out) {
    using BS = cub::BlockScan<short, 288, cub::BLOCK_SCAN_RAKING>;
    __shared__ typename BS::TempStorage tmp;
    int t = threadIdx.x;
    short x = (short)(in[t] >> 17), y;
    BS(tmp).InclusiveScan(x, y, cuda::maximum<>{});
    out[t] = y;
    __syncthreads();
    short p[2] = {(short)(in[t] & 63), (short)(in[288 + t] & 63)}, q[2];
    BS(tmp).ExclusiveSum(p, q);
    out[288 + 2 * t] = q[0]; out[289 + 2 * t] = q[1];
    __syncthreads();
    short agg;
    BS(tmp).ExclusiveScan(x, y, (short)-5, cuda::minimum<>{}, agg);
    out[864 + t] = y;
    if (t == 0) out[1200] = agg;
}
