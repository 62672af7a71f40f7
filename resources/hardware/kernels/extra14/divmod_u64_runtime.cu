// block: 64
// input: in = u64_pairs_1024.npy
// input: div = divisors_1024.npy
// 64-bit division and modulo by runtime divisors (the compiler's __internal 64-bit divide
// subroutine): unsigned 64 / 64, signed 64 / 32-bit-sign-extended, and % of both; divisors come
// from shared memory, some with high bits (from the 64-bit keys), some small or negative
__global__ void divmod_u64_runtime(const unsigned long long *in, const int *div, unsigned long long *out) {
    __shared__ unsigned long long a[512];
    __shared__ long long d[512];
    int t = threadIdx.x;
    for (int i = t; i < 512; i += 64) {
        a[i] = in[i];
        long long q = div[i];
        d[i] = (i & 3) == 0 ? (long long)((in[(i + 7) & 511] >> 17) | 1) : q;
    }
    __syncthreads();
    for (int k = 0; k < 8; ++k) {
        int i = k * 64 + t;
        unsigned long long x = a[i];
        long long y = d[(i * 3) & 511];
        unsigned long long uy = (unsigned long long)y;
        out[i] = x / uy;
        out[512 + i] = x % uy;
        long long sx = (long long)x;
        out[1024 + i] = (unsigned long long)(sx / y);
        out[1536 + i] = (unsigned long long)(sx % y);
    }
}
