// GPU Gems 3, chapter 39 (parallel prefix sum): the bank-conflict-free offset is a macro with an
// argument, chosen with #ifdef. Import with -D NO_PADDING=1 to see the conflicts it removes.
// block: 128
#define NUM_BANKS 32
#define LOG_NUM_BANKS 5
#ifdef NO_PADDING
#define CONFLICT_FREE_OFFSET(n) 0
#else
#define CONFLICT_FREE_OFFSET(n) ((n) >> LOG_NUM_BANKS)
#endif

__global__ void prescan(float *g_odata, const float *g_idata)
{
    __shared__ float temp[2 * 128 + 2 * 128 / NUM_BANKS];
    int thid = threadIdx.x;
    int ai = thid;
    int bi = thid + 128;
    temp[ai + CONFLICT_FREE_OFFSET(ai)] = g_idata[ai];
    temp[bi + CONFLICT_FREE_OFFSET(bi)] = g_idata[bi];
    int offset = 1;
    for (int d = 128; d > 0; d >>= 1) {
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
    __syncthreads();
    g_odata[ai] = temp[ai + CONFLICT_FREE_OFFSET(ai)];
    g_odata[bi] = temp[bi + CONFLICT_FREE_OFFSET(bi)];
}
