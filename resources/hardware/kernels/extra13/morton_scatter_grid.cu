// block: 128
// input: codes = morton_512.npy
// 512 clustered points given by 10-bit Morton codes: each is decoded (bit de-interleaving) to
// (x, y) and counted into a 32 x 32 grid in shared memory with integer atomics (grid[y][x]:
// clustered points hit the same words), then a 3 x 3 box sum over the grid read at the points'
// own cells, and the grid stored column by column
__device__ __forceinline__ unsigned compact(unsigned v) {
    v &= 0x55555555u;
    v = (v | (v >> 1)) & 0x33333333u;
    v = (v | (v >> 2)) & 0x0f0f0f0fu;
    v = (v | (v >> 4)) & 0x00ff00ffu;
    return (v | (v >> 8)) & 0x0000ffffu;
}
__global__ void morton_scatter(const unsigned *codes, int *out) {
    __shared__ int grid[32][32];
    int t = threadIdx.x;
    for (int i = t; i < 1024; i += 128) (&grid[0][0])[i] = 0;
    __syncthreads();
    unsigned x[4], y[4];
    for (int j = 0; j < 4; ++j) {
        unsigned c = codes[j * 128 + t];
        x[j] = compact(c);
        y[j] = compact(c >> 1);
        atomicAdd(&grid[y[j]][x[j]], 1);
    }
    __syncthreads();
    for (int j = 0; j < 4; ++j) {
        int s = 0;
        for (int dy = -1; dy <= 1; ++dy)
            for (int dx = -1; dx <= 1; ++dx) {
                int yy = (int)y[j] + dy, xx = (int)x[j] + dx;
                if (yy >= 0 && yy < 32 && xx >= 0 && xx < 32) s += grid[yy][xx];
            }
        out[j * 128 + t] = s;
    }
    for (int i = t; i < 1024; i += 128) out[512 + i] = grid[i & 31][i >> 5];
}
