// block: 128
// input: keys = cuckoo_keys_512.npy
// cuckoo hashing of 512 distinct keys into two 512-slot tables in shared memory: atomicExch into
// the first table, an evicted key goes to its slot in the second, and so on (at most 32 kicks,
// then a stash); then every key and a key that is absent are looked up in both tables. Where a key
// ends up depends on the order in which the warps' exchanges land.
#define EMPTY 0
__device__ __forceinline__ unsigned int h1(int k) { return ((unsigned int)k * 2654435761u) >> 23; }
__device__ __forceinline__ unsigned int h2(int k) { return (((unsigned int)k ^ 0x5bd1e995u) * 0x9e3779b1u) >> 23; }
__global__ void cuckoo_hash(const int *keys, int *tables_out, int *found_out, int *stash_out) {
    __shared__ int t1[512], t2[512];
    __shared__ int stash[64];
    __shared__ int stash_n;
    int t = threadIdx.x;
    for (int i = t; i < 512; i += 128) { t1[i] = EMPTY; t2[i] = EMPTY; }
    if (t == 0) stash_n = 0;
    __syncthreads();
    for (int e = t; e < 512; e += 128) {
        int cur = keys[e];
        int kick = 0;
        for (; kick < 32; ++kick) {
            cur = atomicExch(&t1[h1(cur)], cur);
            if (cur == EMPTY) break;
            cur = atomicExch(&t2[h2(cur)], cur);
            if (cur == EMPTY) break;
        }
        if (kick == 32) stash[atomicAdd(&stash_n, 1) & 63] = cur;
    }
    __syncthreads();
    int found = 0;
    for (int e = t; e < 512; e += 128) {
        int k = keys[e];
        found += (t1[h1(k)] == k || t2[h2(k)] == k);
        int absent = k + (1 << 24);  // the keys are below 2^24
        found += 2 * (t1[h1(absent)] == absent || t2[h2(absent)] == absent);
    }
    found_out[t] = found;
    for (int i = t; i < 512; i += 128) { tables_out[i] = t1[i]; tables_out[512 + i] = t2[i]; }
    if (t == 0) stash_out[0] = stash_n;
}
