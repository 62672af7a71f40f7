// block: 32
// input: x = fft_in_128.npy
// input: tw = twiddles_64.npy
// a 64-point radix-2 decimation-in-time FFT of complex floats (small-integer inputs) in shared
// memory: bit-reversed load (__brev), 6 butterfly stages of 32 butterflies (one per thread) with
// float2 accesses and twiddles read from a shared table (computed on the host), separate
// multiplies and adds written with __fmul_rn / __fadd_rn so that no fma contraction changes them
__global__ void fft64_radix2_butterfly(const float2 *x, const float2 *tw, float2 *out) {
    __shared__ float2 a[64];
    __shared__ float2 w[32];
    int t = threadIdx.x;
    a[__brev(t) >> 26] = x[t];
    a[__brev(t + 32) >> 26] = x[t + 32];
    w[t] = tw[t];
    __syncthreads();
    for (int half = 1, step = 32; half < 64; half <<= 1, step >>= 1) {
        int g = t / half, j = t % half;
        int i0 = g * 2 * half + j, i1 = i0 + half;
        float2 u = a[i0], v = a[i1], c = w[j * step];
        float re = __fadd_rn(__fmul_rn(v.x, c.x), -__fmul_rn(v.y, c.y));
        float im = __fadd_rn(__fmul_rn(v.x, c.y), __fmul_rn(v.y, c.x));
        __syncwarp();
        a[i0] = make_float2(__fadd_rn(u.x, re), __fadd_rn(u.y, im));
        a[i1] = make_float2(__fadd_rn(u.x, -re), __fadd_rn(u.y, -im));
        __syncwarp();
    }
    out[t] = a[t];
    out[t + 32] = a[t + 32];
}
