// block: 1024
// input: in = ints_1024.npy
// work-efficient (Blelloch) exclusive scan of 2048 ints by 1024 threads, conflict-free padding
// of one word every 32 (index + (index >> 5)): up-sweep, clear the last, down-sweep
#define PAD(i) ((i) + ((i) >> 5))
__global__ void blelloch_2048(const int *in, int *out) {
    __shared__ int s[2048 + 64];
    int t = threadIdx.x;
    int ai = t, bi = t + 1024;
    s[PAD(ai)] = in[ai];
    s[PAD(bi)] = in[bi & 1023] ^ 5;
    int off = 1;
    for (int d = 1024; d > 0; d >>= 1) {
        __syncthreads();
        if (t < d) {
            int x = off * (2 * t + 1) - 1, y = off * (2 * t + 2) - 1;
            s[PAD(y)] += s[PAD(x)];
        }
        off <<= 1;
    }
    if (t == 0) { out[4096] = s[PAD(2047)]; s[PAD(2047)] = 0; }
    for (int d = 1; d < 2048; d <<= 1) {
        off >>= 1;
        __syncthreads();
        if (t < d) {
            int x = off * (2 * t + 1) - 1, y = off * (2 * t + 2) - 1;
            int v = s[PAD(x)];
            s[PAD(x)] = s[PAD(y)];
            s[PAD(y)] += v;
        }
    }
    __syncthreads();
    out[ai] = s[PAD(ai)];
    out[bi] = s[PAD(bi)];
}
