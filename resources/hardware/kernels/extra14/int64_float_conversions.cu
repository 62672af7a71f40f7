// block: 128
// input: in = u64_pairs_1024.npy
// 64-bit integer <-> floating conversions on shared values: __ull2float_rn / __ll2float_rz,
// __ull2double_rd, __ll2double_rn, (float) and (double) casts of unsigned long long, and back
// with __double2ull_rz, __float2ull_ru (saturating), __double2ll_rd; the 64-bit keys have
// only-low, only-high and zero values
__global__ void int64_float_conversions(const unsigned long long *in, unsigned long long *out) {
    __shared__ unsigned long long v[512];
    int t = threadIdx.x;
    for (int i = t; i < 512; i += 128) v[i] = in[i];
    __syncthreads();
    for (int k = 0; k < 4; ++k) {
        int i = k * 128 + t;
        unsigned long long x = v[i];
        long long sx = (long long)v[511 - i];
        unsigned long long *o = out + i * 8;
        o[0] = __float_as_uint(__ull2float_rn(x));
        o[1] = __float_as_uint(__ll2float_rz(sx));
        o[2] = __double_as_longlong(__ull2double_rd(x));
        o[3] = __double_as_longlong(__ll2double_rn(sx));
        o[4] = __double_as_longlong((double)(float)x);
        o[5] = __double2ull_rz((double)x * 0.75);
        o[6] = __float2ull_ru(__ull2float_rn(x) * 2.5f);
        o[7] = (unsigned long long)__double2ll_rd((double)sx / 3.0);
    }
}
