// block: 64
#define R 2
#define N 64
__global__ void stencil_r2(const float *in, float *out) {
    __shared__ float s[N + 2 * R];
    int t = threadIdx.x;
    s[t + R] = in[t];
    if (t < R) {
        s[t] = in[(t + N - R) % N];
        s[t + N + R] = in[t];
    }
    __syncthreads();
    float acc = 0.f;
    for (int o = -R; o <= R; ++o) acc += s[t + R + o];
    out[t] = acc;
}
