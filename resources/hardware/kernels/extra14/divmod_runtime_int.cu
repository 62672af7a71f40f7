// block: 128
// input: in = keys_1024.npy
// input: div = divisors_1024.npy
// 32-bit division and modulo by runtime divisors read from shared memory: signed / and % with
// both signs (divisors include -1, 1, powers of two and values near 2^31), unsigned / and % of the
// same bits, and a division by the runtime int parameter n (64 on the launch)
__global__ void divmod_runtime_int(const int *in, const int *div, int *out, int n) {
    __shared__ int a[1024];
    __shared__ int d[1024];
    int t = threadIdx.x;
    for (int i = t; i < 1024; i += 128) { a[i] = in[i]; d[i] = div[i]; }
    __syncthreads();
    for (int k = 0; k < 8; ++k) {
        int i = k * 128 + t;
        int x = a[i], y = d[(i * 5) & 1023];
        if (x == (int)0x80000000 && y == -1) y = 1;
        out[i] = x / y;
        out[1024 + i] = x % y;
        unsigned ux = (unsigned)x, uy = (unsigned)y;
        out[2048 + i] = (int)(ux / uy);
        out[3072 + i] = (int)(ux % uy);
        out[4096 + i] = x / n + (x % (n - 5));
    }
}
