// block: 64
__global__ void vec_types(const int2 *a, const short4 *b, int *out) {
    __shared__ int2 pa[128];
    __shared__ short4 pb[128];
    int t = threadIdx.x;
    pa[t] = a[t];
    pa[t + 64] = a[t + 64];
    pb[t * 2] = b[t];
    __syncthreads();
    int2 v = pa[(t * 2) % 128];
    short4 w = pb[(t * 4) % 128];
    out[t] = v.x + v.y + w.x + w.w;
}
