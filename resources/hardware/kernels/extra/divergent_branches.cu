// block: 64
__global__ void divergent(const int *in, int *out) {
    __shared__ int s[128];
    int t = threadIdx.x;
    s[t] = in[t];
    s[t + 64] = in[t + 64];
    __syncthreads();
    int v;
    if (t % 2 == 0) {
        v = s[2 * t];
    } else {
        s[2 * t + 1] = t;
        v = 0;
    }
    if (t < 16) v += s[t * 8];
    out[t] = v;
}
