// block: 128
#define BLOCK 128
__device__ void warpReduce(volatile int *sdata, int tid) {
    sdata[tid] += sdata[tid + 32];
    sdata[tid] += sdata[tid + 16];
    sdata[tid] += sdata[tid + 8];
    sdata[tid] += sdata[tid + 4];
    sdata[tid] += sdata[tid + 2];
    sdata[tid] += sdata[tid + 1];
}
__global__ void reduce5(const int *g_idata, int *g_odata) {
    __shared__ int sdata[BLOCK];
    int tid = threadIdx.x;
    sdata[tid] = g_idata[tid] + g_idata[tid + BLOCK];
    __syncthreads();
    for (int s = BLOCK / 2; s > 32; s >>= 1) {
        if (tid < s) sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid < 32) warpReduce(sdata, tid);
    if (tid == 0) g_odata[0] = sdata[0];
}
