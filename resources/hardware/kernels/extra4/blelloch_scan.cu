// block: 128
#define N 256
__global__ void prescan(float *g_odata, const float *g_idata) {
    __shared__ float temp[N];
    int thid = threadIdx.x;
    int offset = 1;
    temp[2 * thid] = g_idata[2 * thid];
    temp[2 * thid + 1] = g_idata[2 * thid + 1];
    for (int d = N >> 1; d > 0; d >>= 1) {
        __syncthreads();
        if (thid < d) {
            int ai = offset * (2 * thid + 1) - 1;
            int bi = offset * (2 * thid + 2) - 1;
            temp[bi] += temp[ai];
        }
        offset <<= 1;
    }
    if (thid == 0) temp[N - 1] = 0;
    for (int d = 1; d < N; d <<= 1) {
        offset >>= 1;
        __syncthreads();
        if (thid < d) {
            int ai = offset * (2 * thid + 1) - 1;
            int bi = offset * (2 * thid + 2) - 1;
            float t = temp[ai];
            temp[ai] = temp[bi];
            temp[bi] += t;
        }
    }
    __syncthreads();
    g_odata[2 * thid] = temp[2 * thid];
    g_odata[2 * thid + 1] = temp[2 * thid + 1];
}
