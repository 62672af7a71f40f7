// block: 128
// input: in = rounding_1024.npy
// input: g = floats_1024.npy
// exact float operations on shared data: fminf / fmaxf (with -0.0 against +0.0), fabsf,
// copysignf, fdimf, and directed-rounding intrinsics __fadd_rd / __fadd_ru / __fmul_rz /
// __fmul_rd / __fmaf_rn / __fmaf_rz / __fsub_ru, __saturatef
__global__ void float_minmax_copysign_rm(const float *in, const float *g, float *out) {
    __shared__ float a[1024], b[1024];
    int t = threadIdx.x;
    for (int i = t; i < 1024; i += 128) { a[i] = in[i]; b[i] = g[i]; }
    __syncthreads();
    for (int k = 0; k < 8; ++k) {
        int i = k * 128 + t;
        float x = a[i], y = b[i], z = a[(i * 3 + 1) & 1023];
        float *o = out + i * 14;
        o[0] = fminf(x, y * 0.0f);   o[1] = fmaxf(x, -z);
        o[2] = fabsf(x) - fabsf(y);  o[3] = copysignf(y, x);
        o[4] = fdimf(x, y);          o[5] = __fadd_rd(x, y);
        o[6] = __fadd_ru(x, y);      o[7] = __fmul_rz(x, y);
        o[8] = __fmul_rd(y, z);      o[9] = __fmaf_rn(x, y, z);
        o[10] = __fmaf_rz(y, y, -x); o[11] = __fsub_ru(y, z);
        o[12] = __saturatef(y);      o[13] = __fmaf_rn(y, 3.0f, -y * 3.0f);
    }
}
