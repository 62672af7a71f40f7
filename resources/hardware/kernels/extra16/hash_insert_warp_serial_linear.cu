// block: 256
// input: keys = hash_keys_768.npy
// input: queries = hash_queries_512.npy
// open addressing with linear probing in a 1024-slot shared table: the 8 warps insert in turn
// (warp w in round w, __syncthreads between rounds) so only lanes of one warp race: atomicCAS from
// the hash slot, a duplicate adds to the slot's count; then lookups of 512 queries (present and
// absent) by all threads
__global__ void hash_insert_serial(const int *keys, const int *queries, int *out) {
    __shared__ int table[1024];
    __shared__ int count[1024];
    int t = threadIdx.x, w = t / 32;
    for (int i = t; i < 1024; i += 256) { table[i] = -1; count[i] = 0; }
    __syncthreads();
    for (int round = 0; round < 8; ++round) {
        if (w == round) {
            for (int j = 0; j < 3; ++j) {
                int k = keys[j * 256 + t];
                unsigned s = ((unsigned)k * 0x9E3779B1u) >> 22;
                while (true) {
                    int old = atomicCAS(&table[s], -1, k);
                    if (old == -1 || old == k) { atomicAdd(&count[s], 1); break; }
                    s = (s + 1) & 1023;
                }
            }
        }
        __syncthreads();
    }
    int found = 0, probes = 0;
    for (int j = 0; j < 2; ++j) {
        int q = queries[j * 256 + t];
        unsigned s = ((unsigned)q * 0x9E3779B1u) >> 22;
        while (true) {
            int k = table[s];
            ++probes;
            if (k == q) { found += count[s]; break; }
            if (k == -1) break;
            s = (s + 1) & 1023;
        }
    }
    out[t] = found;
    out[256 + t] = probes;
    for (int i = t; i < 1024; i += 256) out[512 + i] = table[i];
}
