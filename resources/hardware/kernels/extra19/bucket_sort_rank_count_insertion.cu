// block: 256
// input: in = ukeys_1024.npy
// bucket sort of 512 keys into 32 buckets by the top 5 bits: each key's place in its bucket by
// counting earlier keys with the same bucket (broadcast reads), bucket starts by a warp scan,
// a scatter, then one thread a bucket sorts it by insertion (lengths from the data)
__global__ void bucket_insertion(const unsigned *in, unsigned *out, int *info) {
    __shared__ unsigned keys[512];
    __shared__ unsigned sorted[512];
    __shared__ int cnt[32], start[32];
    int t = threadIdx.x;
    keys[t] = in[t]; keys[t + 256] = in[t + 256];
    if (t < 32) cnt[t] = 0;
    __syncthreads();
    int pos[2];
    unsigned bk[2];
    for (int h = 0; h < 2; ++h) {
        int i = t + 256 * h;
        unsigned b = keys[i] >> 27;
        int p = 0;
        for (int j = 0; j < i; ++j) p += (keys[j] >> 27) == b;
        atomicAdd(&cnt[b], 1);
        pos[h] = p; bk[h] = b;
    }
    __syncthreads();
    if (t < 32) {
        int c = cnt[t], x = c;
        for (int o = 1; o < 32; o <<= 1) { int u = __shfl_up_sync(0xffffffffu, x, o); if (t >= o) x += u; }
        start[t] = x - c;
    }
    __syncthreads();
    sorted[start[bk[0]] + pos[0]] = keys[t];
    sorted[start[bk[1]] + pos[1]] = keys[t + 256];
    __syncthreads();
    if (t < 32) {
        int b = start[t], e = b + cnt[t], moves = 0;
        for (int i = b + 1; i < e; ++i) {
            unsigned x = sorted[i];
            int j = i - 1;
            while (j >= b && sorted[j] > x) { sorted[j + 1] = sorted[j]; --j; ++moves; }
            sorted[j + 1] = x;
        }
        info[t] = cnt[t];
        info[32 + t] = moves;
    }
    __syncthreads();
    out[t] = sorted[t];
    out[t + 256] = sorted[t + 256];
}
