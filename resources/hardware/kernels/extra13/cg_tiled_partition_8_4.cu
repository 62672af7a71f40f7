// block: 256
// input: in = ints_1024.npy
// cooperative_groups: tiled_partition<8> and a dynamic tiled_partition(block, 4) of the block;
// cg::reduce over each 8-thread tile (plus and greater), tile leaders write to shared memory
// (32 slots), tile.sync() orders a shared exchange inside each 4-thread tile, and a
// coalesced_threads() group in a data-dependent branch counts its members
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;
__global__ void cg_tiles(const int *in, int *out) {
    __shared__ int sums[32];
    __shared__ int maxs[32];
    __shared__ int ex[256];
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<8> t8 = cg::tiled_partition<8>(block);
    int t = threadIdx.x;
    int v = in[t] + in[256 + t];
    int s = cg::reduce(t8, v, cg::plus<int>());
    int m = cg::reduce(t8, v, cg::greater<int>());
    if (t8.thread_rank() == 0) {
        sums[t8.meta_group_rank()] = s;
        maxs[t8.meta_group_rank()] = m;
    }
    cg::thread_group t4 = cg::tiled_partition(block, 4);
    ex[t] = v;
    t4.sync();
    int r = ex[(t & ~3) | ((t4.thread_rank() + 1) & 3)];
    block.sync();
    out[t] = r + sums[t >> 3] - maxs[(t >> 3) ^ 1];
    if (v & 1) {
        cg::coalesced_group odd = cg::coalesced_threads();
        if (odd.thread_rank() == 0) ex[t] = -(int)odd.size();
    }
    block.sync();
    out[256 + t] = ex[t];
}
