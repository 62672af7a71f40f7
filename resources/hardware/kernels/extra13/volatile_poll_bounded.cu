// block: 128
// input: in = ints_1024.npy
// RACE / TIMING DEPENDENT: warp 3 publishes 8 chunks of 32 values, each followed by
// __threadfence_block and a volatile flag; warps 0-2 poll the flag of the chunk they need with a
// volatile read at most 256 times (a bounded spin: the number of polls and whether a reader gives
// up depend on the schedule), then read the chunk and record how many polls it took
__global__ void volatile_poll(const int *in, int *out) {
    __shared__ int data[8][32];
    __shared__ volatile int flag[8];
    int t = threadIdx.x, w = t >> 5, lane = t & 31;
    if (t < 8) flag[t] = 0;
    __syncthreads();
    if (w == 3) {
        for (int c = 0; c < 8; ++c) {
            data[c][lane] = in[c * 32 + lane] * 3;
            __threadfence_block();
            __syncwarp();
            if (lane == 0) flag[c] = 1;
        }
    } else {
        int got = 0, polls = 0;
        for (int c = w; c < 8; c += 3) {
            int n = 0;
            while (flag[c] == 0 && n < 256) ++n;
            polls += n;
            if (flag[c]) got += ((volatile int *)data[c])[(lane * 7) & 31];
        }
        out[t] = got;
        out[128 + t] = polls;
    }
}
