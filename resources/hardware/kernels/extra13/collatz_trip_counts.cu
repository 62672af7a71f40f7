// block: 128
// input: in = ints_1024.npy
// data-dependent trip counts: each thread iterates the Collatz map from a start value from the
// data (at most 200 steps), and every step reads a 512-entry shared table at x & 511, so the
// lanes leave the loop at different times and the reads go where the values say
__global__ void collatz_trips(const int *in, int *out) {
    __shared__ int tab[512];
    int t = threadIdx.x;
    for (int i = t; i < 512; i += 128) tab[i] = (i * 2654435761u) >> 24;
    __syncthreads();
    for (int j = 0; j < 2; ++j) {
        unsigned x = (unsigned)in[j * 128 + t] + 1;
        int steps = 0, acc = 0;
        while (x != 1 && steps < 200) {
            acc += tab[x & 511];
            x = (x & 1) ? 3 * x + 1 : x >> 1;
            ++steps;
        }
        out[j * 256 + t] = steps;
        out[j * 256 + 128 + t] = acc;
    }
}
