// block: 16, 16
#define TS 16
__global__ void dgemm_tiled(const double *A, const double *B, double *C, int n) {
    __shared__ double As[TS][TS];
    __shared__ double Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    double acc = 0.0;
    for (int t = 0; t < n / TS; ++t) {
        As[ty][tx] = A[row * n + t * TS + tx];
        Bs[ty][tx] = B[(t * TS + ty) * n + col];
        __syncthreads();
#pragma unroll 4
        for (int k = 0; k < TS; ++k)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    C[row * n + col] = acc;
}
