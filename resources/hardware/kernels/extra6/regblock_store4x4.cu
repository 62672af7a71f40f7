// block: 8, 8
__global__ void regblock_store4x4(const float *in, float *out) {
    __shared__ float s[32][32];
    int tx = threadIdx.x, ty = threadIdx.y;
    float r[4][4];
#pragma unroll
    for (int i = 0; i < 4; ++i)
#pragma unroll
        for (int j = 0; j < 4; ++j)
            r[i][j] = in[(ty * 4 + i) * 32 + tx * 4 + j] * 2.f + (float)(i - j);
#pragma unroll
    for (int i = 0; i < 4; ++i)
#pragma unroll
        for (int j = 0; j < 4; ++j)
            s[ty * 4 + i][tx * 4 + j] = r[i][j];
    __syncthreads();
    int t = ty * 8 + tx;
    float acc = 0.f;
    for (int k = 0; k < 16; ++k)
        acc += s[t / 2][(t % 2) * 16 + k];
    out[t] = acc;
}
