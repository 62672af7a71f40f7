// block: 128
// input: vals = runs_1024.npy
// run-length encoding of 1024 values (runs of 1 to 12): each warp encodes its 256 in chunks of 32,
// heads found with __ballot_sync, each head's slot with __popc of the lanes below it; run starts
// and values go to the warp's part of shared memory, then lengths are the differences of starts
__global__ void rle_ballot(const int *vals, int *run_vals, int *run_lens, int *num_runs) {
    __shared__ int starts[4][257];
    __shared__ int values[4][256];
    int t = threadIdx.x, lane = t & 31, w = t >> 5;
    int n = 0;  // runs found so far by this warp
    for (int c = 0; c < 8; ++c) {
        int i = w * 256 + c * 32 + lane;
        int v = vals[i];
        bool head = (c == 0 && lane == 0) || v != vals[i - 1];
        unsigned int mask = __ballot_sync(0xffffffffu, head);
        if (head) {
            int slot = n + __popc(mask & ((1u << lane) - 1));
            starts[w][slot] = i - w * 256;
            values[w][slot] = v;
        }
        n += __popc(mask);
    }
    if (lane == 0) starts[w][n] = 256;
    __syncwarp();
    for (int r = lane; r < n; r += 32) {
        run_vals[w * 256 + r] = values[w][r];
        run_lens[w * 256 + r] = starts[w][r + 1] - starts[w][r];
    }
    if (lane == 0) num_runs[w] = n;
}
