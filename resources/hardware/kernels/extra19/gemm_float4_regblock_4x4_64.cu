// block: 16, 16
// input: a = normal_4096.npy
// input: b = floats_1024.npy
// C (64 x 64) = A (64 x 16) * B (16 x 64): A transposed into As[16][68] and B as Bs[16][64],
// each thread a 4 x 4 register block read as float4 from both tiles (rows ty*4, columns tx*4)
__global__ void gemm_float4_4x4(const float *a, const float *b, float *c) {
    __shared__ __align__(16) float As[16][68];
    __shared__ __align__(16) float Bs[16][64];
    int tx = threadIdx.x, ty = threadIdx.y, t = ty * 16 + tx;
    for (int i = t; i < 1024; i += 256) {
        int r = i >> 4, k = i & 15;         // A is 64 x 16, row-major
        As[k][r] = a[i];
        Bs[i >> 6][i & 63] = b[i];
    }
    __syncthreads();
    float acc[4][4] = {};
#pragma unroll 4
    for (int k = 0; k < 16; ++k) {
        float4 av = *reinterpret_cast<const float4 *>(&As[k][ty * 4]);
        float4 bv = *reinterpret_cast<const float4 *>(&Bs[k][tx * 4]);
        float ar[4] = {av.x, av.y, av.z, av.w}, br[4] = {bv.x, bv.y, bv.z, bv.w};
        for (int i = 0; i < 4; ++i)
            for (int j = 0; j < 4; ++j) acc[i][j] += ar[i] * br[j];
    }
    for (int i = 0; i < 4; ++i)
        *reinterpret_cast<float4 *>(&c[(ty * 4 + i) * 64 + tx * 4]) = make_float4(acc[i][0], acc[i][1], acc[i][2], acc[i][3]);
}
