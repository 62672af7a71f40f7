// block: 64
// input: in = ukeys_1024.npy
// Conway's game of life on a 64 x 64 torus, a row a thread as one unsigned long long in shared
// memory (double-buffered, LDS.64 of the rows above and below), neighbour counts bit-sliced with
// 64-bit rotates, 6 generations; the population by __popcll and a shared atomicAdd
__device__ unsigned long long rotl1(unsigned long long v) { return (v << 1) | (v >> 63); }
__device__ unsigned long long rotr1(unsigned long long v) { return (v >> 1) | (v << 63); }
__global__ void life64(const unsigned *in, unsigned long long *out, int *pop) {
    __shared__ unsigned long long g[2][64];
    __shared__ int total;
    int r = threadIdx.x;
    g[0][r] = ((unsigned long long)(in[2 * r + 1] & in[2 * r + 129]) << 32) | (in[2 * r] | in[2 * r + 128]);
    if (r == 0) total = 0;
    __syncthreads();
    int s = 0;
    for (int gen = 0; gen < 6; ++gen) {
        unsigned long long up = g[s][(r + 63) & 63], mid = g[s][r], dn = g[s][(r + 1) & 63];
        unsigned long long nb[8] = {rotl1(up), up, rotr1(up), rotl1(mid), rotr1(mid), rotl1(dn), dn, rotr1(dn)};
        unsigned long long s0 = 0, s1 = 0, s2 = 0;
        for (int i = 0; i < 8; ++i) {
            unsigned long long c0 = s0 & nb[i];
            s0 ^= nb[i];
            unsigned long long c1 = s1 & c0;
            s1 ^= c0;
            s2 |= c1;
        }
        g[s ^ 1][r] = ~s2 & s1 & (s0 | mid);
        s ^= 1;
        __syncthreads();
    }
    atomicAdd(&total, __popcll(g[s][r]));
    __syncthreads();
    out[r] = g[s][r];
    if (r == 0) *pop = total;
}
