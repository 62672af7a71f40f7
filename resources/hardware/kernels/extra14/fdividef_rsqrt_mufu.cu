// block: 128
// input: in = floats_1024.npy
// approximate (MUFU) functions whose results are written: __fdividef, rsqrtf, __expf, __sinf,
// __cosf, __log2f, __frsqrt_rn and exp2f of integers (exact powers of two), against IEEE
// sqrtf and x / y of the same shared values (results may differ in the last bit on other GPUs)
__global__ void fdividef_rsqrt_mufu(const float *in, float *out) {
    __shared__ float a[1024];
    int t = threadIdx.x;
    for (int i = t; i < 1024; i += 128) a[i] = in[i];
    __syncthreads();
    for (int k = 0; k < 8; ++k) {
        int i = k * 128 + t;
        float x = a[i], y = a[(i + 1) & 1023];
        float *o = out + i * 8;
        o[0] = __fdividef(x, y);
        o[1] = rsqrtf(fabsf(x) + 0.5f);
        o[2] = __expf(x * 0.25f);
        o[3] = __sinf(x) + __cosf(y);
        o[4] = __log2f(fabsf(y) + 1.0f);
        o[5] = exp2f(truncf(x));
        o[6] = sqrtf(fabsf(x)) - x / y;
        o[7] = __frsqrt_rn(fabsf(y) + 1.0f);
    }
}
