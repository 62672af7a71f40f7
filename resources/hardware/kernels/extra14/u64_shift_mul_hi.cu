// block: 128
// input: in = u64_pairs_1024.npy
// input: sh = ints_1024.npy
// 64-bit arithmetic on shared values: left, logical right and arithmetic right shifts by
// data-driven amounts 0..63, 64-bit multiplies (low half), __umul64hi / __mul64hi, 32-bit
// __umulhi / __mulhi, and a 64-bit multiply-add chain (a linear congruential step)
__global__ void u64_shift_mul_hi(const unsigned long long *in, const int *sh, unsigned long long *out) {
    __shared__ unsigned long long v[512];
    __shared__ int s[512];
    int t = threadIdx.x;
    for (int i = t; i < 512; i += 128) { v[i] = in[i]; s[i] = sh[i] & 63; }
    __syncthreads();
    for (int k = 0; k < 4; ++k) {
        int i = k * 128 + t;
        unsigned long long x = v[i], y = v[511 - i];
        int n = s[i];
        unsigned long long *o = out + i * 8;
        o[0] = x << n;
        o[1] = x >> n;
        o[2] = (unsigned long long)((long long)x >> n);
        o[3] = x * y;
        o[4] = __umul64hi(x, y);
        o[5] = (unsigned long long)__mul64hi((long long)x, (long long)y);
        o[6] = (unsigned long long)__umulhi((unsigned)x, (unsigned)y) << 32 | (unsigned)__mulhi((int)x, (int)(y >> 32));
        unsigned long long z = x;
        for (int j = 0; j < n % 8; ++j) z = z * 6364136223846793005ull + 1442695040888963407ull;
        o[7] = z;
    }
}
