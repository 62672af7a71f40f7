// block: 256
// input: ptr = g_ptr_257.npy
// input: col = g_col.npy
// breadth-first levels of a 256-node graph (two components) with the adjacency as short in shared
// memory: each level's frontier marks its neighbours in an unsigned char flag array (the same
// value from any warp), then each node takes the next level; rounds until __syncthreads_or says none
__global__ void bfs_levels(const int *ptr, const int *col, int *out) {
    __shared__ short adj[4096];
    __shared__ short rp[257];
    __shared__ short lvl[256];
    __shared__ unsigned char nxt[256];
    int t = threadIdx.x;
    int m = ptr[256];
    for (int i = t; i < m; i += 256) adj[i] = (short)col[i];
    for (int i = t; i < 257; i += 256) rp[i] = (short)ptr[i];
    lvl[t] = t == 0 ? 0 : -1;
    nxt[t] = 0;
    __syncthreads();
    int d = 0;
    while (true) {
        if (lvl[t] == d)
            for (int e = rp[t]; e < rp[t + 1]; ++e) nxt[adj[e]] = 1;
        __syncthreads();
        int added = nxt[t] && lvl[t] < 0;
        if (added) lvl[t] = (short)(d + 1);
        nxt[t] = 0;
        if (!__syncthreads_or(added)) break;
        ++d;
    }
    out[t] = lvl[t];
    if (t == 0) out[256] = d;
}
