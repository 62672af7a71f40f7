// block: 64
__global__ void k(float *o, const float *g) {
    __shared__ float s[1024];
    s[threadIdx.x] = g[threadIdx.x];
    __syncthreads();
    float acc = 0;
    for (int k = 0; k < 64; ++k)
        acc += s[threadIdx.x] * g[k] + s[(threadIdx.x + k) % 1024];
    float a = s[2 * threadIdx.x];
    float b = s[2 * threadIdx.x + 1];
    o[threadIdx.x] = acc + a * b;
}
