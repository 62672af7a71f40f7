// block: 256
// input: data = zipf_bytes_4096.npy
// stable counting sort of 1024 skewed bytes: a 256-bin histogram with atomics, a Hillis-Steele
// scan of the bins (double-buffered), then each key's rank among equal keys before it counted by a
// broadcast walk of the shared keys; keys scattered to shared memory at offset + rank
__global__ void counting_sort_bytes(const unsigned char *data, unsigned char *out, int *offsets) {
    __shared__ unsigned char keys[1024];
    __shared__ unsigned char sorted[1024];
    __shared__ int cnt[2][256];
    __shared__ int start[256];
    int t = threadIdx.x;
    for (int i = t; i < 1024; i += 256) keys[i] = data[i];
    cnt[0][t] = 0;
    __syncthreads();
    for (int i = t; i < 1024; i += 256) atomicAdd(&cnt[0][keys[i]], 1);
    __syncthreads();
    int mine = cnt[0][t];
    int src = 0;
    for (int d = 1; d < 256; d <<= 1) {
        int x = cnt[src][t];
        if (t >= d) x += cnt[src][t - d];
        cnt[src ^ 1][t] = x;
        src ^= 1;
        __syncthreads();
    }
    start[t] = cnt[src][t] - mine;
    __syncthreads();
    for (int i = t; i < 1024; i += 256) {
        unsigned char k = keys[i];
        int r = 0;
        for (int j = 0; j < i; ++j) r += keys[j] == k;
        sorted[start[k] + r] = k;
    }
    __syncthreads();
    for (int i = t; i < 1024; i += 256) out[i] = sorted[i];
    offsets[t] = start[t];
}
