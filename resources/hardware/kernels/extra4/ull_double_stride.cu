// block: 64
__global__ void wide_types(const unsigned long long *a, const double *b, unsigned long long *oa, double *ob) {
    __shared__ unsigned long long u[64 * 2];
    __shared__ double d[64 * 3];
    int t = threadIdx.x;
    u[2 * t] = a[t];
    u[2 * t + 1] = a[t] ^ 0xffull;
    d[3 * t] = b[t];
    d[3 * t + 1] = b[t] * 2.0;
    d[3 * t + 2] = 0.0;
    __syncthreads();
    unsigned long long x = u[t] + u[(t * 4) % 128];
    double y = d[t] + d[(t * 3 + 1) % 192] + d[(t * 8) % 192];
    oa[t] = x;
    ob[t] = y;
}
