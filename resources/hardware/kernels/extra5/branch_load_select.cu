// block: 64
__global__ void branch_load(const float *in, float *out) {
    __shared__ float s[512];
    int t = threadIdx.x;
    s[t] = in[t];
    s[t + 64] = in[t + 64];
    __syncthreads();
    float v;
    if (t < 16) v = s[t * 8];
    else v = s[t + 100];
    out[t] = v;
}
