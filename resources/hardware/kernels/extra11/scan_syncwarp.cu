// block: 128
// input: in = ints_1024.npy
// block-wide inclusive scan: a Hillis-Steele scan per warp in shared memory, ordered by __syncwarp,
// then each warp adds the totals of the warps before it
__global__ void scan_syncwarp(const int *in, int *out) {
    __shared__ int s[128];
    __shared__ int totals[4];
    int t = threadIdx.x, lane = t & 31, warp = t >> 5;
    s[t] = in[t];
    __syncwarp();
    for (int off = 1; off < 32; off <<= 1) {
        int v = lane >= off ? s[t - off] : 0;
        __syncwarp();
        s[t] += v;
        __syncwarp();
    }
    if (lane == 31) totals[warp] = s[t];
    __syncthreads();
    int add = 0;
    for (int w = 0; w < warp; ++w) add += totals[w];
    out[t] = s[t] + add;
}
