// block: 256
// define: step=0
// An accidental endless loop (a step of 0): it runs until the run's budget stops it.
__global__ void endless_loop(int *out, int n, int step) {
    __shared__ int s[1024];
    int t = threadIdx.x;
    s[t] = t;
    __syncthreads();
    int acc = 0;
    for (int i = 0; i < 1000; i += step) {
        s[(t * 33 + i) & 1023] += i;
        acc += s[(t + 7 * i) & 1023];
    }
    out[t] = acc;
}
