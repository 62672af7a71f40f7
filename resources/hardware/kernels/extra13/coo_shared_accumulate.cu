// block: 256
// input: row = coo_row_512.npy
// input: col = coo_col_512.npy
// input: val = coo_val_512.npy
// COO sparse matrix (128 x 256, 512 entries in random order, rows skewed towards 0) times an
// integer vector: x staged in shared memory, each entry's product added to ys[row] with a shared
// atomicAdd (integers: the sums do not depend on the order; many lanes hit the same rows), and
// a transposed product into yt[col] read back through a column permutation
__global__ void coo_accumulate(const int *row, const int *col, const int *val, int *out) {
    __shared__ int xs[256];
    __shared__ int ys[128];
    __shared__ int yt[256];
    int t = threadIdx.x;
    xs[t] = (t * 7) % 13 - 6;
    yt[t] = 0;
    if (t < 128) ys[t] = 0;
    __syncthreads();
    for (int e = t; e < 512; e += 256) {
        int r = row[e], c = col[e], v = val[e];
        atomicAdd(&ys[r], v * xs[c]);
        atomicAdd(&yt[c], v * (r + 1));
    }
    __syncthreads();
    if (t < 128) out[t] = ys[t];
    out[128 + t] = yt[(t * 37) & 255];
}
