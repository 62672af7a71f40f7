// block: 256
// input: keys = keys_1024.npy
// one radix-sort pass over a 2-bit digit with warp votes: __ballot_sync per digit value gives each
// lane its rank among the warp's equal digits; per-warp digit counts in shared memory, then a
// stable scatter of the keys into a shared buffer
__global__ void ballot_radix_count(const int *keys, int *out) {
    __shared__ int warp_count[8][4];
    __shared__ int digit_base[4];
    __shared__ int sorted[256];
    int t = threadIdx.x, lane = t & 31, warp = t >> 5;
    int key = keys[t];
    int digit = (key >> 8) & 3;
    unsigned int lt = (1u << lane) - 1u;
    int rank = 0;
    for (int d = 0; d < 4; ++d) {
        unsigned int m = __ballot_sync(0xffffffffu, digit == d);
        if (digit == d) rank = __popc(m & lt);
        if (lane == 0) warp_count[warp][d] = __popc(m);
    }
    __syncthreads();
    if (t < 4) {
        int base = 0;
        for (int d = 0; d < t; ++d)
            for (int w = 0; w < 8; ++w) base += warp_count[w][d];
        digit_base[t] = base;
    }
    __syncthreads();
    int pos = digit_base[digit] + rank;
    for (int w = 0; w < warp; ++w) pos += warp_count[w][digit];
    sorted[pos] = key;
    __syncthreads();
    out[t] = sorted[t];
}
