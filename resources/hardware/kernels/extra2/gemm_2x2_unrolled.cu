// block: 16, 16
#define TS 32
__global__ void mm2x2(const float *A, const float *B, float *C) {
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 2; ++j) {
            As[ty * 2 + i][tx * 2 + j] = A[(ty * 2 + i) * TS + tx * 2 + j];
            Bs[ty * 2 + i][tx * 2 + j] = B[(ty * 2 + i) * TS + tx * 2 + j];
        }
    __syncthreads();
    float c[2][2] = {{0, 0}, {0, 0}};
#pragma unroll
    for (int k = 0; k < TS; ++k)
#pragma unroll
        for (int i = 0; i < 2; ++i)
#pragma unroll
            for (int j = 0; j < 2; ++j) c[i][j] += As[ty * 2 + i][k] * Bs[k][tx * 2 + j];
    for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 2; ++j) C[(ty * 2 + i) * TS + tx * 2 + j] = c[i][j];
}
