// block: 256
// input: x = normal_4096.npy
// a histogram of normal floats by exponent and sign (64 bins from the bits: data-dependent and
// skewed): float atomicAdd of weights and unsigned long long atomicAdd of counts with a class field
// in the upper bits; a float CAS-free max per bin by atomicMax on the ordered int bits
__global__ void hist_exponent(const float *x, float *wsum, unsigned long long *cnt, int *mx) {
    __shared__ float ws[64];
    __shared__ unsigned long long c[64];
    __shared__ int m[64];
    int t = threadIdx.x;
    if (t < 64) { ws[t] = 0.f; c[t] = 0ull; m[t] = 0; }
    __syncthreads();
    for (int i = t; i < 4096; i += 256) {
        float v = x[i];
        int e = (int)((__float_as_uint(v) >> 23) & 255u) - 112;
        int b = min(max(e, 0), 31) * 2 + (v < 0.f);
        atomicAdd(&ws[b], 0.25f);
        atomicAdd(&c[b], 1ull + ((unsigned long long)(i & 3) << 40));
        atomicMax(&m[b], (int)(__float_as_uint(fabsf(v)) >> 8));
    }
    __syncthreads();
    if (t < 64) { wsum[t] = ws[t]; cnt[t] = c[t]; mx[t] = m[t]; }
}
