// block: 128
// input: in = sort_ints_256.npy
// odd-even transposition sort of 256 ints by 128 threads; a pair is written back only when it is
// out of order, so which stores run depends on the data
__global__ void odd_even_sort(const int *in, int *out) {
    __shared__ int s[256];
    int t = threadIdx.x;
    s[t] = in[t];
    s[t + 128] = in[t + 128];
    __syncthreads();
    for (int phase = 0; phase < 256; ++phase) {
        int i = 2 * t + (phase & 1);
        if (i + 1 < 256) {
            int a = s[i], b = s[i + 1];
            if (a > b) { s[i] = b; s[i + 1] = a; }
        }
        __syncthreads();
    }
    out[t] = s[t];
    out[t + 128] = s[t + 128];
}
