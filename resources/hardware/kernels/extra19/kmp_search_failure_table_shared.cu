// block: 256
// input: text = ab_text_4096.npy
// Knuth-Morris-Pratt search for "abaababa" in a 4096-byte text over {a, b}: the failure table
// built by thread 0 in shared memory, the text in shared memory, each thread scanning 16 bytes
// (plus 7 of overlap) and falling back through the table (data-dependent inner while loops)
__global__ void kmp_search(const unsigned char *text, int *out) {
    __shared__ unsigned char s[4096 + 8];
    __shared__ char pat[8];
    __shared__ int fail[9];
    __shared__ int hits;
    int t = threadIdx.x;
    const char *P = "abaababa";
    for (int i = t; i < 1024; i += 256) reinterpret_cast<unsigned *>(s)[i] = reinterpret_cast<const unsigned *>(text)[i];
    if (t < 8) { pat[t] = P[t]; s[4096 + t] = 0; }
    if (t == 0) {
        hits = 0;
        fail[0] = -1;
        int k = -1;
        for (int i = 0; i < 8; ++i) {
            while (k >= 0 && P[k] != P[i]) k = fail[k];
            fail[i + 1] = ++k;
        }
    }
    __syncthreads();
    int start = t * 16, k = 0, found = 0, steps = 0;
    for (int i = start; i < start + 16 + 7 && i < 4096; ++i) {
        unsigned char c = s[i];
        while (k >= 0 && pat[k] != c) { k = fail[k]; ++steps; }
        ++k;
        if (k == 8) {
            if (i - 7 >= start) { ++found; atomicAdd(&hits, 1); out[1024 + (i - 7) / 16] = i - 7; }
            k = fail[8];
        }
    }
    out[t] = found;
    out[256 + t] = steps;
    __syncthreads();
    if (t == 0) out[512] = hits;
}
