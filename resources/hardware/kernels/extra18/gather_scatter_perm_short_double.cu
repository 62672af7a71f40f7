// block: 256
// input: perm = perm_1024.npy
// input: in = floats_1024.npy
// a gather and a scatter through a permutation from the data, on 2-byte and 8-byte elements: a
// short[1024] and a double[1024] in shared memory (dynamic-free, 10 KiB), a[p[i]] gathers, b[p[i]]
// = scatters, and p[p[i]] composed
__global__ void gather_scatter_sd(const int *perm, const float *in, short *sout, double *dout) {
    __shared__ short s[1024];
    __shared__ double d[1024];
    __shared__ short s2[1024];
    int t = threadIdx.x;
    for (int i = t; i < 1024; i += 256) { s[i] = (short)(in[i] * 4.f); d[i] = (double)in[i] * 3.0; }
    __syncthreads();
    for (int i = t; i < 1024; i += 256) {
        int p = perm[i];
        short a = s[p];
        double b = d[p];
        sout[i] = a;
        dout[i] = b;
        s2[p] = (short)(i - 512);
    }
    __syncthreads();
    for (int i = t; i < 1024; i += 256) {
        int p = perm[perm[i]];
        sout[1024 + i] = s2[p];
        d[p] = d[p] + 1.0;  // p runs over a permutation: no two threads write one element
    }
    __syncthreads();
    for (int i = t; i < 1024; i += 256) dout[1024 + i] = d[i];
}
