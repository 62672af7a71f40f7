// block: 512
// input: ptr = cc_ptr_513.npy
// input: col = cc_col.npy
// connected components of a 512-node graph (7 components) by min-label propagation, Jacobi
// style (double-buffered labels, so no race): each node takes the least label among its
// neighbours, rounds until __syncthreads_or says nothing changed (round count from the data)
__global__ void label_prop(const int *ptr, const int *col, int *out) {
    __shared__ int lab[2][512];
    __shared__ short sc[1536];
    int t = threadIdx.x;
    int b = ptr[t], e = ptr[t + 1];
    for (int i = t; i < ptr[512]; i += 512) sc[i] = (short)col[i];
    lab[0][t] = t;
    __syncthreads();
    int cur = 0, rounds = 0, changed;
    do {
        int m = lab[cur][t];
        for (int j = b; j < e; ++j) {
            int l = lab[cur][sc[j]];
            if (l < m) m = l;
        }
        changed = m != lab[cur][t];
        lab[cur ^ 1][t] = m;
        cur ^= 1;
        ++rounds;
    } while (__syncthreads_or(changed));
    out[t] = lab[cur][t];
    if (t == 0) out[512] = rounds;
}
