// block: 256
// input: in = floats_1024.npy
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
// tree reductions inside 16-thread tiles (cg::tiled_partition<16>) in shared memory with tile.sync()
// between steps; the 16 tile sums are then added by the first tile with tile.shfl_down
__global__ void cg_tiled_reduce(const float *in, float *out) {
    __shared__ float s[256];
    __shared__ float partial[16];
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<16> tile = cg::tiled_partition<16>(block);
    int t = block.thread_rank(), r = tile.thread_rank(), g = tile.meta_group_rank();
    s[t] = in[t] + in[t + 256];
    tile.sync();
    for (int off = 8; off > 0; off >>= 1) {
        if (r < off) s[t] += s[t + off];
        tile.sync();
    }
    if (r == 0) partial[g] = s[t];
    block.sync();
    if (g == 0) {
        float v = partial[r];
        for (int off = 8; off > 0; off >>= 1) v += tile.shfl_down(v, off);
        if (r == 0) out[0] = v;
    }
}
