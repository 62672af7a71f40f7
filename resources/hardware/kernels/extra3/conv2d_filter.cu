// block: 16, 16
#define R 2
__global__ void conv2d(const float *in, const float *w, float *out) {
    __shared__ float tile[16 + 2 * R][16 + 2 * R];
    __shared__ float filt[2 * R + 1][2 * R + 1];
    int tx = threadIdx.x, ty = threadIdx.y;
    tile[ty + R][tx + R] = in[ty * 16 + tx];
    if (tx < 2 * R + 1 && ty < 2 * R + 1) filt[ty][tx] = w[ty * 5 + tx];
    if (tx < R) { tile[ty + R][tx] = 0.f; tile[ty + R][tx + 16 + R] = 0.f; }
    if (ty < R) { tile[ty][tx + R] = 0.f; tile[ty + 16 + R][tx + R] = 0.f; }
    __syncthreads();
    float acc = 0.f;
#pragma unroll
    for (int i = 0; i <= 2 * R; ++i)
#pragma unroll
        for (int j = 0; j <= 2 * R; ++j) acc += filt[i][j] * tile[ty + i][tx + j];
    out[ty * 16 + tx] = acc;
}
