// block: 64
__global__ void dbl_atomic(const double *in, double *out) {
    __shared__ double acc[8];
    int t = threadIdx.x;
    if (t < 8) acc[t] = 0.0;
    __syncthreads();
    atomicAdd(&acc[t % 8], in[t]);
    __syncthreads();
    if (t < 8) out[t] = acc[t];
}
