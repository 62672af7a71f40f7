// block: 256
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void cgk(const int *in, int *out) {
    cg::thread_block block = cg::this_thread_block();
    __shared__ int s[256];
    int t = block.thread_rank();
    s[t] = in[t];
    block.sync();
    int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    out[t] = s[lane * 8 + warp];
}
