// block: 256
// input: in = ints_1024.npy
// a sparse histogram (keys 0..999 folded to 97 bins by value % 97 and a second 16-bin one by
// value >> 6) with warp-aggregated shared atomics: __match_any_sync groups the lanes of equal
// bins, the lowest lane of each group adds the group's size (its return value unused)
__global__ void sparse_hist_match_any(const int *in, int *out) {
    __shared__ int h97[97];
    __shared__ int h16[16];
    int t = threadIdx.x, lane = t & 31;
    if (t < 97) h97[t] = 0;
    if (t < 16) h16[t] = 0;
    __syncthreads();
    for (int i = t; i < 1024; i += 256) {
        int v = in[i];
        int b = v % 97;
        unsigned peers = __match_any_sync(0xffffffff, b);
        if (lane == __ffs(peers) - 1) atomicAdd(&h97[b], __popc(peers));
        int c = v >> 6;
        if (v & 1) {
            unsigned act = __activemask();
            unsigned p2 = __match_any_sync(act, c);
            if (lane == 31 - __clz(p2)) atomicAdd(&h16[c], __popc(p2));
        }
    }
    __syncthreads();
    if (t < 97) out[t] = h97[t];
    if (t < 16) out[128 + t] = h16[t];
}
