// block: 128
// input: in = keys_1024.npy
// bitonic sort of 256 signed ints, two per thread, ascending: compare-exchange distances of 32
// and more go through shared memory (one pair per thread), distances below 32 through
// __shfl_xor_sync (element i of a warp trades with lane i ^ j), each stage written back to shared
__global__ void bitonic_256_shfl_hybrid(const int *in, int *out) {
    __shared__ int s[256];
    int t = threadIdx.x;
    s[t] = in[t]; s[t + 128] = in[t + 128];
    __syncthreads();
    for (int k = 2; k <= 256; k <<= 1) {
        for (int j = k >> 1; j > 0; j >>= 1) {
            if (j >= 32) {
                int i = 2 * t - (t & (j - 1));
                int p = i + j;
                bool up = (i & k) == 0;
                int a = s[i], b = s[p];
                if ((a > b) == up) { s[i] = b; s[p] = a; }
                __syncthreads();
            } else {
                for (int h = 0; h < 2; ++h) {
                    int i = h * 128 + t;
                    int v = s[i];
                    int w = __shfl_xor_sync(0xffffffffu, v, j);
                    bool up = (i & k) == 0, low = (i & j) == 0;
                    int mn = min(v, w), mx = max(v, w);
                    s[i] = (low == up) ? mn : mx;
                }
                __syncthreads();
            }
        }
    }
    out[t] = s[t]; out[t + 128] = s[t + 128];
}
