// block: 128
// input: table = sorted_1024.npy
// input: queries = queries_1024.npy
// branchless lower_bound and upper_bound in a sorted 1024-int shared table with runs of equal
// values: base += (s[base + half] < q) * half, halving each step (every lane the same trip count,
// addresses from the data); counts of equal keys from the two bounds
__global__ void branchless_bounds(const int *table, const int *queries, int *out) {
    __shared__ int s[1024];
    int t = threadIdx.x;
    for (int i = t; i < 1024; i += 128) s[i] = table[i];
    __syncthreads();
    for (int j = 0; j < 8; ++j) {
        int q = queries[j * 128 + t];
        int lo = 0, hi = 0;
        for (int n = 1024; n > 1; n -= n / 2) {
            int half = n / 2;
            lo = (s[lo + half - 1] < q) ? lo + half : lo;
            hi = (s[hi + half - 1] <= q) ? hi + half : hi;
        }
        lo += s[lo] < q;
        hi += s[hi] <= q;
        out[j * 128 + t] = lo;
        out[1024 + j * 128 + t] = hi - lo;
    }
}
