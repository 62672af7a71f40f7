// block: 128
// input: ptr = tg_ptr_129.npy
// input: col = tg_col.npy
// 8 PageRank iterations, pull style, on a 128-node graph: ranks and out-degrees in shared memory,
// each node sums rank[v] / deg[v] over its neighbours (gathers at indices from the data),
// double-buffered ranks
__global__ void pagerank_pull(const int *ptr, const int *col, float *out) {
    __shared__ float rank[2][128];
    __shared__ float inv_deg[128];
    __shared__ int sc[1024];
    int t = threadIdx.x;
    int b = ptr[t], e = ptr[t + 1];
    inv_deg[t] = 1.0f / (float)max(e - b, 1);
    rank[0][t] = 1.0f / 128.0f;
    for (int i = t; i < ptr[128]; i += 128) sc[i] = col[i];
    __syncthreads();
    int cur = 0;
    for (int it = 0; it < 8; ++it) {
        float s = 0.f;
        for (int j = b; j < e; ++j) { int v = sc[j]; s += rank[cur][v] * inv_deg[v]; }
        rank[cur ^ 1][t] = 0.15f / 128.0f + 0.85f * s;
        cur ^= 1;
        __syncthreads();
    }
    out[t] = rank[cur][t];
}
