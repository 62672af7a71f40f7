// block: 16, 16
#define BM 64
#define BN 64
#define BK 16
#define TM 4
#define TN 4

__global__ void gemm_tile(const float *A, const float *B, float *C, int n)
{
    __shared__ float As[BM][BK];
    __shared__ float Bs[BK][BN];
    int tx = threadIdx.x, ty = threadIdx.y;
    int tid = ty * 16 + tx;
    float acc[TM][TN];
    for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j)
            acc[i][j] = 0.f;

    for (int kt = 0; kt < 4; ++kt) {
        // 256 threads load a 64x16 tile of A and a 16x64 tile of B, four floats each
        for (int r = 0; r < 4; ++r) {
            As[tid / 16 + 16 * r][tid % 16] = A[(tid / 16 + 16 * r) * 64 + kt * BK + tid % 16];
            Bs[tid / 64 + 4 * r][tid % 64] = B[(kt * BK + tid / 64 + 4 * r) * 64 + tid % 64];
        }
        __syncthreads();
#pragma unroll
        for (int k = 0; k < BK; ++k) {
            float a[TM], b[TN];
            for (int i = 0; i < TM; ++i)
                a[i] = As[ty * TM + i][k];
            for (int j = 0; j < TN; ++j)
                b[j] = Bs[k][tx * TN + j];
            for (int i = 0; i < TM; ++i)
                for (int j = 0; j < TN; ++j)
                    acc[i][j] += a[i] * b[j];
        }
        __syncthreads();
    }
    for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j)
            C[(ty * TM + i) * 64 + tx * TN + j] = acc[i][j];
}
