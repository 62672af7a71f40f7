// block: 256
// input: lens = runlen_256.npy
// run-length decoding by search: run ends by an inclusive scan of 256 lengths (warp shuffles and
// 8 warp totals), then every output position finds its run by binary search in the shared
// offsets (upper bound); total length from the data
__global__ void rle_decode_bsearch(const int *lens, unsigned char *out, int *info) {
    __shared__ int ends[256];
    __shared__ int wsum[8];
    int t = threadIdx.x, lane = t & 31, w = t >> 5;
    int x = lens[t];
    for (int o = 1; o < 32; o <<= 1) { int u = __shfl_up_sync(0xffffffffu, x, o); if (lane >= o) x += u; }
    if (lane == 31) wsum[w] = x;
    __syncthreads();
    if (w == 0) {
        int s = lane < 8 ? wsum[lane] : 0;
        for (int o = 1; o < 8; o <<= 1) { int u = __shfl_up_sync(0xffffffffu, s, o); if (lane >= o) s += u; }
        if (lane < 8) wsum[lane] = s;
    }
    __syncthreads();
    if (w) x += wsum[w - 1];
    ends[t] = x;
    __syncthreads();
    int total = ends[255];
    for (int p = t; p < total; p += 256) {
        int lo = 0, hi = 255;
        while (lo < hi) {
            int m = (lo + hi) >> 1;
            if (ends[m] > p) hi = m; else lo = m + 1;
        }
        out[p] = (unsigned char)(lo * 7 + 1);
    }
    if (t == 0) info[0] = total;
}
