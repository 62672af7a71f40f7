// block: 256
// input: row_ptr = csr_row_ptr_257.npy
// input: col = csr_col.npy
// input: val = csr_val.npy
// input: x = floats_1024.npy
// CSR matrix-vector product, one warp per row (8 warps over 256 rows): lanes stride the row's
// entries, xs[col[j]] gathered from a shared x, a __shfl_down_sync reduction; row lengths 1..20
__global__ void csr_warp_per_row(const int *row_ptr, const int *col, const float *val, const float *x, float *y) {
    __shared__ float xs[256];
    __shared__ int rp[257];
    int t = threadIdx.x, w = t / 32, lane = t & 31;
    xs[t] = x[t];
    rp[t] = row_ptr[t];
    if (t == 0) rp[256] = row_ptr[256];
    __syncthreads();
    for (int r = w; r < 256; r += 8) {
        float s = 0.f;
        for (int j = rp[r] + lane; j < rp[r + 1]; j += 32) s += val[j] * xs[col[j]];
        for (int o = 16; o; o >>= 1) s += __shfl_down_sync(0xffffffffu, s, o);
        if (lane == 0) y[r] = s;
    }
}
