// block: 128
// input: in = floats_1024.npy
// input: r = rounding_1024.npy
// IEEE float division and reciprocal with runtime operands from shared memory, including the
// slow paths (subnormal and huge divisors from the data): x / y, __fdiv_rn / __fdiv_rz,
// __frcp_rn / __frcp_rd, __fsqrt_rn / __fsqrt_ru, and fmodf / remainderf of exact values
__global__ void float_div_rcp_ieee(const float *in, const float *r, float *out) {
    __shared__ float a[1024], b[1024];
    int t = threadIdx.x;
    for (int i = t; i < 1024; i += 128) { a[i] = in[i]; b[i] = r[i]; }
    __syncthreads();
    for (int k = 0; k < 8; ++k) {
        int i = k * 128 + t;
        float x = a[i], y = b[i] + (b[i] == 0.0f ? 1.0f : 0.0f);
        float *o = out + i * 8;
        o[0] = x / y;
        o[1] = __fdiv_rn(y, x);
        o[2] = __fdiv_rz(x, y * 3.0f);
        o[3] = __frcp_rn(y);
        o[4] = __frcp_rd(x);
        o[5] = __fsqrt_rn(fabsf(y)) + __fsqrt_ru(fabsf(x));
        o[6] = fmodf(b[i], 7.5f);
        o[7] = remainderf(b[i], 2.0f);
    }
}
