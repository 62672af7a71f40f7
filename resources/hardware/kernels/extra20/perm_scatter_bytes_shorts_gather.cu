// block: 256
// input: perm = perm_1024.npy
// input: bytes = bytes_4096.npy
// input: vals = ints_1024.npy
// scatters through a permutation into shared memory as bytes and shorts (8- and 16-bit stores at
// data addresses), its inverse built the same way, then gathers through the permutation's square
// and through the inverse at a stride
__global__ void perm_scatter_small(const int *perm, const unsigned char *bytes, const int *vals, unsigned char *ob, short *os) {
    __shared__ unsigned char b[1024];
    __shared__ short s[1024];
    __shared__ short inv[1024];
    __shared__ short p[1024];
    int t = threadIdx.x;
    for (int i = t; i < 1024; i += 256) {
        int q = perm[i];
        p[i] = (short)q;
        b[q] = bytes[i];
        s[q] = (short)(vals[i] - 500);
        inv[q] = (short)i;
    }
    __syncthreads();
    for (int i = t; i < 1024; i += 256) {
        ob[i] = b[p[p[i]]];
        ob[1024 + i] = b[inv[(i * 7) & 1023]] ^ b[i];
        os[i] = s[inv[i]] + s[p[(i * 33) & 1023]];
    }
}
