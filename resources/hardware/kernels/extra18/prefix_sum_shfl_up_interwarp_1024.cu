// block: 1024
// input: in = ints_1024.npy
// an inclusive prefix sum of 1024 ints by 1024 threads: __shfl_up_sync within each warp, the 32
// warp totals into shared memory, scanned by warp 0 with __shfl_up_sync, added back; then an
// exclusive variant of 2048 values (two a thread) and a running block offset
__global__ void prefix_sum_1024(const int *in, int *out) {
    __shared__ int wsum[32];
    int t = threadIdx.x, lane = t & 31, w = t >> 5;
    int v = in[t];
    for (int o = 1; o < 32; o <<= 1) {
        int n = __shfl_up_sync(0xffffffff, v, o);
        if (lane >= o) v += n;
    }
    if (lane == 31) wsum[w] = v;
    __syncthreads();
    if (w == 0) {
        int s = wsum[lane];
        for (int o = 1; o < 32; o <<= 1) {
            int n = __shfl_up_sync(0xffffffff, s, o);
            if (lane >= o) s += n;
        }
        wsum[lane] = s;
    }
    __syncthreads();
    if (w > 0) v += wsum[w - 1];
    out[t] = v;
    __syncthreads();
    int a = in[2 * t] & 15, b = in[2 * t + 1] & 15;
    int p = a + b, q = p;
    for (int o = 1; o < 32; o <<= 1) {
        int n = __shfl_up_sync(0xffffffff, q, o);
        if (lane >= o) q += n;
    }
    if (lane == 31) wsum[w] = q;
    __syncthreads();
    int off = 0;
    for (int j = 0; j < w; ++j) off += wsum[j];
    int ex = off + q - p;
    out[1024 + 2 * t] = ex;
    out[1024 + 2 * t + 1] = ex + a;
}
