// block: 64
__global__ void early_return_double(const double *in, double *out) {
    __shared__ double d[32][4];
    __shared__ double r[48];
    int t = threadIdx.x;
    for (int i = t; i < 128; i += 64) d[i / 4][i % 4] = in[i];
    __syncthreads();
    if (threadIdx.x >= 48) return;
    double v = d[t % 32][0] + d[t % 32][t / 32 + 1];
    r[t] = v;
    __syncwarp(t < 32 ? 0xffffffffu : 0x0000ffffu);
    out[t] = r[(t % 32 + 1) % 32 + (t / 32) * 16] * 0.5 + v;
}
