// block: 128
#define COLS 512
__global__ void softmax_row(const float *in, float *out) {
    __shared__ float row[COLS];
    __shared__ float red[128];
    int t = threadIdx.x;
    for (int c = t; c < COLS; c += 128) row[c] = in[c];
    __syncthreads();

    float m = -1e30f;
    for (int c = t; c < COLS; c += 128) m = fmaxf(m, row[c]);
    red[t] = m;
    __syncthreads();
    for (int s = 64; s > 0; s >>= 1) {
        if (t < s) red[t] = fmaxf(red[t], red[t + s]);
        __syncthreads();
    }
    float rowmax = red[0];
    __syncthreads();

    float sum = 0.f;
    for (int c = t; c < COLS; c += 128) {
        float e = __expf(row[c] - rowmax);
        row[c] = e;
        sum += e;
    }
    red[t] = sum;
    __syncthreads();
    for (int s = 64; s > 0; s >>= 1) {
        if (t < s) red[t] += red[t + s];
        __syncthreads();
    }
    float inv = 1.f / red[0];
    for (int c = t; c < COLS; c += 128) out[c] = row[c] * inv;
}
