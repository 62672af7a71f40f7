// block: 512
// input: in = ints_1024.npy
// a two-stage block reduction: each thread sums 2 values, a tree in shared memory down to 32
// with a __syncthreads_count of the threads still adding, then a warp's volatile tail; the
// stopping test of an early-exit search by __syncthreads_and, and a __syncthreads_or
__global__ void reduce_two_stage(const int *in, int *out) {
    __shared__ int s[512];
    int t = threadIdx.x;
    int v = in[t] + in[t + 512];
    s[t] = v;
    __syncthreads();
    int active = 0;
    for (int k = 256; k >= 32; k >>= 1) {
        int on = t < k;
        if (on) s[t] += s[t + k];
        active += __syncthreads_count(on && (s[t] & 1));
    }
    if (t < 32) {
        volatile int *vs = s;
        vs[t] += vs[t + 16]; vs[t] += vs[t + 8]; vs[t] += vs[t + 4];
        vs[t] += vs[t + 2]; vs[t] += vs[t + 1];
    }
    __syncthreads();
    int total = s[0];
    // rounds until every thread's running value passes the block total / 64
    int x = in[t], rounds = 0;
    while (!__syncthreads_and(x > total / 64) && rounds < 64) {
        x += in[(t * 7 + rounds * 33) & 1023];
        ++rounds;
    }
    int any_big = __syncthreads_or(x > total / 50);
    out[t] = x;
    if (t == 0) { out[512] = total; out[513] = active; out[514] = rounds; out[515] = any_big; }
}
