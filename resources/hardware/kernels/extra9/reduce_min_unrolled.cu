// block: 128
#define blockSize 128
__device__ void warpMin(volatile int *sdata, unsigned int tid) {
    sdata[tid] = min(sdata[tid], sdata[tid + 32]);
    sdata[tid] = min(sdata[tid], sdata[tid + 16]);
    sdata[tid] = min(sdata[tid], sdata[tid + 8]);
    sdata[tid] = min(sdata[tid], sdata[tid + 4]);
    sdata[tid] = min(sdata[tid], sdata[tid + 2]);
    sdata[tid] = min(sdata[tid], sdata[tid + 1]);
}
__global__ void reduce_min6(const int *g_idata, int *g_odata, int n) {
    __shared__ int sdata[blockSize];
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * (blockSize * 2) + tid;
    unsigned int gridSize = blockSize * 2 * gridDim.x;
    int m = 0x7fffffff;
    while (i < n) {
        m = min(m, min(g_idata[i], g_idata[i + blockSize]));
        i += gridSize;
    }
    sdata[tid] = m;
    __syncthreads();
    if (blockSize >= 512) { if (tid < 256) sdata[tid] = min(sdata[tid], sdata[tid + 256]); __syncthreads(); }
    if (blockSize >= 256) { if (tid < 128) sdata[tid] = min(sdata[tid], sdata[tid + 128]); __syncthreads(); }
    if (blockSize >= 128) { if (tid < 64) sdata[tid] = min(sdata[tid], sdata[tid + 64]); __syncthreads(); }
    if (tid < 32) warpMin(sdata, tid);
    if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}
