// block: 256
// input: trie = trie_5xN.npy
// input: q = trie_queries_512.npy
// a 4-ary trie (464 nodes: four child indices and a word count, [node][5] ints) copied into
// shared memory; each thread walks two queries of 8 letters (2 bits each) through child indices
// from the data, leaving at the first missing child; the depth reached, the node, words passed
__global__ void trie_walk(const int *trie, const int *q, int *out) {
    __shared__ int node[464 * 5];
    int t = threadIdx.x;
    for (int i = t; i < 464 * 5; i += 256) node[i] = trie[i];
    __syncthreads();
    for (int j = 0; j < 2; ++j) {
        int word = q[j * 256 + t];
        int n = 0, depth = 0, seen = 0;
        for (; depth < 8; ++depth) {
            int c = (word >> (2 * depth)) & 3;
            int nx = node[n * 5 + c];
            if (nx < 0) break;
            n = nx;
            seen += node[n * 5 + 4];
        }
        out[j * 256 + t] = depth;
        out[512 + j * 256 + t] = n;
        out[1024 + j * 256 + t] = seen;
    }
}
