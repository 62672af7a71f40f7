// block: 128
__global__ void histo(const int *in, int *out) {
    __shared__ int bins[64];
    for (int i = threadIdx.x; i < 64; i += blockDim.x) bins[i] = 0;
    __syncthreads();
    atomicAdd(&bins[threadIdx.x % 64], 1);
    atomicAdd(&bins[(threadIdx.x * 3) % 64], in[threadIdx.x]);
    __syncthreads();
    for (int i = threadIdx.x; i < 64; i += blockDim.x) out[i] = bins[i];
}
