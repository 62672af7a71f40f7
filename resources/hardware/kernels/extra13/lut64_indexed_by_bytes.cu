// block: 128
// input: lut = lut64_512.npy
// input: idx = bytes_2048.npy
// a 256-entry table of 64-bit entries (unsigned long long) in shared memory indexed by skewed
// byte codes from global memory (LDS.64 with data-chosen addresses: many lanes on few entries),
// a second table of the entries' high words (32-bit) indexed by the next byte, XOR-combined
__global__ void lut64_bytes(const unsigned long long *lut, const unsigned char *idx,
                            unsigned long long *out) {
    __shared__ unsigned long long tab[256];
    __shared__ unsigned hi[257];
    int t = threadIdx.x;
    for (int i = t; i < 256; i += 128) {
        unsigned long long e = lut[i];
        tab[i] = e;
        hi[i] = (unsigned)(e >> 32);
    }
    if (t == 0) hi[256] = 0;
    __syncthreads();
    unsigned long long acc = 0;
    for (int j = 0; j < 16; ++j) {
        int a = idx[j * 128 + t];
        int b = idx[(j * 128 + t + 1) & 2047];
        acc ^= tab[a] + hi[b + (a & 1)];
        acc = (acc << 7) | (acc >> 57);
    }
    out[t] = acc;
}
