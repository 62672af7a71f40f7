// block: 256
// input: in = ukeys_1024.npy
// a stable counting sort of 1024 keys into 16 buckets (the top 4 bits): each warp ranks its keys
// bucket by bucket with __ballot_sync and __popc, one lane a bucket keeps the warp's count
// (__syncwarp between), warp 0 scans the 128 counts bucket-major by __shfl_up_sync, and every key
// is scattered to shared memory at its offset and rank
__global__ void ballot_counting_sort(const unsigned *in, unsigned *out, int *offs) {
    __shared__ int cnt[8][16];
    __shared__ int off[8][16];
    __shared__ unsigned sorted[1024];
    int t = threadIdx.x, w = t >> 5, lane = t & 31;
    if (t < 128) cnt[t >> 4][t & 15] = 0;
    __syncthreads();
    unsigned k[4];
    int bk[4], rk[4];
    for (int r = 0; r < 4; ++r) {
        k[r] = in[w * 128 + r * 32 + lane];
        bk[r] = k[r] >> 28;
        for (int q = 0; q < 16; ++q) {
            unsigned m = __ballot_sync(0xffffffffu, bk[r] == q);
            if (bk[r] == q) rk[r] = cnt[w][q] + __popc(m & ((1u << lane) - 1u));
            __syncwarp();
            if (lane == q) cnt[w][q] += __popc(m);
            __syncwarp();
        }
    }
    __syncthreads();
    if (w == 0) {
        int v[4], s = 0;
        for (int j = 0; j < 4; ++j) { int idx = lane * 4 + j; v[j] = s; s += cnt[idx & 7][idx >> 3]; }
        int inc = s;
        for (int o = 1; o < 32; o <<= 1) { int n = __shfl_up_sync(0xffffffffu, inc, o); if (lane >= o) inc += n; }
        int base = inc - s;
        for (int j = 0; j < 4; ++j) { int idx = lane * 4 + j; off[idx & 7][idx >> 3] = base + v[j]; }
    }
    __syncthreads();
    for (int r = 0; r < 4; ++r) sorted[off[w][bk[r]] + rk[r]] = k[r];
    __syncthreads();
    for (int i = t; i < 1024; i += 256) out[i] = sorted[i];
    if (t < 128) offs[t] = off[t & 7][t >> 3];
}
