// block: 128
// input: in = ints_1024.npy
// per-thread arrays indexed with values from the data (so they live in local memory: STL/LDL),
// whose entries then pick the shared words: offs[] of 16 offsets, a permutation of them applied
// twice, and a histogram of the low bits kept in a local array
__global__ void local_array_index(const int *in, float *out) {
    __shared__ float s[1024];
    int t = threadIdx.x;
    for (int i = t; i < 1024; i += 128) s[i] = (float)in[i];
    __syncthreads();
    int offs[16], cnt[8];
    for (int k = 0; k < 16; ++k) offs[k] = (in[(t * 16 + k) & 1023] * 33) & 1023;
    for (int k = 0; k < 8; ++k) cnt[k] = 0;
    float a = 0.f;
    for (int k = 0; k < 16; ++k) {
        int j = in[(t + k * 128) & 1023] & 15;  // which entry: from the data
        int o = offs[j];
        a += s[o];
        offs[j] = (o + 32) & 1023;  // the next read of this entry: one row further on
        cnt[o & 7]++;
    }
    int m = 0;
    for (int k = 1; k < 8; ++k) if (cnt[k] > cnt[m]) m = k;
    out[t] = a + s[offs[m] ^ t];
}
