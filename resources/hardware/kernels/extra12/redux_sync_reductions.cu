// block: 128
// input: in = ints_1024.npy
// the sm_80+ warp reductions: __reduce_add_sync and __reduce_max_sync over the whole warp,
// __reduce_min_sync and __reduce_or_sync over the lanes a ballot picks (values above 500); the
// results index shared memory
__global__ void redux_sync(const int *in, int *out) {
    __shared__ int s[1024];
    __shared__ int results[4][8];
    int t = threadIdx.x, lane = t & 31, w = t >> 5;
    for (int i = t; i < 1024; i += 128) s[i] = in[i];
    __syncthreads();
    for (int k = 0; k < 8; k += 2) {
        int v = s[k * 128 + t];
        unsigned int sum = __reduce_add_sync(0xffffffffu, (unsigned int)v);
        int mx = __reduce_max_sync(0xffffffffu, v);
        unsigned int big = __ballot_sync(0xffffffffu, v > 500);
        if (v > 500) {
            int mn = __reduce_min_sync(big, v);
            unsigned int bits = __reduce_or_sync(big, (unsigned int)v);
            if (lane == __ffs(big) - 1) results[w][k + 1] = mn + (int)(bits & 0xff);
        }
        if (lane == 0) results[w][k] = (int)(sum % 1024u);
        __syncwarp();
        v += s[results[w][k]] + s[mx];
        out[k * 128 + t] = v;
    }
    __syncthreads();
    if (t < 32) out[1024 + t] = results[t / 8][t % 8];
}
