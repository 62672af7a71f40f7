// block: 256
__device__ void warp_reduce(volatile float *s, int t) {
    s[t] += s[t + 32];
    s[t] += s[t + 16];
    s[t] += s[t + 8];
    s[t] += s[t + 4];
    s[t] += s[t + 2];
    s[t] += s[t + 1];
}
__global__ void reduce5(const float *in, float *out) {
    __shared__ float s[256];
    int t = threadIdx.x;
    s[t] = in[t] + in[t + 256];
    __syncthreads();
    for (int k = 128; k > 32; k >>= 1) {
        if (t < k) s[t] += s[t + k];
        __syncthreads();
    }
    if (t < 32) warp_reduce(s, t);
    if (t == 0) out[0] = s[0];
}
