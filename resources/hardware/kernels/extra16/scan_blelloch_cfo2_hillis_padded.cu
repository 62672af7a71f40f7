// block: 512
// input: in = ints_1024.npy
// Blelloch work-efficient exclusive scan of 1024 ints with the two-level bank-conflict-free offset
// CONFLICT_FREE_OFFSET(n) = (n >> 5) + (n >> 10); then a Hillis-Steele inclusive scan of 512 float2
// pairs double-buffered with a PAD(i) = i + (i >> 4) macro
#define LOG_NUM_BANKS 5
#define CONFLICT_FREE_OFFSET(n) (((n) >> LOG_NUM_BANKS) + ((n) >> (2 * LOG_NUM_BANKS)))
#define PAD(i) ((i) + ((i) >> 4))
__global__ void blelloch_hillis(const int *in, int *out, float *fout) {
    __shared__ int temp[1024 + 32 + 1];
    __shared__ float2 hs[2][PAD(512)];
    int t = threadIdx.x, n = 1024, offset = 1;
    int ai = t, bi = t + n / 2;
    temp[ai + CONFLICT_FREE_OFFSET(ai)] = in[ai];
    temp[bi + CONFLICT_FREE_OFFSET(bi)] = in[bi];
    for (int d = n >> 1; d > 0; d >>= 1) {
        __syncthreads();
        if (t < d) {
            int a = offset * (2 * t + 1) - 1, b = offset * (2 * t + 2) - 1;
            a += CONFLICT_FREE_OFFSET(a);
            b += CONFLICT_FREE_OFFSET(b);
            temp[b] += temp[a];
        }
        offset *= 2;
    }
    if (t == 0) temp[n - 1 + CONFLICT_FREE_OFFSET(n - 1)] = 0;
    for (int d = 1; d < n; d *= 2) {
        offset >>= 1;
        __syncthreads();
        if (t < d) {
            int a = offset * (2 * t + 1) - 1, b = offset * (2 * t + 2) - 1;
            a += CONFLICT_FREE_OFFSET(a);
            b += CONFLICT_FREE_OFFSET(b);
            int v = temp[a];
            temp[a] = temp[b];
            temp[b] += v;
        }
    }
    __syncthreads();
    out[ai] = temp[ai + CONFLICT_FREE_OFFSET(ai)];
    out[bi] = temp[bi + CONFLICT_FREE_OFFSET(bi)];
    int src = 0;
    hs[0][PAD(t)] = make_float2((float)(in[t] & 15), (float)(in[t + 512] & 7));
    __syncthreads();
    for (int d = 1; d < 512; d <<= 1) {
        float2 v = hs[src][PAD(t)];
        if (t >= d) { float2 u = hs[src][PAD(t - d)]; v.x += u.x; v.y += u.y; }
        hs[src ^ 1][PAD(t)] = v;
        src ^= 1;
        __syncthreads();
    }
    fout[2 * t] = hs[src][PAD(t)].x;
    fout[2 * t + 1] = hs[src][PAD(t)].y;
}
