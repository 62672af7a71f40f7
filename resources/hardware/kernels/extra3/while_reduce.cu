// block: 128
__global__ void wr(const float *in, float *out) {
    __shared__ float s[128];
    int t = threadIdx.x;
    s[t] = in[t];
    __syncthreads();
    int stride = blockDim.x / 2;
    while (stride > 0) {
        if (t < stride) s[t] += s[t + stride];
        __syncthreads();
        stride >>= 1;
    }
    if (t == 0) out[0] = s[0];
}
