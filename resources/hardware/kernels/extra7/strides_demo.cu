// block: 32
__global__ void strides(float *out) {
    __shared__ float s[2048];
    int t = threadIdx.x;
    s[t * 3] = t;
    s[t * 5 + 1] = t;
    s[t * 16 + 2] = t;
    s[t * 33 + 3] = t;
    s[t * 64 % 2048] = t;
    __syncthreads();
    out[t] = s[t * 2] + s[t / 16] + s[0] + s[(t * 32) % 1024];
}
