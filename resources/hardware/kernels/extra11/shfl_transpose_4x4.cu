// block: 128
// input: in = floats_1024.npy
// 32 x 32 transpose in 4 x 4 blocks: four lanes read a block's rows as float4, transpose it in
// registers with two __shfl_xor_sync exchanges, and write the columns as float4 at the mirrored block
__global__ void shfl_transpose_4x4(const float *in, float *out) {
    __shared__ __align__(16) float tile[32][32];
    __shared__ __align__(16) float res[32][32];
    int t = threadIdx.x, r = t & 3, g = t >> 2;
    for (int i = t; i < 1024; i += 128) tile[i / 32][i % 32] = in[i];
    __syncthreads();
    for (int half = 0; half < 2; ++half) {
        int bi = g / 8 + 4 * half, bj = g % 8;
        float4 v = *reinterpret_cast<const float4 *>(&tile[4 * bi + r][4 * bj]);
        bool lo = (r & 2) == 0;  // swap the off-diagonal 2 x 2 blocks with lane r ^ 2
        float s0 = lo ? v.z : v.x, s1 = lo ? v.w : v.y;
        s0 = __shfl_xor_sync(0xffffffffu, s0, 2);
        s1 = __shfl_xor_sync(0xffffffffu, s1, 2);
        if (lo) { v.z = s0; v.w = s1; } else { v.x = s0; v.y = s1; }
        bool even = (r & 1) == 0;  // then transpose each 2 x 2 block with lane r ^ 1
        s0 = even ? v.y : v.x;
        s1 = even ? v.w : v.z;
        s0 = __shfl_xor_sync(0xffffffffu, s0, 1);
        s1 = __shfl_xor_sync(0xffffffffu, s1, 1);
        if (even) { v.y = s0; v.w = s1; } else { v.x = s0; v.z = s1; }
        *reinterpret_cast<float4 *>(&res[4 * bj + r][4 * bi]) = v;
    }
    __syncthreads();
    for (int i = t; i < 1024; i += 128) out[i] = res[i / 32][i % 32];
}
