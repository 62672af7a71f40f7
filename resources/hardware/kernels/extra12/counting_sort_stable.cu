// block: 128
// input: digits = digits_512.npy
// stable counting sort of 512 keys 0..15 (4 a thread, blocked): per-thread counts in a [16][128]
// table, an exclusive scan of the table in digit-major order (each thread scans 16 consecutive
// entries: a stride-16 walk), warp and block offsets, then each thread scatters its keys in order
__global__ void counting_sort(const int *digits, int *sorted_keys, int *sorted_pos) {
    __shared__ int cnt[16 * 128];
    __shared__ int warp_tot[4];
    __shared__ int keys_s[512], pos_s[512];
    int t = threadIdx.x, lane = t & 31, w = t >> 5;
    for (int d = 0; d < 16; ++d) cnt[d * 128 + t] = 0;
    int k[4];
    for (int i = 0; i < 4; ++i) k[i] = digits[t * 4 + i];
    for (int i = 0; i < 4; ++i) cnt[k[i] * 128 + t]++;  // a private column: no atomics needed
    __syncthreads();
    int run = 0, mine[16];
    for (int i = 0; i < 16; ++i) { mine[i] = run; run += cnt[t * 16 + i]; }
    int incl = run;
    for (int o = 1; o < 32; o <<= 1) {
        int y = __shfl_up_sync(0xffffffffu, incl, o);
        if (lane >= o) incl += y;
    }
    if (lane == 31) warp_tot[w] = incl;
    __syncthreads();
    int base = incl - run;
    for (int v = 0; v < w; ++v) base += warp_tot[v];
    for (int i = 0; i < 16; ++i) cnt[t * 16 + i] = base + mine[i];
    __syncthreads();
    for (int i = 0; i < 4; ++i) {
        int p = cnt[k[i] * 128 + t]++;
        keys_s[p] = k[i];
        pos_s[p] = t * 4 + i;
    }
    __syncthreads();
    for (int i = t; i < 512; i += 128) { sorted_keys[i] = keys_s[i]; sorted_pos[i] = pos_s[i]; }
}
