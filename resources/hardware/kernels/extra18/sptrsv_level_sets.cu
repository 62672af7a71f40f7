// block: 128
// input: ptr = tri_ptr_513.npy
// input: col = tri_col.npy
// input: val = tri_val.npy
// input: order = tri_order_512.npy
// input: lptr = tri_lptr.npy
// a sparse unit-lower-triangular solve L x = b by level sets: x in shared memory, the rows of
// one level (from the data) spread over the threads, each row's dependencies x[col[j]] gathered
// at columns from the data, __syncthreads between the 24 levels
__global__ void sptrsv_levels(const int *ptr, const int *col, const float *val, const int *order,
                              const int *lptr, float *out) {
    __shared__ float x[512];
    int t = threadIdx.x;
    for (int i = t; i < 512; i += 128) x[i] = (float)((i * 7) % 13 - 6);
    __syncthreads();
    int nlev = 24;
    for (int l = 0; l < nlev; ++l) {
        int a = lptr[l], b = lptr[l + 1];
        for (int k = a + t; k < b; k += 128) {
            int r = order[k];
            float s = x[r];
            for (int j = ptr[r]; j < ptr[r + 1]; ++j) s -= val[j] * x[col[j]];
            x[r] = s;
        }
        __syncthreads();
    }
    for (int i = t; i < 512; i += 128) out[i] = x[i];
}
