// block: 256
// input: row_ptr = gc_row_ptr_257.npy
// input: col = gc_col.npy
// input: prio = prio_256.npy
// Jones-Plassmann graph colouring of a 256-node graph (a grid plus random long edges) in shared
// CSR: each round a node whose priority beats every uncoloured neighbour takes the smallest
// colour no coloured neighbour has (a 32-bit mask built from color[col[j]] reads); rounds are
// separated by __syncthreads, so the result does not depend on the schedule; at most 12 rounds
__global__ void graph_coloring(const int *row_ptr, const int *col, const int *prio, int *out) {
    __shared__ int rp[257];
    __shared__ int cs[1280];
    __shared__ int pr[256];
    __shared__ int color[256];
    __shared__ int newc[256];
    __shared__ int left;
    int v = threadIdx.x;
    rp[v] = row_ptr[v];
    if (v == 0) rp[256] = row_ptr[256];
    pr[v] = prio[v];
    color[v] = -1;
    __syncthreads();
    int n = rp[256];
    for (int i = v; i < n && i < 1280; i += 256) cs[i] = col[i];
    __syncthreads();
    int round = 0;
    for (; round < 12; ++round) {
        if (v == 0) left = 0;
        int c = color[v];
        newc[v] = c;
        __syncthreads();
        if (c < 0) {
            bool best = true;
            unsigned used = 0;
            for (int j = rp[v]; j < rp[v + 1]; ++j) {
                int u = cs[j], cu = color[u];
                if (cu >= 0) used |= 1u << (cu & 31);
                else if (pr[u] > pr[v]) best = false;
            }
            if (best) newc[v] = __ffs(~used) - 1;
            else atomicAdd(&left, 1);
        }
        __syncthreads();
        color[v] = newc[v];
        __syncthreads();
        if (left == 0) break;
        __syncthreads();
    }
    out[v] = color[v];
    if (v == 0) out[256] = round;
}
