// block: 128
// input: bits = bitmap_256.npy
// input: q = ints_1024.npy
// rank queries on an 8192-bit bitmap in shared memory (dense and sparse stretches): a per-word
// prefix of popcounts (a Hillis-Steele scan over 256 words), then rank(i) = prefix[i / 32] +
// popc(word & mask) for positions from the data (scaled to 0..8191), and a select-style walk
// that skips words until the query's count of set bits is reached (at most 64 words)
__global__ void bitmap_rank(const unsigned *bits, const int *q, int *out) {
    __shared__ unsigned words[256];
    __shared__ int pre[2][257];
    int t = threadIdx.x;
    for (int i = t; i < 256; i += 128) {
        words[i] = bits[i];
        pre[0][i + 1] = __popc(bits[i]);
    }
    if (t == 0) { pre[0][0] = 0; pre[1][0] = 0; }
    __syncthreads();
    int cur = 0;
    for (int d = 1; d < 256; d <<= 1) {
        for (int i = t + 1; i <= 256; i += 128)
            pre[cur ^ 1][i] = pre[cur][i] + (i > d ? pre[cur][i - d] : 0);
        cur ^= 1;
        __syncthreads();
    }
    for (int j = 0; j < 8; ++j) {
        int pos = (q[j * 128 + t] * 8192) / 1000;
        int w = pos >> 5;
        unsigned m = (1u << (pos & 31)) - 1;
        int rank = pre[cur][w] + __popc(words[w] & m);
        int need = q[(j * 128 + t + 1) & 1023] & 63, k = w, n = 0;
        while (k < 256 && k < w + 64 && n + __popc(words[k]) < need) n += __popc(words[k++]);
        out[j * 128 + t] = rank;
        out[1024 + j * 128 + t] = k - w;
    }
}
