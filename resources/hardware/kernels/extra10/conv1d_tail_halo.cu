// block: 128
#define R 4
__constant__ float mask[2 * R + 1];
__global__ void conv1d(const float *in, float *out) {
    __shared__ float s[128 + 2 * R];
    int t = threadIdx.x;
    s[t] = in[t];
    if (t < 2 * R) s[t + blockDim.x] = in[t + blockDim.x];
    __syncthreads();
    float acc = 0.f;
    for (int k = 0; k <= 2 * R; ++k) acc += s[t + k] * mask[k];
    out[t] = acc;
}
