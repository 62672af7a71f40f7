// block: 32, 8
#define BK 32
// outer-product accumulation: As[k][ty] is a broadcast within each warp, Bs[k][tx] a contiguous row
__global__ void outer_bcast(const float *A, const float *B, float *C) {
    __shared__ float As[BK][8];
    __shared__ float Bs[BK][32];
    int tx = threadIdx.x, ty = threadIdx.y;
    int tid = ty * 32 + tx;
    As[tid / 8][tid % 8] = A[(tid % 8) * 64 + tid / 8];
    for (int i = 0; i < BK; i += 8)
        Bs[ty + i][tx] = B[(ty + i) * 64 + tx];
    __syncthreads();
    float acc = 0.f;
#pragma unroll
    for (int k = 0; k < BK; ++k)
        acc += As[k][ty] * Bs[k][tx];
    C[ty * 64 + tx] = acc;
}
