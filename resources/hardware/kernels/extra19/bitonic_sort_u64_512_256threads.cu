// block: 256
// input: in = ukeys_1024.npy
// bitonic sort of 512 unsigned long long keys (two 32-bit words each) by 256 threads, one
// compare-exchange a thread a stage, the partner by XOR, direction from the stage's bit
__global__ void bitonic_u64(const unsigned *in, unsigned long long *out) {
    __shared__ unsigned long long s[512];
    int t = threadIdx.x;
    for (int i = t; i < 512; i += 256)
        s[i] = ((unsigned long long)in[2 * i] << 32) | in[2 * i + 1];
    for (int k = 2; k <= 512; k <<= 1) {
        for (int j = k >> 1; j > 0; j >>= 1) {
            __syncthreads();
            int i = 2 * t - (t & (j - 1));
            int p = i + j;
            unsigned long long a = s[i], b = s[p];
            bool up = (i & k) == 0;
            if ((a > b) == up) { s[i] = b; s[p] = a; }
        }
    }
    __syncthreads();
    out[t] = s[t];
    out[t + 256] = s[t + 256];
}
