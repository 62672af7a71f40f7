// block: 128
// input: ptr = csr_ptr_257.npy
// input: col = csr_col.npy
// input: val = csr_val.npy
// input: xin = normal_4096.npy
// CSR SpMV, 4 lanes a row (32 rows a pass, 8 passes): x (1024) as double in shared memory,
// gathered at the columns, partial sums by __shfl_down_sync with width 4; rows 0..14 nnz
__global__ void csr_vector4_double(const int *ptr, const int *col, const float *val, const float *xin, double *y) {
    __shared__ double x[1024];
    int t = threadIdx.x;
    for (int i = t; i < 1024; i += 128) x[i] = (double)xin[i];
    __syncthreads();
    int sub = t & 3;
    for (int row = t >> 2; row < 256; row += 32) {
        int b = ptr[row], e = ptr[row + 1];
        double s = 0.0;
        for (int j = b + sub; j < e; j += 4) s += (double)val[j] * x[col[j]];
        s += __shfl_down_sync(0xffffffffu, s, 2, 4);
        s += __shfl_down_sync(0xffffffffu, s, 1, 4);
        if (sub == 0) y[row] = s;
    }
}
