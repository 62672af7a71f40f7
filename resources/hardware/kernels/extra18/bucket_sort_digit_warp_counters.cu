// block: 256
// input: in = ukeys_1024.npy
// one pass of a bucketed sort by a 4-bit digit: per-warp counters [8][16] in shared memory (the
// lanes of a digit grouped by __match_any_sync, the group's lowest lane adds its size: no two
// warps share a counter), a scan of the 128 counters digit-major, and a stable scatter of the
// keys to their digit's bucket at rank = warp offset + peers below in the warp
__global__ void bucket_sort_digit(const unsigned *in, unsigned *out, int *counts) {
    __shared__ int cnt[8][16];
    __shared__ int base[16][8];
    __shared__ unsigned sorted[1024];
    int t = threadIdx.x, lane = t & 31, w = t >> 5;
    if (t < 128) cnt[t >> 4][t & 15] = 0;
    __syncthreads();
    // warp w owns keys 128 w .. 128 w + 127, 4 rounds of 32
    unsigned k[4], peers[4];
    int below[4];
    for (int r = 0; r < 4; ++r) {
        k[r] = in[w * 128 + r * 32 + lane];
        int dgt = (k[r] >> 12) & 15;
        peers[r] = __match_any_sync(0xffffffff, dgt);
        below[r] = __popc(peers[r] & ((1u << lane) - 1)) + cnt[w][dgt];
        __syncwarp();
        if (lane == __ffs(peers[r]) - 1) cnt[w][dgt] += __popc(peers[r]);
        __syncwarp();
    }
    __syncthreads();
    if (t == 0) {
        int s = 0;
        for (int dd = 0; dd < 16; ++dd)
            for (int ww = 0; ww < 8; ++ww) { base[dd][ww] = s; s += cnt[ww][dd]; }
    }
    __syncthreads();
    for (int r = 0; r < 4; ++r) {
        int dgt = (k[r] >> 12) & 15;
        sorted[base[dgt][w] + below[r]] = k[r];
    }
    __syncthreads();
    for (int i = t; i < 1024; i += 256) out[i] = sorted[i];
    if (t < 128) counts[t] = cnt[t >> 4][t & 15];
}
