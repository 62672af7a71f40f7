// block: 256
// input: in = ints_1024.npy
// warp-aggregated atomics: lanes with the same key (in % 24) find each other with __match_any_sync;
// the lowest of them adds the group's count to the shared histogram, and each lane writes its
// value into the key's row at the group's base plus its rank among its peers
__global__ void match_any_hist(const int *in, int *hist_out, int *rows_out) {
    __shared__ int hist[24];
    __shared__ int rows[24][48];
    int t = threadIdx.x, lane = t & 31;
    if (t < 24) hist[t] = 0;
    __syncthreads();
    for (int i = t; i < 1024; i += 256) {
        int v = in[i], key = v % 24;
        unsigned int peers = __match_any_sync(0xffffffffu, key);
        int leader = __ffs(peers) - 1;
        int rank = __popc(peers & ((1u << lane) - 1));
        int base = 0;
        if (lane == leader) base = atomicAdd(&hist[key], __popc(peers));
        base = __shfl_sync(peers, base, leader);
        if (base + rank < 48) rows[key][base + rank] = v;
    }
    __syncthreads();
    if (t < 24) hist_out[t] = hist[t];
    for (int i = t; i < 24 * 48; i += 256) rows_out[i] = rows[i / 48][i % 48];
}
