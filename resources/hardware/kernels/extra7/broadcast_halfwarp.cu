// block: 64
__global__ void bcast(const float *in, float *out) {
    __shared__ float s[64];
    int t = threadIdx.x, lane = t % 32;
    s[t] = in[t];
    __syncthreads();
    out[t] = s[0] + s[lane / 16] + s[lane / 8 * 9] + s[(t / 32) * 32 + 31];
}
