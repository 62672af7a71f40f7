// block: 128
// input: in = floats_1024.npy
// warp 0 produces eight 128-float chunks into shared memory and raises a `volatile` flag after each
// (__threadfence_block first); warps 1-3 spin on the flag of the chunk they need, then read it by
// columns. How many times a consumer polls its flag depends on the hardware's schedule.
__global__ void volatile_flags(const float *in, float *out) {
    __shared__ float chunk[8][128];
    __shared__ int flag_s[8];
    volatile int *flag = flag_s;
    int t = threadIdx.x, lane = t & 31, w = t >> 5;
    if (t < 8) flag[t] = 0;
    __syncthreads();
    if (w == 0) {
        for (int c = 0; c < 8; ++c) {
            for (int i = lane; i < 128; i += 32) chunk[c][i] = in[c * 128 + i] * 0.5f;
            __threadfence_block();
            __syncwarp();
            if (lane == 0) flag[c] = 1;
        }
    } else {
        float a = 0.f;
        for (int c = w - 1; c < 8; c += 3) {
            while (flag[c] == 0) { }
            __threadfence_block();
            for (int r = 0; r < 4; ++r) a += ((volatile float *)chunk[c])[lane * 4 + r];
        }
        out[t - 32] = a;
    }
}
