// block: 16, 16
#define TILE 16
__global__ void matmul_f2(const float *A, const float *B, float *C) {
    __shared__ float As[TILE][TILE];
    __shared__ __align__(8) float Bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    As[ty][tx] = A[ty * TILE + tx];
    Bs[ty][tx] = B[ty * TILE + tx];
    __syncthreads();
    float acc = 0.f;
#pragma unroll
    for (int k = 0; k < TILE; ++k) {
        float2 b = reinterpret_cast<float2 *>(&Bs[k][0])[tx / 2];
        acc += As[ty][k] * ((tx & 1) ? b.y : b.x);
    }
    C[ty * TILE + tx] = acc;
}
