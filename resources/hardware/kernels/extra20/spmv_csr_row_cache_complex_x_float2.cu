// block: 128
// input: ptr = csr_ptr_257.npy
// input: col = csr_col.npy
// input: val = csr_val.npy
// input: xin = normal_4096.npy
// CSR SpMV with a complex x: the whole row structure cached in shared memory (columns as short,
// values as float, row pointers), x as float2[1024] (LDS.64 at column addresses from the data);
// a thread a row for two rows, data-dependent trip counts; then a warp-per-row pass with shuffles
__global__ void spmv_row_cache(const int *ptr, const int *col, const float *val, const float2 *xin, float2 *y) {
    __shared__ float2 xs[1024];
    __shared__ short cs[2048];
    __shared__ float vs[2048];
    __shared__ int rp[257];
    int t = threadIdx.x;
    int nnz = ptr[256];
    for (int i = t; i < 1024; i += 128) xs[i] = xin[i];
    for (int i = t; i < nnz; i += 128) { cs[i] = (short)col[i]; vs[i] = val[i]; }
    for (int i = t; i < 257; i += 128) rp[i] = ptr[i];
    __syncthreads();
    for (int r = t; r < 256; r += 128) {
        float2 acc = make_float2(0.f, 0.f);
        for (int e = rp[r]; e < rp[r + 1]; ++e) {
            float2 xv = xs[cs[e]];
            acc.x += vs[e] * xv.x;
            acc.y += vs[e] * xv.y;
        }
        y[r] = acc;
    }
    int w = t >> 5, lane = t & 31;
    for (int r = w; r < 256; r += 4) {
        float re = 0.f, im = 0.f;
        for (int e = rp[r] + lane; e < rp[r + 1]; e += 32) { float2 xv = xs[cs[e]]; re += vs[e] * xv.y; im -= vs[e] * xv.x; }
        for (int o = 16; o; o >>= 1) { re += __shfl_down_sync(0xffffffffu, re, o); im += __shfl_down_sync(0xffffffffu, im, o); }
        if (lane == 0) y[256 + r] = make_float2(re, im);
    }
}
