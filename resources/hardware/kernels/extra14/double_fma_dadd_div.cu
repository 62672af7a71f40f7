// block: 64
// input: in = floats_1024.npy
// double arithmetic staged in shared memory: fma, __dadd_rn / __dadd_rz, __dmul_ru, __fma_rd,
// IEEE double division and sqrt (the compiler's Newton subroutines with their slow paths),
// fmin / fmax, trunc / floor, and double -> float / int / long long conversions
__global__ void double_fma_dadd_div(const float *in, double *out) {
    __shared__ double a[512], b[512];
    int t = threadIdx.x;
    for (int i = t; i < 512; i += 64) { a[i] = (double)in[i] * 1.25; b[i] = (double)in[512 + i]; }
    __syncthreads();
    for (int k = 0; k < 8; ++k) {
        int i = k * 64 + t;
        double x = a[i], y = b[i], z = a[511 - i];
        double *o = out + i * 12;
        o[0] = fma(x, y, z);        o[1] = __dadd_rn(x, y);
        o[2] = __dadd_rz(x, z);     o[3] = __dmul_ru(x, y);
        o[4] = __fma_rd(y, z, x);   o[5] = x / y;
        o[6] = sqrt(fabs(x));       o[7] = fmin(x, y) + fmax(y, z);
        o[8] = trunc(x * 3.0) + floor(y * 7.0);
        o[9] = (double)(float)(x / 3.0);
        o[10] = (double)__double2int_rn(x * 1e9) + (double)__double2ll_rz(y * 1e12);
        o[11] = (double)__double2uint_ru(fabs(z) * 100.0);
    }
}
