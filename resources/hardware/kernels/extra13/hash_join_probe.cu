// block: 256
// input: ht_keys = ht_keys_1024.npy
// input: ht_vals = ht_vals_1024.npy
// input: probes = probe_keys_1024.npy
// hash join probe: a 1024-slot open-addressing table (400 keys, -1 empty, built on the host with
// slot = (key * 0x9E3779B1) >> 22 and linear probing) loaded into shared memory as separate key
// and payload arrays; 1024 probe keys, 4 a thread, walk the table from their hash slot until the
// key or an empty slot: the probe lengths and the slots come from the data; matches are summed
__global__ void hash_join(const int *ht_keys, const int *ht_vals, const int *probes, int *out) {
    __shared__ int keys[1024];
    __shared__ int vals[1024];
    __shared__ int matched;
    int t = threadIdx.x;
    for (int i = t; i < 1024; i += 256) {
        keys[i] = ht_keys[i];
        vals[i] = ht_vals[i];
    }
    if (t == 0) matched = 0;
    __syncthreads();
    int sum = 0, steps = 0, hits = 0;
    for (int j = 0; j < 4; ++j) {
        int k = probes[j * 256 + t];
        unsigned s = ((unsigned)k * 0x9E3779B1u) >> 22;
        for (int n = 0; n < 1024; ++n, s = (s + 1) & 1023) {
            int kk = keys[s];
            ++steps;
            if (kk == k) { sum += vals[s]; ++hits; break; }
            if (kk == -1) break;
        }
    }
    atomicAdd(&matched, hits);
    __syncthreads();
    out[t] = sum;
    out[256 + t] = steps;
    if (t == 0) out[512] = matched;
}
