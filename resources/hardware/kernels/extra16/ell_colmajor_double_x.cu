// block: 256
// input: ell_col = ell_col_6x256.npy
// input: ell_val = ell_val_6x256.npy
// input: x = floats_1024.npy
// ELL (column-major, [slot][row], -1 pads) matrix-vector product with x staged as 512 doubles in
// shared memory (8-byte gathers xs[col]), a row's loop leaving at its first pad; the columns also
// counted into a shared int histogram
__global__ void ell_double_x(const int *ell_col, const float *ell_val, const float *x, double *y, int *colcount) {
    __shared__ double xs[512];
    __shared__ int cc[512];
    int t = threadIdx.x;
    for (int i = t; i < 512; i += 256) { xs[i] = (double)x[i] * 0.5; cc[i] = 0; }
    __syncthreads();
    double s = 0.0;
    for (int k = 0; k < 6; ++k) {
        int c = ell_col[k * 256 + t];
        if (c < 0) break;
        s += (double)ell_val[k * 256 + t] * xs[c];
        atomicAdd(&cc[c], 1);
    }
    y[t] = s;
    __syncthreads();
    for (int i = t; i < 512; i += 256) colcount[i] = cc[i];
}
