// block: 16, 16
// input: A = floats_1024.npy
// input: B = floats_1024.npy
// C (16 x 32) = A (16 x 32) B (32 x 32): each thread computes two neighbouring columns, reading B
// from a float2 shared array (one 8-byte load per k) and A as a broadcast
#define K 32
__global__ void matmul_float2_loads(const float *A, const float *B, float *C) {
    __shared__ float As[16][K];
    __shared__ float2 Bs[K][16];
    int tx = threadIdx.x, ty = threadIdx.y, t = ty * 16 + tx;
    for (int i = t; i < 16 * K; i += 256) As[i / K][i % K] = A[i];
    for (int i = t; i < K * 16; i += 256) Bs[i / 16][i % 16] = reinterpret_cast<const float2 *>(B)[i];
    __syncthreads();
    float2 acc = make_float2(0.f, 0.f);
#pragma unroll 8
    for (int k = 0; k < K; ++k) {
        float a = As[ty][k];
        float2 b = Bs[k][tx];
        acc.x += a * b.x;
        acc.y += a * b.y;
    }
    reinterpret_cast<float2 *>(C)[ty * 16 + tx] = acc;
}
