// block: 256
// input: in = bytes_2048.npy
// stable bucketing of 2048 byte keys (skewed: most are small) by their top 5 bits into 32
// buckets: per pass each warp groups equal buckets with __match_any_sync, the group leader bumps
// the warp's private counter cnt[warp][bucket] (no atomics: deterministic ranks), then a scan over
// the bucket-major [bucket][warp] table gives offsets and every key is scattered into a shared
// output at offset + rank, read back in order
__global__ void radix_bucket(const unsigned char *in, unsigned char *out, int *offsets) {
    __shared__ int cnt[8][32];
    __shared__ int off[32][8];
    __shared__ unsigned char sorted[2048];
    int t = threadIdx.x, w = t >> 5, lane = t & 31;
    cnt[w][lane] = 0;
    __syncwarp();
    unsigned char key[8];
    int rank[8];
    unsigned lt = (1u << lane) - 1;
    for (int p = 0; p < 8; ++p) {
        key[p] = in[w * 256 + p * 32 + lane];
        int b = key[p] >> 3;
        unsigned peers = __match_any_sync(0xffffffffu, b);
        int leader = __ffs(peers) - 1;
        int base = cnt[w][b];
        rank[p] = base + __popc(peers & lt);
        __syncwarp();
        if (lane == leader) cnt[w][b] = base + __popc(peers);
        __syncwarp();
    }
    __syncthreads();
    if (t < 32) {  // one thread a bucket: a serial scan over the 8 warps, then a warp scan
        int s = 0;
        for (int j = 0; j < 8; ++j) { off[t][j] = s; s += cnt[j][t]; }
        int incl = s;
        for (int d = 1; d < 32; d <<= 1) {
            int v = __shfl_up_sync(0xffffffffu, incl, d);
            if (t >= d) incl += v;
        }
        int excl = incl - s;
        for (int j = 0; j < 8; ++j) off[t][j] += excl;
        offsets[t] = excl;
    }
    __syncthreads();
    for (int p = 0; p < 8; ++p) sorted[off[key[p] >> 3][w] + rank[p]] = key[p];
    __syncthreads();
    for (int i = t; i < 2048; i += 256) out[i] = sorted[i];
}
