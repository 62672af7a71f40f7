// block: 128
// input: in = ints_1024.npy
// votes on partial masks: __ballot_sync, __any_sync, __all_sync inside a branch taken by the
// lanes whose shared value passes a test (mask from __activemask), __match_all_sync with its
// predicate output on full and partial masks (values equal in some 8-lane groups by design),
// __popc / __ffs / __fns of the masks
__global__ void vote_ballot_match_all(const int *in, int *out) {
    __shared__ int s[1024];
    int t = threadIdx.x, lane = t & 31;
    for (int i = t; i < 1024; i += 128) s[i] = in[i];
    __syncthreads();
    for (int k = 0; k < 8; ++k) {
        int i = k * 128 + t;
        int v = s[i];
        int grp = (k & 1) ? s[i & ~7] : s[i & ~7] + (lane & 1);
        int a = 0, b = 0, c = 0, d = 0, e = 0;
        if (v % 3 != 0) {
            unsigned m = __activemask();
            a = __popc(__ballot_sync(m, v > 500));
            b = __any_sync(m, v < 100);
            c = __all_sync(m, v >= 10);
            int pred;
            unsigned mm = __match_all_sync(m & (0xffu << (lane & 24)), grp, &pred);
            d = (int)mm ^ (pred << 31);
        }
        int pred2;
        e = (int)__match_all_sync(0xffffffffu, grp, &pred2) + pred2;
        unsigned bl = __ballot_sync(0xffffffffu, v & 1);
        out[i * 6] = a; out[i * 6 + 1] = b; out[i * 6 + 2] = c; out[i * 6 + 3] = d;
        out[i * 6 + 4] = e; out[i * 6 + 5] = __ffs(bl) + (int)__fns(bl, lane, 1);
    }
}
