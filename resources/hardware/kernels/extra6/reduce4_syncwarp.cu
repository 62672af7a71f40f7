// block: 256
__global__ void reduce4_syncwarp(const float *g_idata, float *g_odata) {
    __shared__ float sdata[256];
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * (blockDim.x * 2) + threadIdx.x;
    sdata[tid] = g_idata[i] + g_idata[i + blockDim.x];
    __syncthreads();
    for (unsigned int s = blockDim.x / 2; s > 32; s >>= 1) {
        if (tid < s) sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid < 32) {
        float v = sdata[tid] + sdata[tid + 32]; __syncwarp();
        sdata[tid] = v; __syncwarp();
        v += sdata[tid + 16]; __syncwarp();
        sdata[tid] = v; __syncwarp();
        v += sdata[tid + 8]; __syncwarp();
        sdata[tid] = v; __syncwarp();
        v += sdata[tid + 4]; __syncwarp();
        sdata[tid] = v; __syncwarp();
        v += sdata[tid + 2]; __syncwarp();
        sdata[tid] = v; __syncwarp();
        v += sdata[tid + 1]; __syncwarp();
        sdata[tid] = v;
    }
    if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}
