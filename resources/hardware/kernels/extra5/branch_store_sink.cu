// block: 64
__global__ void branch_store(const float *in, float *out) {
    __shared__ float s[256];
    int t = threadIdx.x;
    float v = in[t];
    if (t % 2 == 0) {
        s[t * 2] = v;
    } else {
        s[t * 2 + 64] = v + 1.f;
    }
    __syncthreads();
    out[t] = s[(t * 4) & 255];
}
