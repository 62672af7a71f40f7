// block: 128
// input: in = runs_512.npy
#include <cub/cub.cuh>
struct NotEqual {
    __device__ bool operator()(int a, int b) const { return a != b; }
};
// flag the first item of every run of equal keys (4 a thread) and count the runs per thread
__global__ void discontinuity_heads(const int *in, int *flags_out, int *counts) {
    using Discontinuity = cub::BlockDiscontinuity<int, 128>;
    __shared__ typename Discontinuity::TempStorage temp;
    int keys[4], flags[4];
    cub::LoadDirectBlocked(threadIdx.x, in, keys);
    Discontinuity(temp).FlagHeads(flags, keys, NotEqual());
    cub::StoreDirectBlocked(threadIdx.x, flags_out, flags);
    counts[threadIdx.x] = flags[0] + flags[1] + flags[2] + flags[3];
}
