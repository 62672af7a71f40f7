// block: 16, 16
// input: A = normal_4096.npy
// input: B = floats_1024.npy
// SGEMM of a 64 x 64 C tile, K = 64, register-blocked 4 x 4 a thread: A's 64 x 8 slab stored
// transposed (As[8][64], written with a scatter), B's 8 x 64 slab as Bs[8][64]; inner loop reads
// both as float4 (LDS.128), accumulators written with float4 stores
__global__ void sgemm_regblock(const float *A, const float *B, float *C) {
    __shared__ __align__(16) float As[8][64];
    __shared__ __align__(16) float Bs[8][64];
    int tx = threadIdx.x, ty = threadIdx.y, t = ty * 16 + tx;
    float acc[4][4] = {};
    for (int k0 = 0; k0 < 64; k0 += 8) {
        for (int i = t; i < 512; i += 256) {
            int m = i / 8, k = i % 8;
            As[k][m] = A[m * 64 + k0 + k];
            int kb = i / 64, n = i % 64;
            Bs[kb][n] = B[((k0 + kb) * 64 + n) & 1023];
        }
        __syncthreads();
#pragma unroll
        for (int k = 0; k < 8; ++k) {
            float4 a = *reinterpret_cast<const float4 *>(&As[k][ty * 4]);
            float4 b = *reinterpret_cast<const float4 *>(&Bs[k][tx * 4]);
            float av[4] = {a.x, a.y, a.z, a.w}, bv[4] = {b.x, b.y, b.z, b.w};
#pragma unroll
            for (int i = 0; i < 4; ++i)
#pragma unroll
                for (int j = 0; j < 4; ++j) acc[i][j] += av[i] * bv[j];
        }
        __syncthreads();
    }
    for (int i = 0; i < 4; ++i)
        *reinterpret_cast<float4 *>(&C[(ty * 4 + i) * 64 + tx * 4]) = make_float4(acc[i][0], acc[i][1], acc[i][2], acc[i][3]);
}
