// block: 256
__global__ void scan_naive(const int *in, int *out) {
    __shared__ int buf[2][256];
    int t = threadIdx.x, p = 0;
    buf[0][t] = in[t];
    __syncthreads();
    for (int off = 1; off < 256; off *= 2) {
        int v = buf[p][t];
        if (t >= off) v += buf[p][t - off];
        buf[1 - p][t] = v;
        p = 1 - p;
        __syncthreads();
    }
    out[t] = buf[p][t];
}
