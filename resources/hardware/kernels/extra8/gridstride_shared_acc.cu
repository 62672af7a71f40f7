// block: 64
__global__ void gs_acc(const float *in, float *out, int n) {
    __shared__ float acc[64][33];
    int t = threadIdx.x;
    for (int c = 0; c < 32; ++c) acc[t][c] = 0.f;
    for (int i = blockIdx.x * blockDim.x + t; i < n * 4; i += blockDim.x * gridDim.x)
        acc[t][i % 32] += in[i];
    __syncthreads();
    float s = 0.f;
    for (int r = 0; r < 64; r += 8) s += acc[r + t % 8][t / 2];
    out[t] = s;
}
