// block: 128
// input: edges = uf_edges_512.npy
// connected components of 256 nodes from 256 edges (2 a thread) by union-find in shared memory:
// find with path halving (parent[x] = parent[parent[x]]), union by atomicCAS of the larger root
// onto the smaller; then every node is compressed to its root (the smallest node of its component)
__device__ int find_root(int *parent, int x) {
    while (true) {
        int p = parent[x];
        if (p == x) return x;
        int gp = parent[p];
        if (gp != p) parent[x] = gp;  // halve the path
        x = gp;
    }
}
__global__ void union_find(const int *edges, int *labels, int *retries) {
    __shared__ int parent[256];
    int t = threadIdx.x;
    parent[t] = t;
    parent[t + 128] = t + 128;
    __syncthreads();
    int tries = 0;
    for (int e = t; e < 256; e += 128) {
        int a = edges[2 * e], b = edges[2 * e + 1];
        while (true) {
            a = find_root(parent, a);
            b = find_root(parent, b);
            if (a == b) break;
            int hi = a > b ? a : b, lo = a ^ b ^ hi;
            if (atomicCAS(&parent[hi], hi, lo) == hi) break;
            ++tries;  // another thread moved hi first: look again
        }
    }
    __syncthreads();
    labels[t] = find_root(parent, t);
    labels[t + 128] = find_root(parent, t + 128);
    retries[t] = tries;
}
