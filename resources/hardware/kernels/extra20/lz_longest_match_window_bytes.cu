// block: 256
// input: text = lz_text_1024.npy
// LZ77 parsing's inner search: for each of 1024 positions the longest match (up to 32 bytes) in
// the 32 bytes before it, the text in shared memory; byte compares at data-dependent offsets,
// continue on a first-byte miss, break at the first mismatch; lengths and distances as ushort
__global__ void lz_longest_match(const unsigned char *text, unsigned short *out) {
    __shared__ unsigned char s[1024 + 32];
    int t = threadIdx.x;
    for (int i = t; i < 1024; i += 256) s[i] = text[i];
    if (t < 32) s[1024 + t] = 0xff;
    __syncthreads();
    for (int k = 0; k < 4; ++k) {
        int p = k * 256 + t, best = 0, dist = 0;
        for (int d = 1; d <= 32 && d <= p; ++d) {
            if (s[p - d] != s[p]) continue;
            int n = 1;
            while (n < 32 && p + n < 1024) {
                if (s[p - d + n] != s[p + n]) break;
                ++n;
            }
            if (n > best) { best = n; dist = d; }
        }
        out[2 * p] = (unsigned short)best;
        out[2 * p + 1] = (unsigned short)dist;
    }
}
