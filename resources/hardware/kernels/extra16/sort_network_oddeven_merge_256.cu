// block: 128
// input: in = keys_1024.npy
// Batcher's odd-even merge sort of 256 ints in shared memory: log stages (p, k), each thread one
// comparator a step, the partner j + k chosen by index arithmetic, a swap stored only when out of
// order (stores depend on the data)
__global__ void oddeven_merge_sort(const int *in, int *out) {
    __shared__ int s[256];
    int t = threadIdx.x;
    s[t] = in[t];
    s[t + 128] = in[t + 128];
    __syncthreads();
    for (int p = 1; p < 256; p <<= 1) {
        for (int k = p; k >= 1; k >>= 1) {
            int j = k % p;
            // comparator t of this step: i in [0, 128): blocks of 2k, pairs (a, a + k)
            int blk = t / k, off = t % k;
            int a = blk * 2 * k + off + j;
            int b = a + k;
            if (b < 256 && (a / (2 * p)) == (b / (2 * p))) {
                int x = s[a], y = s[b];
                if (x > y) { s[a] = y; s[b] = x; }
            }
            __syncthreads();
        }
    }
    out[t] = s[t];
    out[t + 128] = s[t + 128];
}
