// block: 128
// input: ptr = tg_ptr_129.npy
// input: col = tg_col.npy
// triangle counting on a 128-node undirected graph with sorted adjacency in shared memory: each
// thread walks its node's neighbours v > u and merges the two sorted lists (two pointers,
// data-dependent while loops), counting w > v
__global__ void triangle_count(const int *ptr, const int *col, int *out) {
    __shared__ int sp[129];
    __shared__ short sc[1024];
    __shared__ int total;
    int t = threadIdx.x;
    sp[t] = ptr[t];
    if (t == 0) { sp[128] = ptr[128]; total = 0; }
    __syncthreads();
    for (int i = t; i < sp[128]; i += 128) sc[i] = (short)col[i];
    __syncthreads();
    int u = t, cnt = 0;
    for (int a = sp[u]; a < sp[u + 1]; ++a) {
        int v = sc[a];
        if (v <= u) continue;
        int i = sp[u], j = sp[v], ie = sp[u + 1], je = sp[v + 1];
        while (i < ie && j < je) {
            int x = sc[i], y = sc[j];
            if (x < y) ++i;
            else if (y < x) ++j;
            else { cnt += x > v; ++i; ++j; }
        }
    }
    out[u] = cnt;
    atomicAdd(&total, cnt);
    __syncthreads();
    if (t == 0) out[128] = total;
}
