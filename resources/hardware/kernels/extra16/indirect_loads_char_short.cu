// block: 128
// input: idx = idx_1024.npy
// input: bytes = bytes_2048.npy
// indirect loads s[idx[i]] from shared arrays of 1- and 2-byte elements: unsigned char c[1024]
// (four lanes can share a word), short h[1024], signed char via idx >> 1, and a short store
// through the indices (distinct slots by a bijection of idx positions)
__global__ void indirect_char_short(const int *idx, const unsigned char *bytes, int *out, short *sout) {
    __shared__ unsigned char c[1024];
    __shared__ short h[1024];
    __shared__ short hs[1024];
    int t = threadIdx.x;
    for (int i = t; i < 1024; i += 128) {
        c[i] = bytes[i];
        h[i] = (short)(bytes[1024 + i] * 129 - 16000);
        hs[i] = 0;
    }
    __syncthreads();
    int a = 0, b = 0, e = 0;
    for (int j = 0; j < 8; ++j) {
        int k = idx[j * 128 + t];
        a += c[k];
        b += h[k];
        e += (signed char)c[k >> 1];
        hs[(j * 128 + t) * 5 % 1024] = h[k ^ 1];
    }
    __syncthreads();
    out[t] = a;
    out[128 + t] = b;
    out[256 + t] = e;
    for (int i = t; i < 1024; i += 128) sout[i] = hs[i];
}
