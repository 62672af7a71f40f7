// block: 64
__global__ void ifelse(const float *in, float *out) {
    __shared__ float s[64 * 2];
    int t = threadIdx.x;
    if (t % 2 == 0)
        s[t] = in[t];
    else
        s[t] = -in[t];
    if (t < 16)
        s[64 + t * 2] = 1.f;
    __syncthreads();
    out[t] = s[(t * 2) % 128];
}
