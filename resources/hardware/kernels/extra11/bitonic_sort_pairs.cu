// block: 256
// input: in = keys_1024.npy
// bitonic sort of 512 keys by 256 threads, every thread one compare-exchange per step (all lanes
// busy), swapped only when out of order
__global__ void bitonic_sort_pairs(const int *in, int *out) {
    __shared__ int s[512];
    int t = threadIdx.x;
    s[t] = in[t];
    s[t + 256] = in[t + 256];
    __syncthreads();
    for (int k = 2; k <= 512; k <<= 1) {
        for (int j = k >> 1; j > 0; j >>= 1) {
            int i = 2 * t - (t & (j - 1));  // the lower index of this thread's pair
            int a = s[i], b = s[i + j];
            bool up = (i & k) == 0;
            if ((a > b) == up) { s[i] = b; s[i + j] = a; }
            __syncthreads();
        }
    }
    out[t] = s[t];
    out[t + 256] = s[t + 256];
}
