// block: 256
// input: row_ptr = bfs_row_ptr_513.npy
// input: col = bfs_col.npy
// level-synchronous BFS from node 0 on a 512-node directed graph with frontier and visited bitmaps
// in shared memory: each thread owns 2 nodes, a node in the frontier reads its neighbours and sets
// their bits with atomicOr (order-independent), levels written once per node; a __syncthreads_or
// ends the loop
__global__ void bfs_bitmap(const int *row_ptr, const int *col, int *level_out) {
    __shared__ unsigned int frontier[16], next[16], visited[16];
    __shared__ int level[512];
    __shared__ int rp[513];
    int t = threadIdx.x;
    for (int i = t; i < 513; i += 256) rp[i] = row_ptr[i];
    level[t] = -1; level[t + 256] = -1;
    if (t < 16) { frontier[t] = t == 0; next[t] = 0; visited[t] = t == 0; }
    if (t == 0) level[0] = 0;
    __syncthreads();
    for (int d = 1; d < 64; ++d) {
        for (int v = t; v < 512; v += 256) {
            if (frontier[v >> 5] >> (v & 31) & 1) {
                for (int j = rp[v]; j < rp[v + 1]; ++j) {
                    int u = col[j];
                    if (!(visited[u >> 5] >> (u & 31) & 1)) atomicOr(&next[u >> 5], 1u << (u & 31));
                }
            }
        }
        __syncthreads();
        int any = 0;
        if (t < 16) {
            unsigned int n = next[t] & ~visited[t];
            frontier[t] = n;
            visited[t] |= n;
            next[t] = 0;
            any = n != 0;
        }
        __syncthreads();
        for (int v = t; v < 512; v += 256)
            if (frontier[v >> 5] >> (v & 31) & 1) level[v] = d;
        if (!__syncthreads_or(any)) break;
    }
    level_out[t] = level[t];
    level_out[t + 256] = level[t + 256];
}
