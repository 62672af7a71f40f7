// block: 256
// input: in = floats_1024.npy
// __syncthreads_count tells every thread how many values pass a threshold; the survivors are
// compacted into shared memory (ballot ranks + per-warp counts) and the first `total` threads
// read them back in order
__global__ void syncthreads_count_compact(const float *in, float *out) {
    __shared__ float kept[256];
    __shared__ int warp_n[8];
    int t = threadIdx.x, lane = t & 31, warp = t >> 5;
    float v = in[t];
    bool keep = v > 0.5f;
    int total = __syncthreads_count(keep);
    unsigned int m = __ballot_sync(0xffffffffu, keep);
    if (lane == 0) warp_n[warp] = __popc(m);
    __syncthreads();
    int pos = __popc(m & ((1u << lane) - 1u));
    for (int w = 0; w < warp; ++w) pos += warp_n[w];
    if (keep) kept[pos] = v;
    __syncthreads();
    if (t < total) out[t] = kept[t] - kept[total - 1 - t];
    if (t == 0) out[256] = (float)total;
}
