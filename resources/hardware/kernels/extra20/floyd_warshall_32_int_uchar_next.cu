// block: 32, 32
// input: w = ints_1024.npy
// all-pairs shortest paths on a 32-node graph (about 30 % edges, weights 1..30) by Floyd-Warshall
// with 1024 threads: a [32][33] distance tile (row k broadcast, column k strided), the next hop in
// an unsigned char [32][32] tile updated under a data-dependent condition
__global__ void floyd32(const int *w, int *dist, int *next) {
    __shared__ int d[32][33];
    __shared__ unsigned char nx[32][32];
    int j = threadIdx.x, i = threadIdx.y;
    int v = w[i * 32 + j] % 100;
    d[i][j] = i == j ? 0 : (v < 30 ? v + 1 : 1 << 20);
    nx[i][j] = (unsigned char)j;
    __syncthreads();
    for (int k = 0; k < 32; ++k) {
        int nd = d[i][k] + d[k][j];
        if (nd < d[i][j]) { d[i][j] = nd; nx[i][j] = nx[i][k]; }
        __syncthreads();
    }
    dist[i * 32 + j] = d[i][j];
    next[i * 32 + j] = nx[i][j];
}
