// block: 96
__global__ void sbl(const float *in, float *out) {
    __shared__ float s[1000];
    for (int i = threadIdx.x; i < 1000; i += blockDim.x) s[i] = in[i];
    __syncthreads();
    float acc = 0.f;
    for (int i = threadIdx.x * 2; i < 1000; i += 2 * blockDim.x) acc += s[i];
    out[threadIdx.x] = acc;
}
