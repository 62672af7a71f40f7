// block: 64
__global__ void hillis_swap(const int *in, int *out) {
    __shared__ int bufA[64];
    __shared__ int bufB[64];
    int t = threadIdx.x;
    int *src = bufA, *dst = bufB;
    src[t] = in[t];
    __syncthreads();
    for (int d = 1; d < 64; d <<= 1) {
        int v = src[t];
        if (t >= d) v += src[t - d];
        dst[t] = v;
        __syncthreads();
        int *tmp = src; src = dst; dst = tmp;
    }
    out[t] = src[t];
}
