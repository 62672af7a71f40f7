// block: 128
// input: in = ints_1024.npy
// nested loops over the lower triangle of a 32 x 32 shared tile: the inner trip count depends on
// the outer index, `continue` skips the diagonal, entries divisible by 3 and (outer loop) rows
// whose first entry is even; thread t owns column t & 31 of quarter t >> 5 of the rows
__global__ void triangular_continue(const int *in, int *out) {
    __shared__ int m[32][32];
    __shared__ int col_sum[4][33];
    int t = threadIdx.x;
    for (int i = t; i < 1024; i += 128) m[i >> 5][i & 31] = in[i];
    __syncthreads();
    int c = t & 31, q = t >> 5, acc = 0;
    for (int r = q * 8; r < q * 8 + 8; ++r) {
        if ((m[r][0] & 1) == 0 && c != 0) continue;
        for (int k = 0; k <= r; ++k) {
            if (k == c) continue;
            int v = m[r][k];
            if (v % 3 == 0) continue;
            acc += v * ((c ^ k) & 7);
        }
    }
    col_sum[q][c] = acc;
    __syncthreads();
    if (t < 32) out[t] = col_sum[0][t] + col_sum[1][t] + col_sum[2][t] + col_sum[3][t];
}
