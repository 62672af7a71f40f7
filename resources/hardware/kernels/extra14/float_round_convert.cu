// block: 128
// input: in = rounding_1024.npy
// exact float rounding and conversions on shared floats with ties (x.5), -0.0, a subnormal and
// values beyond the int range: truncf, floorf, ceilf, rintf, roundf, __float2int_rn / _rz / _rd /
// _ru (saturating), __float2uint_rn, __float2ll_rz, __int2float_rn / _rz of the results,
// __float_as_int / __int_as_float bit tricks
__global__ void float_round_convert(const float *in, int *out) {
    __shared__ float f[1024];
    __shared__ int b[1024];
    int t = threadIdx.x;
    for (int i = t; i < 1024; i += 128) { f[i] = in[i]; b[i] = __float_as_int(in[i]); }
    __syncthreads();
    for (int k = 0; k < 8; ++k) {
        int i = k * 128 + t;
        float x = f[i];
        int *o = out + i * 16;
        o[0] = __float_as_int(truncf(x));  o[1] = __float_as_int(floorf(x));
        o[2] = __float_as_int(ceilf(x));   o[3] = __float_as_int(rintf(x));
        o[4] = __float_as_int(roundf(x));  o[5] = __float2int_rn(x);
        o[6] = __float2int_rz(x);          o[7] = __float2int_rd(x);
        o[8] = __float2int_ru(x);          o[9] = (int)__float2uint_rn(x);
        long long ll = __float2ll_rz(x);
        o[10] = (int)ll;                   o[11] = (int)(ll >> 32);
        o[12] = __float_as_int(__int2float_rn(b[i]));
        o[13] = __float_as_int(__int2float_rz(b[i] ^ 0x55555));
        o[14] = __float_as_int(__uint2float_rn((unsigned)b[i]));
        o[15] = __float_as_int(__int_as_float(b[i] & 0x7fffffff) * -1.0f);
    }
}
