// block: 128
#define NUM_BANKS 32
#define LOG_NUM_BANKS 5
#define CONFLICT_FREE_OFFSET(n) ((n) >> LOG_NUM_BANKS)
__global__ void prescan(float *g_odata, const float *g_idata) {
    __shared__ float temp[256 + 8];
    int thid = threadIdx.x;
    const int n = 256;
    int offset = 1;
    int ai = thid, bi = thid + n / 2;
    temp[ai + CONFLICT_FREE_OFFSET(ai)] = g_idata[ai];
    temp[bi + CONFLICT_FREE_OFFSET(bi)] = g_idata[bi];
    for (int d = n >> 1; d > 0; d >>= 1) {
        __syncthreads();
        if (thid < d) {
            int a = offset * (2 * thid + 1) - 1;
            int b = offset * (2 * thid + 2) - 1;
            a += CONFLICT_FREE_OFFSET(a);
            b += CONFLICT_FREE_OFFSET(b);
            temp[b] += temp[a];
        }
        offset *= 2;
    }
    if (thid == 0) temp[n - 1 + CONFLICT_FREE_OFFSET(n - 1)] = 0;
    for (int d = 1; d < n; d *= 2) {
        offset >>= 1;
        __syncthreads();
        if (thid < d) {
            int a = offset * (2 * thid + 1) - 1;
            int b = offset * (2 * thid + 2) - 1;
            a += CONFLICT_FREE_OFFSET(a);
            b += CONFLICT_FREE_OFFSET(b);
            float x = temp[a];
            temp[a] = temp[b];
            temp[b] += x;
        }
    }
    __syncthreads();
    g_odata[ai] = temp[ai + CONFLICT_FREE_OFFSET(ai)];
    g_odata[bi] = temp[bi + CONFLICT_FREE_OFFSET(bi)];
}
