// block: 256
template <unsigned int blockSize>
__device__ void warpReduce(volatile float *sdata, unsigned int tid) {
    if (blockSize >= 64) sdata[tid] += sdata[tid + 32];
    if (blockSize >= 32) sdata[tid] += sdata[tid + 16];
    if (blockSize >= 16) sdata[tid] += sdata[tid + 8];
    if (blockSize >= 8) sdata[tid] += sdata[tid + 4];
    if (blockSize >= 4) sdata[tid] += sdata[tid + 2];
    if (blockSize >= 2) sdata[tid] += sdata[tid + 1];
}

template <unsigned int blockSize>
__device__ void blockReduce(float *sdata, unsigned int tid) {
    if (blockSize >= 512) { if (tid < 256) sdata[tid] += sdata[tid + 256]; __syncthreads(); }
    if (blockSize >= 256) { if (tid < 128) sdata[tid] += sdata[tid + 128]; __syncthreads(); }
    if (blockSize >= 128) { if (tid < 64) sdata[tid] += sdata[tid + 64]; __syncthreads(); }
    if (tid < 32) warpReduce<blockSize>(sdata, tid);
}

__global__ void reduce6(const float *g_idata, float *g_odata, int n) {
    __shared__ float sdata[256];
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * (256 * 2) + tid;
    unsigned int gridSize = 256 * 2 * gridDim.x;
    float sum = 0.f;
    while (i < (unsigned)n * 16) {
        sum += g_idata[i] + g_idata[i + 256];
        i += gridSize;
    }
    sdata[tid] = sum;
    __syncthreads();
    blockReduce<256>(sdata, tid);
    if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}
