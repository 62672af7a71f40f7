// block: 256
// input: in = runs_4096.npy
// run-length encoding of 4096 bytes: 16 bytes a thread, run heads flagged where a byte differs
// from its predecessor (the predecessor from shared memory), per-thread head counts scanned by a
// hand-written warp-shuffle + shared two-level scan, heads compacted into (value, start) arrays,
// run lengths from the next start
__global__ void rle_encode(const unsigned char *in, int *out) {
    __shared__ __align__(16) unsigned char b[4096];
    __shared__ int wsum[8];
    __shared__ int starts[4097];
    __shared__ int nruns;
    int t = threadIdx.x, lane = t & 31, w = t >> 5;
    for (int i = t; i < 1024; i += 256) ((int *)b)[i] = ((const int *)in)[i];
    __syncthreads();
    int c = 0;
    for (int i = 0; i < 16; ++i) { int j = t * 16 + i; c += j == 0 || b[j] != b[j - 1]; }
    int inc = c;
    for (int o = 1; o < 32; o <<= 1) { int n = __shfl_up_sync(0xffffffff, inc, o); if (lane >= o) inc += n; }
    if (lane == 31) wsum[w] = inc;
    __syncthreads();
    int off = inc - c;
    for (int k = 0; k < w; ++k) off += wsum[k];
    if (t == 255) nruns = off + c;
    for (int i = 0; i < 16; ++i) {
        int j = t * 16 + i;
        if (j == 0 || b[j] != b[j - 1]) { starts[off] = j; out[off] = b[j]; ++off; }
    }
    __syncthreads();
    int n = nruns;
    if (t == 0) starts[n] = 4096;
    __syncthreads();
    for (int r = t; r < n; r += 256) out[2048 + r] = starts[r + 1] - starts[r];
    if (t == 0) out[4095] = n;
}
