// block: 128
__global__ void long_loop(const float *in, float *out) {
    __shared__ float s[1024];
    int t = threadIdx.x;
    for (int i = 0; i < 8; ++i) s[t + 128 * i] = in[t + 128 * i];
    __syncthreads();
    float acc = 0.f;
    for (int k = 0; k < 1000; ++k)
        acc += s[(t * 3 + k) % 1024];
    out[t] = acc;
}
