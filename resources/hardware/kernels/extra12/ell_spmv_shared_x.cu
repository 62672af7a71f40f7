// block: 128
// input: ell_col = ell_col_8x256.npy
// input: ell_val = ell_val_8x256.npy
// input: x = floats_1024.npy
// sparse matrix-vector product in ELL format (256 rows, up to 8 entries a row, slot-major, -1 pads
// a short row) with x (1024 floats) staged in shared memory: xs[col] for two rows a thread
__global__ void ell_spmv(const int *ell_col, const float *ell_val, const float *x, float *y) {
    __shared__ float xs[1024];
    int t = threadIdx.x;
    for (int i = t; i < 1024; i += 128) xs[i] = x[i];
    __syncthreads();
    for (int r = t; r < 256; r += 128) {
        float acc = 0.f;
        for (int k = 0; k < 8; ++k) {
            int c = ell_col[k * 256 + r];
            if (c < 0) break;  // padding: the row has no more entries
            acc += ell_val[k * 256 + r] * xs[c];
        }
        y[r] = acc;
    }
}
