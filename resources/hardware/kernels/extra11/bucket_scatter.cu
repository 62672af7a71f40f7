// block: 256
// input: keys = bucket_keys_256.npy
// counting-sort style scatter: each thread takes a slot in its key's bucket with atomicAdd and
// writes its value there (pos = atomicAdd(&count[key], 1); out_s[key * K + pos] = v)
#define NB 16
#define K 64
__global__ void bucket_scatter(const int *keys, int *out, int *counts_out) {
    __shared__ int count[NB];
    __shared__ int out_s[NB * K];
    int t = threadIdx.x;
    if (t < NB) count[t] = 0;
    for (int i = t; i < NB * K; i += 256) out_s[i] = -1;
    __syncthreads();
    int key = keys[t] & (NB - 1);
    int pos = atomicAdd(&count[key], 1);
    if (pos < K) out_s[key * K + pos] = t;
    __syncthreads();
    for (int i = t; i < NB * K; i += 256) out[i] = out_s[i];
    if (t < NB) counts_out[t] = count[t];
}
