// block: 512
// input: in = keys_1024.npy
// a bitonic sort of 1024 int keys in shared memory, 512 threads each owning one comparator a
// stage, __syncthreads between all 55 stages; the partner by i ^ j, the direction by i & k
__global__ void bitonic_1024(const int *in, int *out) {
    __shared__ int s[1024];
    int t = threadIdx.x;
    s[t] = in[t];
    s[t + 512] = in[t + 512];
    __syncthreads();
    for (int k = 2; k <= 1024; k <<= 1) {
        for (int j = k >> 1; j > 0; j >>= 1) {
            int i = 2 * t - (t & (j - 1));
            int p = i + j;
            int a = s[i], b = s[p];
            bool up = (i & k) == 0;
            if ((a > b) == up) { s[i] = b; s[p] = a; }
            __syncthreads();
        }
    }
    out[t] = s[t];
    out[t + 512] = s[t + 512];
}
