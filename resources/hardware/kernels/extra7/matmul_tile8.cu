// block: 8, 8
#define TILE 8
__global__ void matmul8(const float *A, const float *B, float *C, int n) {
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    float acc = 0.f;
    for (int t = 0; t < n / TILE; ++t) {
        As[ty][tx] = A[ty * n + t * TILE + tx];
        Bs[ty][tx] = B[(t * TILE + ty) * n + tx];
        __syncthreads();
        for (int k = 0; k < TILE; ++k) acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    C[ty * n + tx] = acc;
}
