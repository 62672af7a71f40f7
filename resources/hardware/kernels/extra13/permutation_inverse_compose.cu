// block: 256
// input: perm = perm_1024.npy
// input: x = floats_1024.npy
// a permutation of 1024 in shared memory: its inverse built by the scatter inv[p[i]] = i, the
// composition p[p[i]] by a gather through itself, float2 values gathered through the inverse
// (8-byte loads at addresses from the data) and scattered through the composition (a bijection:
// every slot written once), then read back through the inverse
__global__ void perm_inverse_compose(const int *perm, const float *x, float *out, int *pout) {
    __shared__ int p[1024];
    __shared__ int inv[1024];
    __shared__ float2 v[512];
    __shared__ float w[1024];
    int t = threadIdx.x;
    for (int i = t; i < 1024; i += 256) p[i] = perm[i];
    for (int i = t; i < 512; i += 256) v[i] = make_float2(x[2 * i], x[2 * i + 1]);
    __syncthreads();
    for (int i = t; i < 1024; i += 256) inv[p[i]] = i;
    __syncthreads();
    for (int i = t; i < 1024; i += 256) {
        int pp = p[p[i]];
        pout[i] = pp ^ inv[i];
        float2 a = v[inv[i] >> 1];
        float2 b = v[p[i] >> 1];
        w[pp] = (i & 1) ? a.x + b.y : a.y - b.x;
    }
    __syncthreads();
    for (int i = t; i < 1024; i += 256) out[i] = w[inv[i]] * 2.f + w[i];
}
