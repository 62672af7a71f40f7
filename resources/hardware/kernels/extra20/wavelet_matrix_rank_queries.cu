// block: 256
// input: bits = wm_bits_96.npy
// input: pre = wm_pre_99.npy
// input: zeros = wm_zeros_3.npy
// input: q = wm_q_1024.npy
// rank queries on a wavelet matrix (1024 symbols of 3 bits): three levels of bitmaps with per-word
// prefix counts in shared memory; each query (symbol, position) descends the levels, its word
// and prefix addresses from the data, counting with __popc under a lane mask
__device__ int rank1(const unsigned *b, const int *p, int i) {
    return p[i >> 5] + __popc(b[i >> 5] & ((1u << (i & 31)) - 1u));
}
__global__ void wavelet_rank(const unsigned *bits, const int *pre, const int *zeros, const int *q, int *out) {
    __shared__ unsigned b[3][33];
    __shared__ int p[3][33];
    __shared__ int z[3];
    int t = threadIdx.x;
    if (t < 99) { p[t / 33][t % 33] = pre[t]; b[t / 33][t % 33] = t % 33 < 32 ? bits[(t / 33) * 32 + t % 33] : 0u; }
    if (t < 3) z[t] = zeros[t];
    __syncthreads();
    for (int k = t; k < 1024; k += 256) {
        int c = q[k] & 7, i = (q[k] >> 3) % 1025, st = 0;
        for (int l = 0; l < 3; ++l) {
            if ((c >> (2 - l)) & 1) {
                i = z[l] + rank1(b[l], p[l], i);
                st = z[l] + rank1(b[l], p[l], st);
            } else {
                i = i - rank1(b[l], p[l], i);
                st = st - rank1(b[l], p[l], st);
            }
        }
        out[k] = i - st;
    }
}
