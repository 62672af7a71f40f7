// block: 128
#define N 1024
__global__ void stride2x_twoacc(const float *in, float *out) {
    __shared__ float s[N];
    int t = threadIdx.x;
    for (int i = t; i < N; i += blockDim.x) s[i] = in[i];
    __syncthreads();
    float acc = 0.f;
    for (int i = t; i < N; i += blockDim.x * 2)
        acc += s[i] * s[i + blockDim.x];
    out[t] = acc;
}
