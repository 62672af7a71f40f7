// block: 256
// input: keys = hkeys_u64_1024.npy
// input: q = hq_u64_2048.npy
// open addressing with double hashing of 512 unsigned long long keys in a shared 1024-slot table:
// built by one thread (no contention; probe lengths from the data), then 1024 queries by all
// threads, each probing until a hit or an empty slot (data-dependent trip counts, break)
__global__ void hash_double_u64(const unsigned long long *keys, const unsigned long long *q, int *out) {
    __shared__ unsigned long long tab[1024];
    __shared__ short val[1024];
    int t = threadIdx.x;
    for (int i = t; i < 1024; i += 256) { tab[i] = 0ull; val[i] = -1; }
    __syncthreads();
    if (t == 0) {
        for (int i = 0; i < 512; ++i) {
            unsigned long long k = keys[i];
            unsigned h = (unsigned)(k * 0x9E3779B97F4A7C15ull >> 54);
            unsigned step = ((unsigned)(k >> 7) & 511u) * 2 + 1;
            while (tab[h] != 0ull) h = (h + step) & 1023u;
            tab[h] = k;
            val[h] = (short)i;
        }
    }
    __syncthreads();
    for (int i = t; i < 1024; i += 256) {
        unsigned long long k = q[i];
        unsigned h = (unsigned)(k * 0x9E3779B97F4A7C15ull >> 54);
        unsigned step = ((unsigned)(k >> 7) & 511u) * 2 + 1;
        int found = -1, probes = 0;
        while (true) {
            ++probes;
            unsigned long long s = tab[h];
            if (s == k) { found = val[h]; break; }
            if (s == 0ull) break;
            h = (h + step) & 1023u;
        }
        out[i] = found;
        out[1024 + i] = probes;
    }
}
