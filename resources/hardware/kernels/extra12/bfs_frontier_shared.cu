// block: 128
// input: row_ptr = bfs_row_ptr_257.npy
// input: col = bfs_col.npy
// level-synchronous BFS from node 0 on a 256-node graph (CSR, staged in shared memory): frontier
// nodes are taken by threads, each neighbour is claimed with atomicCAS on its level and appended to
// the next frontier with atomicAdd on a shared counter
__global__ void bfs_frontier(const int *row_ptr, const int *col, int *level_out, int *sizes_out) {
    __shared__ int rp[257];
    __shared__ int adj[1536];
    __shared__ int level[256];
    __shared__ int frontier[2][256];
    __shared__ int count[2];
    int t = threadIdx.x;
    for (int i = t; i < 257; i += 128) rp[i] = row_ptr[i];
    for (int i = t; i < 256; i += 128) level[i] = -1;
    __syncthreads();
    for (int i = t; i < rp[256]; i += 128) adj[i] = col[i];
    if (t == 0) { level[0] = 0; frontier[0][0] = 0; count[0] = 1; count[1] = 0; }
    __syncthreads();
    int cur = 0;
    for (int depth = 0; count[cur] > 0; ++depth) {
        int n = count[cur];
        for (int i = t; i < n; i += 128) {
            int v = frontier[cur][i];
            for (int j = rp[v]; j < rp[v + 1]; ++j) {
                int u = adj[j];
                if (atomicCAS(&level[u], -1, depth + 1) == -1) frontier[cur ^ 1][atomicAdd(&count[cur ^ 1], 1)] = u;
            }
        }
        __syncthreads();
        if (t == 0) { sizes_out[depth] = n; count[cur] = 0; }
        cur ^= 1;
        __syncthreads();
    }
    for (int i = t; i < 256; i += 128) level_out[i] = level[i];
}
