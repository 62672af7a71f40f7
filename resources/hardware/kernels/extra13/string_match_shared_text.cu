// block: 256
// input: text = text_4096.npy
// input: pats = patterns_32.npy
// naive multi-pattern string matching over a shared copy of 4096 bytes of English-like text:
// four zero-terminated patterns (8 bytes each) in shared memory; each thread tests 16
// consecutive positions against each pattern, comparing byte by byte until a mismatch (trip
// counts from the data), and counts matches per pattern with integer shared atomics
__global__ void string_match(const unsigned char *text, const unsigned char *pats, int *out) {
    __shared__ __align__(16) unsigned char s[4096 + 8];
    __shared__ unsigned char p[32];
    __shared__ int count[4];
    int t = threadIdx.x;
    for (int i = t; i < 4096 / 4; i += 256) reinterpret_cast<unsigned *>(s)[i] = reinterpret_cast<const unsigned *>(text)[i];
    if (t < 8) s[4096 + t] = 0;
    if (t < 32) p[t] = pats[t];
    if (t < 4) count[t] = 0;
    __syncthreads();
    int first = -1;
    for (int q = 0; q < 4; ++q) {
        int hits = 0;
        for (int pos = t * 16; pos < t * 16 + 16; ++pos) {
            int k = 0;
            while (k < 8 && p[q * 8 + k] != 0 && s[pos + k] == p[q * 8 + k]) ++k;
            if (k == 8 || p[q * 8 + k] == 0) {
                ++hits;
                if (first < 0) first = pos;
            }
        }
        if (hits) atomicAdd(&count[q], hits);
    }
    __syncthreads();
    out[t] = first;
    if (t < 4) out[256 + t] = count[t];
}
