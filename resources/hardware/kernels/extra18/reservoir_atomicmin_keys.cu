// block: 256
// input: in = ukeys_1024.npy
// input: perm = perm_1024.npy
// reservoir-style selection: each of 1024 items goes to slot perm[i] & 63 (from the data) with
// a random-looking priority key; atomicMin on the shared slot's packed (key, item) picks the
// winner whatever the order; then the winners read back and the losers counted per slot
__global__ void reservoir_min(const unsigned *in, const int *perm, unsigned *out) {
    __shared__ unsigned long long best[64];
    __shared__ unsigned lo[64];
    __shared__ int losers[64];
    int t = threadIdx.x;
    if (t < 64) { best[t] = ~0ull; lo[t] = ~0u; losers[t] = 0; }
    __syncthreads();
    for (int i = t; i < 1024; i += 256) {
        int slot = perm[i] & 63;
        unsigned key = in[i] * 2654435761u;
        atomicMin(&best[slot], ((unsigned long long)key << 32) | (unsigned)i);
        atomicMin(&lo[slot], key >> 8);
    }
    __syncthreads();
    for (int i = t; i < 1024; i += 256) {
        int slot = perm[i] & 63;
        if ((unsigned)(best[slot] & 0xffffffffu) != (unsigned)i) atomicAdd(&losers[slot], 1);
    }
    __syncthreads();
    if (t < 64) {
        out[t] = (unsigned)best[t];
        out[64 + t] = (unsigned)(best[t] >> 32);
        out[128 + t] = lo[t];
        out[192 + t] = losers[t];
    }
}
