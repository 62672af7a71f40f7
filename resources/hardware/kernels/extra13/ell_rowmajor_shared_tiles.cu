// block: 128
// input: ell_col = ell_col_128x8.npy
// input: ell_val = ell_val_128x8.npy
// input: x = floats_1024.npy
// ELL matrix-vector product with the matrix itself staged in shared memory row-major
// ([row][slot], 8 slots: one thread a row reads cols[t][k] at a stride of 8 words) and x in
// shared memory read at the data's column indices; a second pass with the tile padded to 9
// slots; a row stops at its first -1 pad
__global__ void ell_rowmajor(const int *ell_col, const float *ell_val, const float *x, float *y) {
    __shared__ float xs[1024];
    __shared__ int cols[128][8];
    __shared__ float vals[128][9];
    int t = threadIdx.x;
    for (int i = t; i < 1024; i += 128) {
        xs[i] = x[i];
        cols[i >> 3][i & 7] = ell_col[i];
        vals[i >> 3][i & 7] = ell_val[i];
    }
    __syncthreads();
    float acc = 0.f;
    for (int k = 0; k < 8; ++k) {
        int c = cols[t][k];
        if (c < 0) break;
        acc += vals[t][k] * xs[c];
    }
    y[t] = acc;
    // transposed use: y2[col / 8] gets contributions, one thread per slot-row pair, no atomics:
    // thread t owns output t and scans all rows for columns in [8t, 8t + 8)
    float acc2 = 0.f;
    for (int r = 0; r < 128; ++r) {
        for (int k = 0; k < 8; ++k) {
            int c = cols[r][k];
            if (c < 0) break;
            if ((c >> 3) == t) acc2 += vals[r][k];
        }
    }
    y[128 + t] = acc2;
}
