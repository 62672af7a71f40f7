// block: 64, 4
#define BM 16
#define BN 64
#define BK 16
__global__ void matmul_rect(const float *A, const float *B, float *C) {
    __shared__ float As[BM][BK];
    __shared__ float Bs[BK][BN];
    int tx = threadIdx.x, ty = threadIdx.y;
    int tid = ty * BN + tx;
    float acc[4] = {0.f, 0.f, 0.f, 0.f};
    for (int kt = 0; kt < 64; kt += BK) {
        As[tid / BK][tid % BK] = A[(tid / BK) * 64 + kt + tid % BK];
        for (int r = ty; r < BK; r += 4)
            Bs[r][tx] = B[(kt + r) * 64 + tx];
        __syncthreads();
        for (int k = 0; k < BK; ++k) {
            float b = Bs[k][tx];
            for (int i = 0; i < 4; ++i)
                acc[i] += As[ty * 4 + i][k] * b;
        }
        __syncthreads();
    }
    for (int i = 0; i < 4; ++i)
        C[(ty * 4 + i) * 64 + tx] = acc[i];
}
