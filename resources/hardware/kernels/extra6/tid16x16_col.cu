// block: 16, 16
__global__ void tid16x16_col(const float *in, float *out) {
    __shared__ float s[32][8];
    __shared__ float p[32][9];
    int tid = threadIdx.y * 16 + threadIdx.x;
    s[tid / 8][tid % 8] = in[tid];
    p[tid / 8][tid % 8] = in[tid + 256];
    __syncthreads();
    float a = s[tid % 32][tid / 32];
    float b = p[tid % 32][tid / 32];
    out[tid] = a - b;
}
