// block: 128
__global__ void hist_off(int *out) {
    __shared__ unsigned int temp[256];
    temp[threadIdx.x] = 0;
    temp[threadIdx.x + 128] = 0;
    __syncthreads();
    int i = threadIdx.x + blockIdx.x * blockDim.x;
    int offset = blockDim.x * gridDim.x;
    while (i < 512) {
        atomicAdd(&temp[(i * 3) & 255], 1u);
        i += offset;
    }
    __syncthreads();
    out[threadIdx.x] = temp[threadIdx.x] + temp[threadIdx.x + 128];
}
