// block: 256
// input: edges = uf_edges_768.npy
// union-find over 512 nodes: 384 edges united by one thread (union by size, path halving, short
// arrays), then every node's root found by all threads through a volatile pointer chase (steps
// counted, no compression), components counted by a shared atomicAdd at the roots
__global__ void union_find(const int *edges, int *out) {
    __shared__ short parent[512];
    __shared__ short sz[512];
    __shared__ int ncomp;
    int t = threadIdx.x;
    for (int i = t; i < 512; i += 256) { parent[i] = (short)i; sz[i] = 1; }
    if (t == 0) ncomp = 0;
    __syncthreads();
    if (t == 0) {
        for (int e = 0; e < 384; ++e) {
            int a = edges[2 * e], b = edges[2 * e + 1];
            while (parent[a] != a) { parent[a] = parent[parent[a]]; a = parent[a]; }
            while (parent[b] != b) { parent[b] = parent[parent[b]]; b = parent[b]; }
            if (a == b) continue;
            if (sz[a] < sz[b]) { int x = a; a = b; b = x; }
            parent[b] = (short)a;
            sz[a] += sz[b];
        }
    }
    __syncthreads();
    volatile short *vp = parent;
    for (int i = t; i < 512; i += 256) {
        int r = i, steps = 0;
        while (vp[r] != r) { r = vp[r]; ++steps; }
        out[i] = r;
        out[512 + i] = steps;
        if (r == i) atomicAdd(&ncomp, 1);
    }
    __syncthreads();
    if (t == 0) out[1024] = ncomp;
}
