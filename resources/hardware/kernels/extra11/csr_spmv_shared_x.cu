// block: 128
// input: row_ptr = csr_row_ptr_129.npy
// input: col = csr_col.npy
// input: val = csr_val.npy
// input: x = csr_x_256.npy
// sparse matrix-vector product (CSR, one thread a row) with x staged in shared memory: xs[col[j]]
__global__ void csr_spmv(const int *row_ptr, const int *col, const float *val, const float *x, float *y) {
    __shared__ float xs[256];
    int r = threadIdx.x;
    xs[r] = x[r];
    xs[r + 128] = x[r + 128];
    __syncthreads();
    float acc = 0.f;
    for (int j = row_ptr[r]; j < row_ptr[r + 1]; ++j) acc += val[j] * xs[col[j]];
    y[r] = acc;
}
