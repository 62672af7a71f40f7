// block: 256
// input: v = zipf12_4096.npy
// a 4096-bin histogram of skewed 12-bit values in 2048 shared words, two 16-bit counters a word:
// atomicAdd(&h[b >> 1], 1 << 16 * (b & 1)) (same-word hits from the skew), then unpacked
__global__ void hist_packed_u16(const int *v, unsigned *out) {
    __shared__ unsigned h[2048];
    int t = threadIdx.x;
    for (int i = t; i < 2048; i += 256) h[i] = 0;
    __syncthreads();
    for (int i = t; i < 4096; i += 256) {
        unsigned b = (unsigned)v[i];
        atomicAdd(&h[b >> 1], 1u << (16 * (b & 1)));
    }
    __syncthreads();
    for (int i = t; i < 2048; i += 256) {
        unsigned x = h[i];
        out[2 * i] = x & 0xffff;
        out[2 * i + 1] = x >> 16;
    }
}
