// block: 256
// input: in = ukeys_1024.npy
// radix select: the 64th largest of 1024 unsigned keys by four passes over 8-bit digits (a
// 256-bin shared histogram of the keys still matching the prefix, atomicAdd; a suffix walk by
// one thread to pick the digit), then the top 64 gathered by a __syncthreads_count-free
// ballot compaction into shared memory and written in index order
__global__ void radix_select_topk(const unsigned *in, unsigned *out) {
    __shared__ unsigned keys[1024];
    __shared__ int hist[256];
    __shared__ unsigned prefix_s, mask_s;
    __shared__ int want_s;
    __shared__ int wcount[8];
    int t = threadIdx.x, lane = t & 31, w = t >> 5;
    for (int i = t; i < 1024; i += 256) keys[i] = in[i];
    if (t == 0) { prefix_s = 0; mask_s = 0; want_s = 64; }
    for (int shift = 24; shift >= 0; shift -= 8) {
        hist[t] = 0;
        __syncthreads();
        unsigned prefix = prefix_s, mask = mask_s;
        for (int i = t; i < 1024; i += 256) {
            unsigned k = keys[i];
            if ((k & mask) == prefix) atomicAdd(&hist[(k >> shift) & 255], 1);
        }
        __syncthreads();
        if (t == 0) {
            int want = want_s, d = 255;
            while (hist[d] < want) { want -= hist[d]; --d; }
            want_s = want;
            prefix_s = prefix | ((unsigned)d << shift);
            mask_s = mask | (255u << shift);
        }
        __syncthreads();
    }
    unsigned kth = prefix_s;
    // keys greater than kth, in index order, by per-warp ballots
    int base = 0;
    for (int i0 = 0; i0 < 1024; i0 += 256) {
        unsigned k = keys[i0 + t];
        unsigned b = __ballot_sync(0xffffffff, k > kth);
        if (lane == 0) wcount[w] = __popc(b);
        __syncthreads();
        int off = base;
        for (int j = 0; j < w; ++j) off += wcount[j];
        if (k > kth) out[off + __popc(b & ((1u << lane) - 1))] = k;
        for (int j = 0; j < 8; ++j) base += wcount[j];
        __syncthreads();
    }
    if (t == 0) { out[1000] = kth; out[1001] = base; out[1002] = want_s; }
}
