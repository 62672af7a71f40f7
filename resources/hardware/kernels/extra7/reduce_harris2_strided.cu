// block: 256
__global__ void reduce2(const int *g_idata, int *g_odata) {
    __shared__ int sdata[256];
    unsigned int tid = threadIdx.x;
    sdata[tid] = g_idata[tid];
    __syncthreads();
    for (unsigned int s = 1; s < blockDim.x; s *= 2) {
        int index = 2 * s * tid;
        if (index < blockDim.x) sdata[index] += sdata[index + s];
        __syncthreads();
    }
    if (tid == 0) g_odata[0] = sdata[0];
}
