// block: 512
// input: nxt = list_next_1024.npy
// list ranking by pointer jumping (Wyllie) on a 1024-node linked list in random order: next and
// rank double-buffered in shared memory, 10 rounds of rank[i] += rank[next[i]], next[i] =
// next[next[i]] (addresses from the data, 2 nodes a thread), __syncthreads between rounds
__global__ void list_ranking(const int *nxt, int *out) {
    __shared__ int nx[2][1024];
    __shared__ int rk[2][1024];
    int t = threadIdx.x;
    for (int i = t; i < 1024; i += 512) { int n = nxt[i]; nx[0][i] = n; rk[0][i] = n < 0 ? 0 : 1; }
    __syncthreads();
    int p = 0;
    for (int round = 0; round < 10; ++round) {
        for (int i = t; i < 1024; i += 512) {
            int n = nx[p][i];
            if (n >= 0) { rk[p ^ 1][i] = rk[p][i] + rk[p][n]; nx[p ^ 1][i] = nx[p][n]; }
            else { rk[p ^ 1][i] = rk[p][i]; nx[p ^ 1][i] = n; }
        }
        p ^= 1;
        __syncthreads();
    }
    for (int i = t; i < 1024; i += 512) { out[i] = rk[p][i]; out[1024 + i] = nx[p][i]; }
}
