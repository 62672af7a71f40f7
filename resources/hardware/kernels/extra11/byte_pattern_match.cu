// block: 128
// input: text = text_4096.npy
// input: pattern = pattern_4.npy
// count where a 4-byte pattern occurs in 2048 bytes of text staged in shared memory; each position's
// comparison stops at the first mismatch
__global__ void byte_pattern_match(const unsigned char *text, const unsigned char *pattern, int *out) {
    __shared__ unsigned char s_text[2048 + 4];
    __shared__ unsigned char s_pat[4];
    int t = threadIdx.x;
    for (int i = t; i < 2048 + 4; i += 128) s_text[i] = text[i];
    if (t < 4) s_pat[t] = pattern[t];
    __syncthreads();
    int hits = 0;
    for (int pos = t; pos < 2048; pos += 128) {
        int k = 0;
        while (k < 4 && s_text[pos + k] == s_pat[k]) ++k;
        if (k == 4) { ++hits; out[128 + pos] = 1; }
    }
    out[t] = hits;
}
