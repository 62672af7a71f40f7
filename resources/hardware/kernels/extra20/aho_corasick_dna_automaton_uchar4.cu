// block: 128
// input: go = ac_goto_256.npy
// input: cnt = ac_out_64.npy
// input: text = dna_4096.npy
// Aho-Corasick matching of 8 DNA patterns: the automaton's goto table (short [states][4]) and
// match counts (unsigned char) in shared memory, the 4096-base text copied in as uchar4; each
// thread walks 32 bases after a 7-base lead-in (state addresses from the data), a shared total
__global__ void aho_corasick(const int *go, const int *cnt, const unsigned char *text, int *out) {
    __shared__ short g[256];
    __shared__ unsigned char oc[64];
    __shared__ unsigned char tx[4096];
    __shared__ int total;
    int t = threadIdx.x;
    for (int i = t; i < 256; i += 128) g[i] = (short)go[i];
    if (t < 64) oc[t] = (unsigned char)cnt[t];
    for (int i = t; i < 1024; i += 128) reinterpret_cast<uchar4 *>(tx)[i] = reinterpret_cast<const uchar4 *>(text)[i];
    if (t == 0) total = 0;
    __syncthreads();
    int start = t * 32, s = 0, c = 0;
    for (int p = max(0, start - 7); p < start + 32; ++p) {
        s = g[s * 4 + tx[p]];
        if (p >= start) c += oc[s];
    }
    out[t] = c;
    atomicAdd(&total, c);
    __syncthreads();
    if (t == 0) out[128] = total;
}
