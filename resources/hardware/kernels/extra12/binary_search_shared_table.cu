// block: 128
// input: table = sorted_1024.npy
// input: queries = queries_1024.npy
// per-thread lower_bound of 8 queries each in a sorted table of 1024 ints in shared memory: the
// first probe is the same word for every lane (a broadcast), later probes spread with the queries
__global__ void binary_search(const int *table, const int *queries, int *pos_out, int *hit_out) {
    __shared__ int s[1024];
    int t = threadIdx.x;
    for (int i = t; i < 1024; i += 128) s[i] = table[i];
    __syncthreads();
    for (int j = 0; j < 8; ++j) {
        int q = queries[j * 128 + t];
        int lo = 0, hi = 1024;
        while (lo < hi) {
            int mid = (lo + hi) >> 1;
            if (s[mid] < q) lo = mid + 1;
            else hi = mid;
        }
        pos_out[j * 128 + t] = lo;
        hit_out[j * 128 + t] = lo < 1024 && s[lo] == q;
    }
}
