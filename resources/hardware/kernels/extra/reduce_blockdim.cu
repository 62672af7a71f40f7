// block: 128
__global__ void reduce3(const int *in, int *out) {
    __shared__ int s[128];
    unsigned t = threadIdx.x;
    s[t] = in[t];
    __syncthreads();
    for (unsigned k = blockDim.x / 2; k > 0; k >>= 1) {
        if (t < k) s[t] += s[t + k];
        __syncthreads();
    }
    if (t == 0) out[0] = s[0];
}
