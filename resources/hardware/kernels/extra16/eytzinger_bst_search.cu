// block: 128
// input: tree = eytzinger_1024.npy
// input: queries = bst_queries_1024.npy
// search of an implicit BST in Eytzinger order (node k's children 2k and 2k + 1) in shared memory:
// the first levels are broadcasts, the deep levels scatter over the banks by the queries; the
// lower bound recovered from the path with __ffs; a second, early-exit search counts exact hits
__global__ void eytzinger_search(const int *tree, const int *queries, int *out) {
    __shared__ int s[1024];
    int t = threadIdx.x;
    for (int i = t; i < 1024; i += 128) s[i] = tree[i];
    __syncthreads();
    for (int j = 0; j < 8; ++j) {
        int q = queries[j * 128 + t];
        unsigned k = 1;
        while (k < 1024) k = 2 * k + (s[k] < q);
        k >>= __ffs(~k);
        out[j * 128 + t] = k < 1024 ? s[k] : -1;
        unsigned m = 1;
        int depth = 0;
        while (m < 1024 && s[m] != q) { m = 2 * m + (s[m] < q); ++depth; }
        out[1024 + j * 128 + t] = m < 1024 ? depth : -depth;
    }
}
