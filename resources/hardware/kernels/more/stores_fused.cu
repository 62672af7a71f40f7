// block: 64
__global__ void stores_fused(const float *in, float *out) {
    __shared__ float s[64 * 4];
    int t = threadIdx.x;
    float a = in[t], b = in[t + 64], c = in[t + 128], d = in[t + 192];
    s[4 * t] = a;
    s[4 * t + 1] = b;
    s[4 * t + 2] = c;
    s[4 * t + 3] = d;
    __syncthreads();
    out[t] = s[(t * 4 + 1) % 256] + s[t];
}
