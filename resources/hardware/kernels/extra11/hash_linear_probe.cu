// block: 128
// input: keys = hash_keys_512.npy
// insert 512 keys into a 1024-slot hash table in shared memory (multiplicative hash, linear probing
// with atomicCAS), count duplicates, then write the table out
#define SLOTS 1024
#define EMPTY -1
__global__ void hash_linear_probe(const int *keys, int *table_out, int *counts_out) {
    __shared__ int table[SLOTS];
    __shared__ int counts[SLOTS];
    int t = threadIdx.x;
    for (int i = t; i < SLOTS; i += 128) { table[i] = EMPTY; counts[i] = 0; }
    __syncthreads();
    for (int i = t; i < 512; i += 128) {
        int k = keys[i];
        unsigned int h = ((unsigned int)k * 2654435761u) >> 22;
        while (true) {
            int prev = atomicCAS(&table[h], EMPTY, k);
            if (prev == EMPTY || prev == k) { atomicAdd(&counts[h], 1); break; }
            h = (h + 1) & (SLOTS - 1);
        }
    }
    __syncthreads();
    for (int i = t; i < SLOTS; i += 128) { table_out[i] = table[i]; counts_out[i] = counts[i]; }
}
