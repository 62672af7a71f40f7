// block: 512
// input: p = perm_1024.npy
// input: e = ints_1024.npy
// p^k of a permutation of 1024 by repeated squaring in shared memory, k from the data (bits
// decide whether a step multiplies): two double-buffered arrays gathered at indices from the data
__global__ void perm_power(const int *p, const int *e, int *out) {
    __shared__ short sq[2][1024];
    __shared__ short acc[2][1024];
    int t = threadIdx.x;
    for (int i = t; i < 1024; i += 512) { sq[0][i] = (short)p[i]; acc[0][i] = (short)i; }
    int k = e[0] * 37 + e[1], cs = 0, ca = 0;
    __syncthreads();
    while (k) {
        if (k & 1) {
            for (int i = t; i < 1024; i += 512) acc[ca ^ 1][i] = sq[cs][acc[ca][i]];
            ca ^= 1;
        }
        for (int i = t; i < 1024; i += 512) sq[cs ^ 1][i] = sq[cs][sq[cs][i]];
        cs ^= 1;
        k >>= 1;
        __syncthreads();
    }
    for (int i = t; i < 1024; i += 512) out[i] = acc[ca][i];
}
