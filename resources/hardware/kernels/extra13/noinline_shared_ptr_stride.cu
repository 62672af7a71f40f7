// block: 128
// input: in = floats_1024.npy
// a __noinline__ device function (a real CALL, no recursion) taking shared-memory pointers, a
// row stride and a column: it sums one column of a tile and writes a scaled copy into another
// shared array; called on an unpadded [32][32] tile, on a padded [32][33] one and on a byte-offset
// view of the padded one shifted by `part` words (the stride is a runtime argument inside the call)
__device__ __noinline__ float column_pass(const float *src, float *dst, int stride, int col, int rows) {
    float s = 0.f;
    for (int r = 0; r < rows; ++r) {
        float v = src[r * stride + col];
        s += v;
        dst[r * stride + col] = v * 0.5f;
    }
    return s;
}
__global__ void noinline_shared(const float *in, float *out) {
    __shared__ float a[32][32];
    __shared__ float b[32][33];
    __shared__ float c[33][33];  // one spare row for the shifted view
    int t = threadIdx.x;
    for (int i = t; i < 1024; i += 128) {
        a[i >> 5][i & 31] = in[i];
        b[i >> 5][i & 31] = in[1023 - i];
    }
    if (t < 33) {  // the padding column and the spare row: the shifted view below reads them
        c[t][32] = 0.f;
        c[32][t] = 0.f;
    }
    __syncthreads();
    int col = t & 31, part = t >> 5;  // four warps: 8 rows each
    float s1 = column_pass(&a[part * 8][0], &c[part * 8][0], 32, col, 8);
    float s2 = column_pass(&b[part * 8][0], &c[part * 8][0], 33, col, 8);
    __syncthreads();
    float s3 = column_pass(&c[part * 8][0] + part, &b[part * 8][0], 33, col, 8);
    out[t] = s1 + s2 + s3;
}
