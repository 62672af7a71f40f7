// block: 64
__global__ void fhist(const float *in, float *out) {
    __shared__ float bins[16];
    int t = threadIdx.x;
    if (t < 16) bins[t] = 0.f;
    __syncthreads();
    atomicAdd(&bins[t % 16], 1.0f);
    atomicAdd(&bins[0], in[t]);
    __syncthreads();
    if (t < 16) out[t] = bins[t];
}
