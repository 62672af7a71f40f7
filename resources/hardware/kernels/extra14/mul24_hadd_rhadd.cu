// block: 128
// input: in = keys_1024.npy
// 24-bit multiplies and halving adds on shared ints: __mul24 / __umul24 (only the low 24 bits of
// each operand count), __mulhi of 24-bit products, __hadd / __rhadd (signed average without
// overflow, floor and round-up) and __uhadd / __urhadd on large values near the type limits
__global__ void mul24_hadd_rhadd(const int *in, int *out) {
    __shared__ int a[1024];
    int t = threadIdx.x;
    for (int i = t; i < 1024; i += 128) a[i] = in[i];
    __syncthreads();
    for (int k = 0; k < 8; ++k) {
        int i = k * 128 + t;
        int x = a[i], y = a[(i + 333) & 1023];
        unsigned ux = (unsigned)x, uy = (unsigned)y;
        out[i] = __mul24(x, y);
        out[1024 + i] = (int)__umul24(ux, uy);
        out[2048 + i] = __hadd(x, y);
        out[3072 + i] = __rhadd(x, y);
        out[4096 + i] = (int)__uhadd(ux, uy);
        out[5120 + i] = (int)__urhadd(ux, uy);
        out[6144 + i] = __mul24(x >> 8, 3) + __mulhi(x, y);
    }
}
