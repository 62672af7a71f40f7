// block: 256
// input: ptr = g_ptr_513.npy
// input: col = g_col.npy
// BFS from node 0 over a 512-node graph with a shared frontier queue: the threads take the
// frontier's nodes, claim unvisited neighbours by atomicCAS on a shared level array and append
// them with atomicAdd on the next queue's tail (the order depends on which warp gets there
// first: timing-dependent on purpose); levels and per-level sizes written out
__global__ void frontier_queue(const int *ptr, const int *col, int *out) {
    __shared__ int level[512];
    __shared__ int q[2][512];
    __shared__ int tail[2];
    int t = threadIdx.x;
    for (int i = t; i < 512; i += 256) level[i] = -1;
    if (t == 0) { level[0] = 0; q[0][0] = 0; tail[0] = 1; tail[1] = 0; }
    __syncthreads();
    int cur = 0, depth = 0;
    while (tail[cur] > 0 && depth < 64) {
        int n = tail[cur];
        for (int i = t; i < n; i += 256) {
            int v = q[cur][i];
            for (int j = ptr[v]; j < ptr[v + 1]; ++j) {
                int u = col[j];
                if (atomicCAS(&level[u], -1, depth + 1) == -1) q[cur ^ 1][atomicAdd(&tail[cur ^ 1], 1)] = u;
            }
        }
        __syncthreads();
        if (t == 0) { out[1024 + depth] = n; tail[cur] = 0; }
        cur ^= 1;
        ++depth;
        __syncthreads();
    }
    for (int i = t; i < 512; i += 256) out[i] = level[i];
    if (t == 0) out[1023] = depth;
}
