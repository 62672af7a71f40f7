// block: 256
// input: sptr = sell_ptr.npy
// input: scol = sell_col.npy
// input: sval = sell_val.npy
// input: xin = floats_1024.npy
// sliced ELL (C = 32) SpMV: 8 slices, one warp a slice, each slice as wide as its longest row
// (width from the data), padding marked -1 and skipped (continue); x in shared memory
__global__ void sell_spmv(const int *sptr, const int *scol, const float *sval, const float *xin, float *y) {
    __shared__ float x[1024];
    int t = threadIdx.x, lane = t & 31, w = t >> 5;
    for (int i = t; i < 1024; i += 256) x[i] = xin[i];
    __syncthreads();
    int b = sptr[w], width = (sptr[w + 1] - b) >> 5;
    float s = 0.f;
    int nnz = 0;
    for (int j = 0; j < width; ++j) {
        int c = scol[b + j * 32 + lane];
        if (c < 0) continue;
        s += sval[b + j * 32 + lane] * x[c];
        ++nnz;
    }
    y[w * 32 + lane] = s;
    y[256 + w * 32 + lane] = (float)nnz;
}
