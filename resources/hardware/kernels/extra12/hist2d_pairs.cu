// block: 128
// input: pairs = pairs_2048.npy
// a 32 x 32 histogram of 1024 (x, y) pairs (y near x: a diagonal band) with atomicAdd on
// hist[y][x], then row sums (thread r reads row r: 32-way on one bank per step) and column sums
__global__ void hist2d(const int *pairs, int *hist_out, int *row_sums, int *col_sums) {
    __shared__ int hist[32][32];
    int t = threadIdx.x;
    for (int i = t; i < 1024; i += 128) hist[i / 32][i % 32] = 0;
    __syncthreads();
    for (int p = t; p < 1024; p += 128) {
        int x = pairs[2 * p], y = pairs[2 * p + 1];
        atomicAdd(&hist[y][x], 1);
    }
    __syncthreads();
    if (t < 32) {
        int r = 0;
        for (int j = 0; j < 32; ++j) r += hist[t][j];
        row_sums[t] = r;
    } else if (t < 64) {
        int c = 0;
        for (int j = 0; j < 32; ++j) c += hist[j][t - 32];
        col_sums[t - 32] = c;
    }
    for (int i = t; i < 1024; i += 128) hist_out[i] = hist[i / 32][i % 32];
}
