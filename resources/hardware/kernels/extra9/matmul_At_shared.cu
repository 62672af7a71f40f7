// block: 16, 16
#define TS 16
__global__ void matmul_at(const float *A, const float *B, float *C) {
    __shared__ float AsT[TS][TS];   // AsT[k][row]: A tile stored transposed
    __shared__ float Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    float acc = 0.f;
    for (int t = 0; t < 64 / TS; ++t) {
        AsT[tx][ty] = A[ty * 64 + t * TS + tx];
        Bs[ty][tx] = B[(t * TS + ty) * 64 + tx];
        __syncthreads();
        for (int k = 0; k < TS; ++k)
            acc += AsT[k][ty] * Bs[k][tx];
        __syncthreads();
    }
    C[ty * 64 + tx] = acc;
}
