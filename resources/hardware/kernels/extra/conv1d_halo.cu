// block: 128
#define R 3
__global__ void conv1d(const float *in, float *out, const float *w) {
    __shared__ float s[128 + 2 * R];
    int t = threadIdx.x;
    s[t + R] = in[t + R];
    if (t < R) {
        s[t] = in[t];
        s[t + 128 + R] = in[t + 128 + R];
    }
    __syncthreads();
    float acc = 0.f;
#pragma unroll
    for (int k = -R; k <= R; ++k) acc += w[k + R] * s[t + R + k];
    out[t] = acc;
}
