// block: 128
// input: in = ints_1024.npy
// shared addresses from 64-bit division and modulo by a divisor known only at run time (the int
// parameter n): nvcc calls its 64-bit division routine (CALL/RET) for / and %, signed and unsigned
__global__ void int64_divmod(const int *in, float *out, int n) {
    __shared__ float s[2048];
    int t = threadIdx.x;
    for (int i = t; i < 2048; i += 128) s[i] = (float)i;
    __syncthreads();
    float a = 0.f;
    for (int k = 0; k < 8; ++k) {
        long long g = (long long)in[k * 128 + t] * 1000003LL + (long long)t * 4096;
        long long q = g / n, r = g % n;
        unsigned long long u = (unsigned long long)g / (unsigned long long)(n + 3);
        a += s[(int)(q % 2048)] + s[(int)(r * 32 % 2048)] + s[(int)(u & 2047)];
    }
    out[t] = a;
}
