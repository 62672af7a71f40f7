// block: 256
// define: n=1000
// The loop of issue 40: a read-modify-write and a read of shared memory each pass, at addresses
// that move with the pass (so warps race on them, and the race tracking works on every access).
__global__ void shared_loop(int *out, int n) {
    __shared__ int s[1024];
    int t = threadIdx.x;
    for (int i = t; i < 1024; i += 256) s[i] = i;
    __syncthreads();
    int acc = 0;
    for (int i = 0; i < n; i++) {
        s[(t * 33 + i) & 1023] += i;
        acc += s[(t + 7 * i) & 1023];
    }
    out[t] = acc;
}
